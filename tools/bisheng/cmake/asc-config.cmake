# find_package(ASC) for the CPU twin of CANN (installed as <root>/lib64/cmake/asc-config.cmake).
# Use it as with CANN, before project():
#
#   set(CMAKE_ASC_ARCHITECTURES dav-2201 CACHE STRING "")   # optional; else from SOC_VERSION
#   find_package(ASC REQUIRED)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo add.asc)                             # host main + kernels + <<<>>>
#
# It adds the `ASC` language (CMAKE_ASC_COMPILER = the tree's bisheng, extension .asc), which
# compiles with `bisheng ... -c -x asc` and links with bisheng (libascendc_runtime, ascendcl).
# Like CANN's config.cmake it blanks CMAKE_CXX_FLAGS_DEBUG/RELEASE.
get_filename_component(ASC_TWIN_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT EXISTS "${ASC_TWIN_ROOT}/bin/bisheng")
  message(FATAL_ERROR "ASC: no bin/bisheng under ${ASC_TWIN_ROOT} (is this the ascend-twin tree?)")
endif()
list(FIND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/asc_modules" _asc_twin_index)
if(_asc_twin_index EQUAL -1)
  list(APPEND CMAKE_MODULE_PATH "${CMAKE_CURRENT_LIST_DIR}/asc_modules")
endif()
if(NOT CMAKE_ASC_COMPILER)
  set(CMAKE_ASC_COMPILER "${ASC_TWIN_ROOT}/bin/bisheng" CACHE FILEPATH "BiSheng (ascend-twin)")
endif()
# llvm-objcopy beside bisheng in CANN's layout (ascendc_fatbin_library extracts device binaries)
find_program(ASC_TWIN_OBJCOPY NAMES llvm-objcopy llvm-objcopy-16
             HINTS "${ASC_TWIN_ROOT}/x86_64-linux/ccec_compiler/bin" /usr/lib/llvm-16/bin)
set(CMAKE_CXX_FLAGS_DEBUG "")
set(CMAKE_CXX_FLAGS_RELEASE "")

set(ASC_FOUND TRUE)
set(ASC_VERSION "0.0.0-twin")
set(ASC_INCLUDE_DIRS "${ASC_TWIN_ROOT}/include" "${ASC_TWIN_ROOT}/asc/include")
set(ASC_LIBRARY_DIR "${ASC_TWIN_ROOT}/lib64")
set(ASC_LIBRARIES "${ASC_TWIN_ROOT}/lib64/libascendc_runtime.so" "${ASC_TWIN_ROOT}/lib64/libascendcl.so")

# Host-only C++ targets that call ACL or the launch helpers link these (ASC targets get them
# from bisheng). UNKNOWN: this runs before project(), when CMake cannot tell shared from static.
foreach(_asc_twin_lib ascendcl ascendc_runtime)
  if(NOT TARGET ASC::${_asc_twin_lib})
    add_library(ASC::${_asc_twin_lib} UNKNOWN IMPORTED)
    set_target_properties(ASC::${_asc_twin_lib} PROPERTIES
      IMPORTED_LOCATION "${ASC_TWIN_ROOT}/lib64/lib${_asc_twin_lib}.so"
      INTERFACE_INCLUDE_DIRECTORIES "${ASC_TWIN_ROOT}/include;${ASC_TWIN_ROOT}/asc/include")
  endif()
endforeach()

# CANN's generated launchers for a target's kernels: bisheng writes aclrtlaunch_<kernel>.h into
# ${CMAKE_BINARY_DIR}/include/<target> (a PUBLIC include directory of the target; GEN_ACLRT on
# the target names it). Used by ascendc_library(... ENABLE_ACLRT_LAUNCH) and ascendc.cmake.
function(asc_twin_enable_aclrt_launch target)
  set(_launch_dir "${CMAKE_BINARY_DIR}/include/${target}")
  file(MAKE_DIRECTORY "${_launch_dir}")
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:ASC>:--twin-aclrtlaunch-dir=${_launch_dir}>")
  target_include_directories(${target} PUBLIC "${_launch_dir}")
  set_target_properties(${target} PROPERTIES GEN_ACLRT "${_launch_dir}")
endfunction()

# CANN's FindASC helpers, for projects that use them: a library of .asc sources.
#   ascendc_library(name STATIC|SHARED|OBJECT srcs... [ENABLE_ACLRT_LAUNCH])
# ENABLE_ACLRT_LAUNCH (the keyword, or the variable set ON) also generates aclrtlaunch_*.h.
function(ascendc_library name kind)
  cmake_parse_arguments(_asc "ENABLE_ACLRT_LAUNCH" "" "" ${ARGN})
  add_library(${name} ${kind} ${_asc_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE ASC POSITION_INDEPENDENT_CODE ON)
  if(_asc_ENABLE_ACLRT_LAUNCH OR ENABLE_ACLRT_LAUNCH)
    asc_twin_enable_aclrt_launch(${name})
    target_include_directories(${name} PUBLIC ${ASC_INCLUDE_DIRS})
  endif()
endfunction()

# ascendc_fatbin_library(name src): the device binary of one source's kernels as a file,
# ${CMAKE_CURRENT_BINARY_DIR}/<name>.o (property ASC_FATBIN_FILE of target <name>), for
# aclrtBinaryLoadFromFile + aclrtBinaryGetFunction + aclrtLaunchKernel. bisheng compiles the
# source and llvm-objcopy takes its .aicore_binary section, as CANN's kernel binaries are
# produced. One source per fatbin on the twin (a device binary is one translation unit).
function(ascendc_fatbin_library name)
  set(_srcs ${ARGN})
  list(LENGTH _srcs _count)
  if(NOT _count EQUAL 1)
    message(FATAL_ERROR "ascendc_fatbin_library(${name}): the CPU twin builds a fatbin from exactly one source file (got ${_count})")
  endif()
  get_filename_component(_src "${_srcs}" ABSOLUTE)
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/${name}.o")
  set(_host "${CMAKE_CURRENT_BINARY_DIR}/${name}.host.o")
  if(NOT CMAKE_ASC_ARCH_FLAG)
    message(FATAL_ERROR "ascendc_fatbin_library(${name}): enable the ASC language first (project(... LANGUAGES ASC ...))")
  endif()
  separate_arguments(_arch_flags UNIX_COMMAND "${CMAKE_ASC_ARCH_FLAG}")
  add_custom_command(OUTPUT "${_out}"
    COMMAND "${CMAKE_ASC_COMPILER}" -c -x asc "${_src}" -o "${_host}" ${_arch_flags} -I "${CMAKE_CURRENT_SOURCE_DIR}"
    COMMAND "${ASC_TWIN_OBJCOPY}" -O binary --only-section=.aicore_binary "${_host}" "${_out}"
    DEPENDS "${_src}"
    COMMENT "ascendc_fatbin_library ${name}: ${name}.o"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS "${_out}")
  set_target_properties(${name} PROPERTIES ASC_FATBIN_FILE "${_out}")
endfunction()
function(ascendc_compile_definitions target)
  target_compile_definitions(${target} ${ARGN})
endfunction()
function(ascendc_include_directories target)
  target_include_directories(${target} ${ARGN})
endfunction()
function(ascendc_compile_options target)
  set(_opts ${ARGN})
  list(REMOVE_ITEM _opts -forward-options-to-host-compiler)
  target_compile_options(${target} ${_opts})
endfunction()
