# ES (eager-style graph builder) packages of the CPU twin of CANN: add_es_library and
# add_es_library_and_whl, as CANN's include/ge/cmake/generate_es_package.cmake.
#
#   add_es_library(ES_LINKABLE_AND_ALL_TARGET es_<m> OPP_PROTO_TARGET <proto lib target>
#                  [OUTPUT_PATH <dir>] [EXCLUDE_OPS Op1,Op2])
#
# Targets: es_<m> (INTERFACE, link this), generate_es_<m>_code (ALL: runs gen_esb), es_<m>_obj,
# es_<m>_so (libes_<m>.so), es_<m>_a (libes_<m>.a), install_es_<m> (with OUTPUT_PATH),
# build_es_<m> (everything), generate_es_<m>_whl (add_es_library_and_whl only).
# Generated sources: ${CMAKE_CURRENT_BINARY_DIR}/es_<m>_build/generated_code.
#
# This file is also run in script mode (cmake -DGE_ES_ACTION=... -P) for the build-time steps.

if(CMAKE_SCRIPT_MODE_FILE)
  if(GE_ES_ACTION STREQUAL "stage")
    # A fresh OPP root holding the proto libraries where the twin's loader looks:
    # <root>/op_graph/lib/linux/<arch>/*.so
    file(REMOVE_RECURSE "${GE_ES_STAGE_ROOT}")
    file(MAKE_DIRECTORY "${GE_ES_STAGE_LIB_DIR}")
    if(IS_DIRECTORY "${GE_ES_PROTO}")
      file(GLOB _libs "${GE_ES_PROTO}/*.so" "${GE_ES_PROTO}/lib/linux/${GE_ES_ARCH}/*.so")
      if(NOT _libs)
        message(FATAL_ERROR "add_es_library: proto directory ${GE_ES_PROTO} holds no *.so "
                            "(nor lib/linux/${GE_ES_ARCH}/*.so)")
      endif()
    elseif(EXISTS "${GE_ES_PROTO}")
      set(_libs "${GE_ES_PROTO}")
    else()
      message(FATAL_ERROR "add_es_library: proto library ${GE_ES_PROTO} does not exist")
    endif()
    file(COPY ${_libs} DESTINATION "${GE_ES_STAGE_LIB_DIR}")
  elseif(GE_ES_ACTION STREQUAL "all_in_one")
    # One translation unit including every generated es_<Op>.cpp (the op list is known only
    # after gen_esb ran); rewritten only when it changes, so unchanged protos do not recompile.
    file(GLOB _sources RELATIVE "${GE_ES_GEN_DIR}" "${GE_ES_GEN_DIR}/es_*.cpp")
    list(SORT _sources)
    set(_text "// All generated ES sources of one module (written by generate_es_package.cmake).\n")
    foreach(_src IN LISTS _sources)
      string(APPEND _text "#include \"${_src}\"\n")
    endforeach()
    set(_old "")
    if(EXISTS "${GE_ES_OUT}")
      file(READ "${GE_ES_OUT}" _old)
    endif()
    if(NOT _old STREQUAL _text)
      file(WRITE "${GE_ES_OUT}" "${_text}")
    endif()
  elseif(GE_ES_ACTION STREQUAL "install")
    file(GLOB _headers "${GE_ES_GEN_DIR}/*.h")
    file(REMOVE_RECURSE "${GE_ES_OUTPUT_PATH}/include/${GE_ES_TARGET}")
    file(COPY ${_headers} DESTINATION "${GE_ES_OUTPUT_PATH}/include/${GE_ES_TARGET}")
    file(COPY "${GE_ES_SO}" "${GE_ES_A}" DESTINATION "${GE_ES_OUTPUT_PATH}/lib64")
    if(GE_ES_WHL)
      file(GLOB _wheels "${GE_ES_WHL}/*.whl")
      file(COPY ${_wheels} DESTINATION "${GE_ES_OUTPUT_PATH}/whl")
    endif()
  elseif(GE_ES_ACTION STREQUAL "wheel_src")
    # The wheel's source tree: package es_<m> = generated Python + an __init__ exposing the ops
    # and the ge.es.plugins entry point <m> = es_<m>:get_module.
    file(REMOVE_RECURSE "${GE_ES_WHL_SRC}")
    file(GLOB _py "${GE_ES_GEN_DIR}/*.py")
    file(COPY ${_py} DESTINATION "${GE_ES_WHL_SRC}/${GE_ES_TARGET}")
    file(WRITE "${GE_ES_WHL_SRC}/${GE_ES_TARGET}/__init__.py"
         "\"\"\"ES API of module ${GE_ES_MODULE} (generated).\"\"\"\nimport sys\n\n"
         "from .${GE_ES_TARGET}_ops import *  # noqa: F401,F403\n\n\n"
         "def get_module():\n    return sys.modules[__name__]\n")
    file(WRITE "${GE_ES_WHL_SRC}/setup.py"
         "from setuptools import setup\n\n"
         "setup(name='${GE_ES_TARGET}', version='1.0.0', python_requires='>=3.7', packages=['${GE_ES_TARGET}'],\n"
         "      entry_points={'ge.es.plugins': ['${GE_ES_MODULE} = ${GE_ES_TARGET}:get_module']})\n")
  else()
    message(FATAL_ERROR "generate_es_package.cmake: unknown GE_ES_ACTION '${GE_ES_ACTION}'")
  endif()
  return()
