# ASC language (ascend-twin): find bisheng. CANN: <root>/<arch>-linux/ccec_compiler/bin, PATH, root.
if(NOT CMAKE_ASC_COMPILER)
  find_program(CMAKE_ASC_COMPILER NAMES bisheng
    HINTS "${ASC_TWIN_ROOT}/bin" "$ENV{ASCEND_HOME_PATH}/bin"
          "$ENV{ASCEND_HOME_PATH}/x86_64-linux/ccec_compiler/bin")
endif()
if(NOT CMAKE_ASC_COMPILER)
  message(FATAL_ERROR "ASC: bisheng not found; source <ascend-twin>/set_env.sh or find_package(ASC) first")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_OUTPUT_EXTENSION .o)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
               "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
