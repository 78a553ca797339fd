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

# CANN's FindASC helpers, for projects that use them: a library of .asc sources.
function(ascendc_library name kind)
  add_library(${name} ${kind} ${ARGN})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE ASC POSITION_INDEPENDENT_CODE ON)
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