endif()

include_guard(GLOBAL)

set(_GE_ES_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")
# <base> is three levels above include/ge/cmake (the install root, ASCEND_HOME_PATH).
get_filename_component(_GE_ES_BASE "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(_GE_ES_DEFAULT_FLAGS -fPIC -Wall -fstack-protector-all -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O2)

# Prints the modules `pip wheel --no-build-isolation` of a setup.py project needs and this
# interpreter lacks (exit 1), located with importlib.util.find_spec (found, not imported).
# wheel is needed only by a setuptools older than 70.1 (which has no bdist_wheel of its own);
# setuptools may be imported for that: only importing pip first upsets its distutils hack.
set(_GE_ES_WHEEL_TOOLS_PROBE [=[
import importlib.util, sys
missing = [m for m in ("pip", "setuptools") if importlib.util.find_spec(m) is None]
if "setuptools" not in missing and importlib.util.find_spec("wheel") is None:
    try:
        own_bdist_wheel = importlib.util.find_spec("setuptools.command.bdist_wheel") is not None
    except Exception:
        own_bdist_wheel = False
    if not own_bdist_wheel:
        missing.append("wheel")
print(", ".join(missing))
sys.exit(1 if missing else 0)
]=])

function(add_es_library_and_whl)
  _ge_es_add_library(add_es_library_and_whl ${ARGN})
endfunction()

function(add_es_library)
  _ge_es_add_library(add_es_library ${ARGN} SKIP_WHL)
endfunction()

# gen_esb as CANN looks it up: a gen_esb target, PATH, <base>/bin, <base>/<arch>-linux/bin.
function(_ge_es_find_gen_esb out_var out_dep)
  if(TARGET gen_esb)
    set(${out_var} "$<TARGET_FILE:gen_esb>" PARENT_SCOPE)
    set(${out_dep} gen_esb PARENT_SCOPE)
    return()
  endif()
  find_program(GE_ES_GEN_ESB gen_esb)
  if(NOT GE_ES_GEN_ESB)
    find_program(GE_ES_GEN_ESB gen_esb PATHS "${_GE_ES_BASE}/bin" "${_GE_ES_BASE}/${CMAKE_HOST_SYSTEM_PROCESSOR}-linux/bin"
                 NO_DEFAULT_PATH)
  endif()
  if(NOT GE_ES_GEN_ESB)
    message(FATAL_ERROR "add_es_library: gen_esb not found (no gen_esb target, not on PATH, not in "
                        "${_GE_ES_BASE}/bin): source set_env.sh of the CANN twin")
  endif()
  set(${out_var} "${GE_ES_GEN_ESB}" PARENT_SCOPE)
  set(${out_dep} "${GE_ES_GEN_ESB}" PARENT_SCOPE)
endfunction()

# The libraries generated code links: the ES base library and the graph libraries.
function(_ge_es_find_libs out_var)
  set(_libs "")
  foreach(_name eager_style_graph_builder_base graph graph_base)
    find_library(GE_ES_LIB_${_name} ${_name} PATHS "${_GE_ES_BASE}/lib64" NO_DEFAULT_PATH)
    if(NOT GE_ES_LIB_${_name})
      message(FATAL_ERROR "add_es_library: lib${_name}.so not found in ${_GE_ES_BASE}/lib64")
    endif()
    list(APPEND _libs "${GE_ES_LIB_${_name}}")
  endforeach()
  set(${out_var} "${_libs}" PARENT_SCOPE)
endfunction()

function(_ge_es_add_library caller)
  cmake_parse_arguments(ES "SKIP_WHL" "ES_LINKABLE_AND_ALL_TARGET;OPP_PROTO_TARGET;OUTPUT_PATH;EXCLUDE_OPS" "" ${ARGN})
  if(ES_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unknown argument(s) ${ES_UNPARSED_ARGUMENTS} (keywords: "
                        "ES_LINKABLE_AND_ALL_TARGET OPP_PROTO_TARGET OUTPUT_PATH EXCLUDE_OPS)")
  endif()
  if(NOT ES_ES_LINKABLE_AND_ALL_TARGET)
    message(FATAL_ERROR "${caller}: ES_LINKABLE_AND_ALL_TARGET is required (e.g. es_math)")
  endif()
  if(NOT ES_OPP_PROTO_TARGET)
    message(FATAL_ERROR "${caller}: OPP_PROTO_TARGET is required (the target of the op proto library)")
  endif()
  if(NOT TARGET ${ES_OPP_PROTO_TARGET})
    message(FATAL_ERROR "${caller}: OPP_PROTO_TARGET '${ES_OPP_PROTO_TARGET}' is not a target")
  endif()
  set(es ${ES_ES_LINKABLE_AND_ALL_TARGET})
  if(TARGET ${es})
    message(FATAL_ERROR "${caller}: target ${es} already exists")
  endif()
  # es_math -> module math: file names, the Python module and ge.es.<module> drop the prefix.
  string(REGEX REPLACE "^es_" "" module "${es}")
  if(NOT module MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${caller}: module name '${module}' (from ${es}) is not a valid identifier")
  endif()
  string(TOUPPER "${module}" module_upper)

  set(build_dir "${CMAKE_CURRENT_BINARY_DIR}/${es}_build")
  set(gen_dir "${build_dir}/generated_code")
  set(stage_root "${build_dir}/opp")
  set(arch "${CMAKE_HOST_SYSTEM_PROCESSOR}")
  set(stage_lib_dir "${stage_root}/op_graph/lib/linux/${arch}")
  set(all_in_one "${build_dir}/${es}_all_in_one.cpp")
  set(flag "${gen_dir}/generated_code.flag")

  # The proto library file (or, for INTERFACE targets, a directory of prebuilt ones).
  get_target_property(proto_type ${ES_OPP_PROTO_TARGET} TYPE)
  set(proto_dep ${ES_OPP_PROTO_TARGET})
  if(proto_type STREQUAL "SHARED_LIBRARY" OR proto_type STREQUAL "MODULE_LIBRARY")
    set(proto "$<TARGET_FILE:${ES_OPP_PROTO_TARGET}>")
  elseif(proto_type STREQUAL "OBJECT_LIBRARY")
    set(proto_dep ${es}__temp_proto)
    add_library(${proto_dep} SHARED $<TARGET_OBJECTS:${ES_OPP_PROTO_TARGET}>)
    _ge_es_find_libs(graph_libs)
    list(REMOVE_AT graph_libs 0)
    target_link_libraries(${proto_dep} PRIVATE ${graph_libs})
    set(proto "$<TARGET_FILE:${proto_dep}>")
  elseif(proto_type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(proto ${ES_OPP_PROTO_TARGET} INTERFACE_LIBRARY_OUTPUT_DIRECTORY)
    if(NOT proto)
      message(FATAL_ERROR "${caller}: INTERFACE target ${ES_OPP_PROTO_TARGET} needs the property "
                          "INTERFACE_LIBRARY_OUTPUT_DIRECTORY (the directory of its proto libraries)")
    endif()
    set(proto_dep "")
  else()
    message(FATAL_ERROR "${caller}: OPP_PROTO_TARGET ${ES_OPP_PROTO_TARGET} is a ${proto_type}; the twin's "
                        "gen_esb dlopens proto libraries, so it must be SHARED, OBJECT or INTERFACE")
  endif()

  _ge_es_find_gen_esb(gen_esb gen_esb_dep)
  _ge_es_find_libs(es_libs)
  set(gen_args --output_dir=${gen_dir} --module_name=${module} --h_guard_prefix=ES_${module_upper})
  if(ES_EXCLUDE_OPS)
    list(APPEND gen_args "--exclude_ops=${ES_EXCLUDE_OPS}")
  endif()
  set(ld_path "${_GE_ES_BASE}/lib64")
  if(DEFINED ENV{LD_LIBRARY_PATH} AND NOT "$ENV{LD_LIBRARY_PATH}" STREQUAL "")
    string(APPEND ld_path ":$ENV{LD_LIBRARY_PATH}")
  endif()
  add_custom_command(
    OUTPUT "${flag}" "${all_in_one}"
    COMMAND "${CMAKE_COMMAND}" -DGE_ES_ACTION=stage "-DGE_ES_STAGE_ROOT=${stage_root}"
            "-DGE_ES_STAGE_LIB_DIR=${stage_lib_dir}" "-DGE_ES_PROTO=${proto}" "-DGE_ES_ARCH=${arch}"
            -P "${_GE_ES_SCRIPT}"
    COMMAND "${CMAKE_COMMAND}" -E rm -rf "${gen_dir}"
    COMMAND "${CMAKE_COMMAND}" -E env "ASCEND_CUSTOM_OPP_PATH=${stage_root}" "LD_LIBRARY_PATH=${ld_path}"
            "${gen_esb}" ${gen_args}
    COMMAND "${CMAKE_COMMAND}" -DGE_ES_ACTION=all_in_one "-DGE_ES_GEN_DIR=${gen_dir}" "-DGE_ES_OUT=${all_in_one}"
            -P "${_GE_ES_SCRIPT}"
    DEPENDS ${proto_dep} ${gen_esb_dep} "${_GE_ES_SCRIPT}"
    COMMENT "Generating the ES API of module ${module} with gen_esb"
    VERBATIM)
  # generate_${es}_code is the one target owning the generation: every other consumer of its
  # outputs depends on that target, so `make -jN` runs gen_esb once (a custom command's rule is
  # emitted into each target listing its outputs, and independent targets would run it at once).
  add_custom_target(generate_${es}_code ALL DEPENDS "${flag}" "${all_in_one}")

  add_library(${es}_obj OBJECT "${all_in_one}")
  add_dependencies(${es}_obj generate_${es}_code)
  target_include_directories(${es}_obj PRIVATE "${gen_dir}" "${_GE_ES_BASE}/include" "${_GE_ES_BASE}/include/ge"
                                                "${_GE_ES_BASE}/include/external")
  target_compile_options(${es}_obj PRIVATE ${_GE_ES_DEFAULT_FLAGS})

  add_library(${es}_so SHARED $<TARGET_OBJECTS:${es}_obj>)
  add_library(${es}_a STATIC $<TARGET_OBJECTS:${es}_obj>)
  set_target_properties(${es}_so PROPERTIES OUTPUT_NAME ${es} LIBRARY_OUTPUT_DIRECTORY "${build_dir}"
                                            SKIP_BUILD_RPATH TRUE)
  set_target_properties(${es}_a PROPERTIES OUTPUT_NAME ${es} ARCHIVE_OUTPUT_DIRECTORY "${build_dir}")
  target_link_libraries(${es}_so PRIVATE ${es_libs})
  target_link_options(${es}_so PRIVATE -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack)

  add_library(${es} INTERFACE)
  set(includes "${gen_dir}")
  if(ES_OUTPUT_PATH)
    list(APPEND includes "${ES_OUTPUT_PATH}/include/${es}")
  endif()
  target_include_directories(${es} INTERFACE ${includes} "${_GE_ES_BASE}/include" "${_GE_ES_BASE}/include/ge"
                                             "${_GE_ES_BASE}/include/external")
  target_link_libraries(${es} INTERFACE ${es}_so ${es_libs})
  add_dependencies(${es} generate_${es}_code)

  set(whl_dir "")
  set(umbrella generate_${es}_code ${es}_so ${es}_a)
  if(NOT ES_SKIP_WHL)
    # A wheel is built with `pip wheel --no-deps --no-build-isolation --no-index`, which runs
    # offline only when pip and setuptools (and wheel, for a setuptools without bdist_wheel) are
    # installed. The modules are only located, never imported: importing pip before setuptools
    # trips setuptools' distutils hack on Debian although all three are installed.
    find_package(Python3 COMPONENTS Interpreter QUIET)
    if(NOT Python3_Interpreter_FOUND)
      message(FATAL_ERROR "${caller}: building the ${es} wheel needs a Python 3 interpreter; none was found "
                          "(use add_es_library for the C/C++ library without a wheel)")
    endif()
    execute_process(COMMAND "${Python3_EXECUTABLE}" -c "${_GE_ES_WHEEL_TOOLS_PROBE}"
                    RESULT_VARIABLE probe_status OUTPUT_VARIABLE missing OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT probe_status EQUAL 0)
      if(missing STREQUAL "")
        set(missing "pip, setuptools and wheel (the probe itself failed)")
      endif()
      message(FATAL_ERROR "${caller}: building the ${es} wheel is not supported with ${Python3_EXECUTABLE}: "
                          "missing Python module(s) ${missing}; the twin builds wheels offline "
                          "(pip wheel --no-deps --no-build-isolation --no-index), so install them for that "
                          "interpreter, or use add_es_library (no wheel) and put ${gen_dir} on PYTHONPATH")
    endif()
    set(whl_src "${build_dir}/whl_src")
    set(whl_dir "${build_dir}/whl")
    set(whl_stamp "${build_dir}/whl.stamp")
    add_custom_command(
      OUTPUT "${whl_stamp}"
      COMMAND "${CMAKE_COMMAND}" -DGE_ES_ACTION=wheel_src "-DGE_ES_GEN_DIR=${gen_dir}" "-DGE_ES_WHL_SRC=${whl_src}"
              "-DGE_ES_TARGET=${es}" "-DGE_ES_MODULE=${module}" -P "${_GE_ES_SCRIPT}"
      COMMAND "${CMAKE_COMMAND}" -E rm -rf "${whl_dir}"
      COMMAND "${Python3_EXECUTABLE}" -m pip wheel --no-deps --no-build-isolation --no-index -q -w "${whl_dir}"
              "${whl_src}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${whl_stamp}"
      DEPENDS generate_${es}_code "${flag}" "${_GE_ES_SCRIPT}"
      COMMENT "Building the ${es} wheel"
      VERBATIM)
    add_custom_target(generate_${es}_whl ALL DEPENDS "${whl_stamp}")
    add_dependencies(generate_${es}_whl generate_${es}_code)
    list(APPEND umbrella generate_${es}_whl)
  endif()

  if(ES_OUTPUT_PATH)
    add_custom_target(install_${es}
      COMMAND "${CMAKE_COMMAND}" -DGE_ES_ACTION=install "-DGE_ES_GEN_DIR=${gen_dir}"
              "-DGE_ES_OUTPUT_PATH=${ES_OUTPUT_PATH}" "-DGE_ES_TARGET=${es}" "-DGE_ES_SO=$<TARGET_FILE:${es}_so>"
              "-DGE_ES_A=$<TARGET_FILE:${es}_a>" "-DGE_ES_WHL=${whl_dir}" -P "${_GE_ES_SCRIPT}"
      DEPENDS ${umbrella}
      COMMENT "Installing ${es} into ${ES_OUTPUT_PATH}"
      VERBATIM)
    list(APPEND umbrella install_${es})
  endif()
  add_custom_target(build_${es} DEPENDS ${umbrella})
endfunction()
