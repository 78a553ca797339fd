# find_package(tikicpulib) for the CPU twin of CANN (installed as
# <root>/lib64/cmake/tikicpulib-config.cmake). CANN's CPU-debug package: targets
# tikicpulib::<SoC> that add the CPU-debug macros, the Ascend C headers and the libraries.
#
#   find_package(tikicpulib REQUIRED)
#   add_executable(demo add_custom.cpp main.cpp)      # kernels + ICPU_RUN_KF, host compiler
#   target_link_libraries(demo PRIVATE tikicpulib::Ascend910B1)
#
# Sources compiled by the plain C++ compiler run their kernels through ICPU_RUN_KF directly on
# host threads (tikicpulib.h); sources compiled by bisheng (ASC language) use the runtime.
get_filename_component(_tiki_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
file(GLOB _tiki_inis "${_tiki_root}/x86_64-linux/data/platform_config/*.ini")
foreach(_tiki_ini ${_tiki_inis})
  get_filename_component(_tiki_soc "${_tiki_ini}" NAME_WE)
  file(STRINGS "${_tiki_ini}" _tiki_arch REGEX "^NpuArch=")
  string(REPLACE "NpuArch=" "" _tiki_arch "${_tiki_arch}")
  string(TOLOWER "${_tiki_soc}" _tiki_lower)
  foreach(_tiki_name ${_tiki_soc} ${_tiki_lower})
    if(NOT TARGET tikicpulib::${_tiki_name})
      add_library(tikicpulib::${_tiki_name} INTERFACE IMPORTED)
      set_target_properties(tikicpulib::${_tiki_name} PROPERTIES
        INTERFACE_COMPILE_DEFINITIONS "ASCENDC_CPU_DEBUG=1;ASCENDC_DEBUG=1;__CCE_KT_TEST__=1;__NPU_ARCH__=${_tiki_arch};ASC_TWIN_CPU_SOC=\"${_tiki_soc}\""
        INTERFACE_COMPILE_OPTIONS "$<$<COMPILE_LANGUAGE:CXX>:-std=c++17>"
        INTERFACE_INCLUDE_DIRECTORIES "${_tiki_root}/asc/include;${_tiki_root}/include"
        INTERFACE_LINK_LIBRARIES "${_tiki_root}/lib64/libascendc_runtime.so;${_tiki_root}/lib64/libascendcl.so;pthread;dl")
    endif()
  endforeach()
endforeach()
set(tikicpulib_FOUND TRUE)
