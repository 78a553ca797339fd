// utils/debug/asc_printf.h (CANN's layout): printf / PRINTF in kernels, qualified
// (AscendC::printf, __asc_aicore::printf) or unqualified as CANN's samples call it:
//
//   #include "utils/debug/asc_printf.h"
//   __global__ __vector__ void hello_world() { printf("Hello World!!!\n"); }
//
// prints "[AIV Block <idx>/<num>] Hello World!!!" once per block, the blocks' records in block
// order, when the launch ends (kernel_utils.h, KernelPrintf).
//
// Why a macro: a twin kernel is ordinary C++ for the host CPU, where C's
// `int printf(const char*, ...)` is visible too and, being no template, wins over any template
// printf for a call without arguments. `printf(...)` therefore becomes
// `printf(PrintfCall{}, ...)`, which only AscendC's printf accepts (also reached as ::printf and
// __asc_aicore::printf: kernel semantics inside a block, plain printf outside, so host code in
// the same file prints as before), and the std overload below (plain printf always).
// `(printf)(...)` still names C's printf.
#ifndef ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_
#define ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_

#include <stdio.h>

#include <cstdio>
#include <string>
#include <type_traits>

#include "kernel_utils.h"

namespace __asc_aicore {
using ::AscendC::printf;
using ::AscendC::PRINTF;
}  // namespace __asc_aicore

// At global scope too (CANN: `using namespace __asc_aicore`), so that a kernel that also says
// `using namespace AscendC` finds one printf, not two.
using ::AscendC::printf;
using ::AscendC::PRINTF;

namespace std {
template <class... Args>
inline int printf(::AscendC::twin::PrintfCall, const char* fmt, Args&&... args) {
  const std::string text = ::AscendC::twin::FormatPrintf(fmt, std::decay_t<Args>(args)...);
  return static_cast<int>(std::fwrite(text.data(), 1, text.size(), stdout));
}
}  // namespace std

#define printf(...) printf(::AscendC::twin::PrintfCall{}, __VA_ARGS__)

#endif  // ASC_TWIN_UTILS_DEBUG_ASC_PRINTF_H_
