# bisheng needs an NPU architecture to compile; `bisheng --version` proves it runs.
execute_process(COMMAND "${CMAKE_ASC_COMPILER}" --version RESULT_VARIABLE _asc_rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _asc_rc EQUAL 0)
  message(FATAL_ERROR "ASC: '${CMAKE_ASC_COMPILER} --version' failed")
endif()
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
