# find_package(tikicpulib) for the CPU twin of CANN (installed as
# <root>/lib64/cmake/tikicpulib-config.cmake). CANN's CPU-debug package: targets
# tikicpulib::<product> that add the CPU-debug macros, the Ascend C headers and the libraries.
#
#   find_package(tikicpulib REQUIRED)
#   add_executable(demo add_custom.cpp main.cpp)      # kernels + ICPU_RUN_KF, host compiler
#   target_link_libraries(demo PRIVATE tikicpulib::${SOC_VERSION})   # e.g. Ascend910B1, ascend910B1
#
# Target names: every name CANN's package defines for a product the twin models, with CANN's
# grouping (ascend310p: Ascend310P1/P3/P5/P7; ascend910B1: Ascend910B1-B4, B2C, B4-1 and the
# Ascend910_93xx parts; ascend310B1: Ascend310B1-B4), plus every SoC of the twin's
# platform_config (each <SoC>.ini, as spelled and in lower case). A target builds for its SoC's
# ini (NpuArch, UB size); a name without an ini of its own takes its group's (Ascend310P1 ->
# Ascend310P3, Ascend910_9391 -> Ascend910B1, ...). CANN's ascend910 group (Ascend910A and
# kin, NpuArch 1001) is not modelled, so those names are not defined.
#
# Sources compiled by the plain C++ compiler run their kernels through ICPU_RUN_KF directly on
# host threads (tikicpulib.h); sources compiled by bisheng (ASC language) use the runtime.
get_filename_component(_tiki_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(_tiki_config_dir "${_tiki_root}/x86_64-linux/data/platform_config")

# CANN's product groups: the group's first entry names the ini it builds for when a name has none.
set(_tiki_group_ascend310p Ascend310P3 ascend310p Ascend310P1 Ascend310P3 Ascend310P5 Ascend310P7)
set(_tiki_group_ascend910B1 Ascend910B1 ascend910B1 Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4
    Ascend910B4-1 Ascend910_9391 Ascend910_9381 Ascend910_9392 Ascend910_9382 Ascend910_9372 Ascend910_9362)
set(_tiki_group_ascend310B1 Ascend310B1 ascend310B1 Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4)

function(_tiki_add_target name soc)
  if(TARGET tikicpulib::${name})
    return()
  endif()
  set(ini "${_tiki_config_dir}/${soc}.ini")
  if(NOT EXISTS "${ini}")
    return()
  endif()
  file(STRINGS "${ini}" arch REGEX "^NpuArch=")
  string(REPLACE "NpuArch=" "" arch "${arch}")
  if(arch STREQUAL "")
    message(FATAL_ERROR "tikicpulib: ${ini} has no NpuArch= line")
  endif()
  add_library(tikicpulib::${name} INTERFACE IMPORTED)
  set_target_properties(tikicpulib::${name} PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "ASCENDC_CPU_DEBUG=1;ASCENDC_DEBUG=1;__CCE_KT_TEST__=1;__NPU_ARCH__=${arch};ASC_TWIN_CPU_SOC=\"${soc}\""
    INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:-std=c++17>"
    INTERFACE_INCLUDE_DIRECTORIES "${_tiki_root}/asc/include;${_tiki_root}/include"
    INTERFACE_LINK_LIBRARIES "${_tiki_root}/lib64/libascendc_runtime.so;${_tiki_root}/lib64/libascendcl.so;pthread;dl")
endfunction()

# The twin's own SoCs first: a name with its own ini builds for it.
file(GLOB _tiki_inis "${_tiki_config_dir}/*.ini")
foreach(_tiki_ini ${_tiki_inis})
  get_filename_component(_tiki_soc "${_tiki_ini}" NAME_WE)
  string(TOLOWER "${_tiki_soc}" _tiki_lower)
  _tiki_add_target(${_tiki_soc} ${_tiki_soc})
  _tiki_add_target(${_tiki_lower} ${_tiki_soc})
endforeach()

foreach(_tiki_group _tiki_group_ascend310p _tiki_group_ascend910B1 _tiki_group_ascend310B1)
  list(GET ${_tiki_group} 0 _tiki_group_soc)
  list(SUBLIST ${_tiki_group} 1 -1 _tiki_names)
  foreach(_tiki_name ${_tiki_names})
    _tiki_add_target(${_tiki_name} ${_tiki_group_soc})
  endforeach()
endforeach()

set(tikicpulib_FOUND TRUE)
