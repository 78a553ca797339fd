// Debug helpers: AscendC::printf / PRINTF (to the host's stdout), ascendc_assert (a failed
// assertion is a trap naming the condition), KERNEL_LOG / ASCENDC_ASSERT (kernel_log.h) and the
// integer helpers DivCeil, AlignUp, ConstCeil, Ceil, CeilDivision.
#ifndef ASC_TWIN_KERNEL_UTILS_H_
#define ASC_TWIN_KERNEL_UTILS_H_

#include <cstdio>
#include <string>
#include <type_traits>

#include "asc_twin/trap.h"
#include "kernel_log.h"
#include "kernel_operator_sys_var_intf.h"
#include "kernel_type.h"

namespace AscendC {

// Integer helpers of CANN's kernel_utils (uint32_t, as CANN's; constexpr where CANN's are).
__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr inline uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
// 0 when num2 is 0, as CANN's.
__aicore__ constexpr inline int32_t CeilDivision(int32_t num1, int32_t num2) {
  return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

namespace twin {
// 16-bit floats cannot travel through C varargs; print them as double.
template <typename A>
inline auto PrintfArg(A a) {
  if constexpr (std::is_same<A, half>::value || std::is_same<A, bfloat16_t>::value) {
    return static_cast<double>(static_cast<float>(a));
  } else if constexpr (std::is_convertible<A, int64_t>::value && std::is_class<A>::value) {
    return static_cast<int64_t>(a);  // block_idx / block_num
  } else {
    return a;
  }
}

template <typename... Args>
[[noreturn]] inline void AssertFailed(const char* expr, const char* file, int line, const char* fmt, Args... args) {
  char msg[384] = "";
  if constexpr (sizeof...(Args) == 0) {
    std::snprintf(msg, sizeof(msg), "%s", fmt);
  } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
    std::snprintf(msg, sizeof(msg), fmt, PrintfArg(args)...);
#pragma GCC diagnostic pop
  }
  RaiseTrap("ascendc_assert: (%s) failed at %s:%d: %s", expr, file, line, msg);
}
}  // namespace twin

template <typename... Args>
__aicore__ inline void printf(const char* fmt, Args... args) {
  if constexpr (sizeof...(Args) == 0) {
    std::fputs(fmt, stdout);
  } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
    std::printf(fmt, twin::PrintfArg(args)...);
#pragma GCC diagnostic pop
  }
}
template <typename... Args>
__aicore__ inline void PRINTF(const char* fmt, Args... args) {
  AscendC::printf(fmt, args...);
}

}  // namespace AscendC

#define ascendc_assert(cond, ...)                                                            \
  do {                                                                                       \
    if (!(cond)) ::AscendC::twin::AssertFailed(#cond, __FILE__, __LINE__, "" __VA_ARGS__);   \
  } while (0)

#endif  // ASC_TWIN_KERNEL_UTILS_H_
