// utils/debug/asc_printf.h: printf in kernels. On the twin a kernel is host code, so a kernel's
// printf is the C library's (stdout of the process that runs the blocks) and AscendC::printf /
// PRINTF are the ones of kernel_utils.h; both print at once, in each block's program order.
#ifndef ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_
#define ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_

#include <cstdio>

#include "kernel_utils.h"

#endif  // ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_
