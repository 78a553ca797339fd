# ascendc.cmake for the CPU twin of CANN (installed as
# <root>/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake): the older kernel-invocation
# project layout, where kernels (.cpp/.asc) go into a library and host code calls CANN's
# generated launchers:
#
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)             # SOC_VERSION picks --npu-arch
#   ascendc_library(kernels STATIC add_custom.cpp)           # or SHARED / OBJECT
#   add_executable(demo main.cpp)                            # #include "aclrtlaunch_add_custom.h"
#   target_link_libraries(demo PRIVATE kernels)              # ACLRT_LAUNCH_KERNEL(add_custom)(...)
#
# The kernel sources are compiled by bisheng (the ASC language of asc-config.cmake), which also
# writes ${CMAKE_BINARY_DIR}/include/<library>/aclrtlaunch_<kernel>.h for every kernel and
# defines aclrtlaunch_<kernel> in its object. RUN_MODE (npu|cpu|sim) is accepted: everything
# runs on the twin.
get_filename_component(_ascendc_twin_root "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
include("${_ascendc_twin_root}/lib64/cmake/asc-config.cmake")
enable_language(ASC)

function(ascendc_library name kind)
  set(_srcs ${ARGN})
  set_source_files_properties(${_srcs} PROPERTIES LANGUAGE ASC)
  add_library(${name} ${kind} ${_srcs})
  asc_twin_enable_aclrt_launch(${name})
  target_include_directories(${name} PUBLIC "${_ascendc_twin_root}/include" "${_ascendc_twin_root}/asc/include")
  if(NOT "${kind}" STREQUAL "OBJECT")
    target_link_libraries(${name} PUBLIC "${_ascendc_twin_root}/lib64/libascendc_runtime.so"
                          "${_ascendc_twin_root}/lib64/libascendcl.so")
  endif()
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE ASC POSITION_INDEPENDENT_CODE ON)
endfunction()
