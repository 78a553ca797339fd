// Debug helpers: AscendC::printf / PRINTF (records printed by the runtime, see KernelPrintf),
// ascendc_assert (a failed assertion is a trap naming the condition), KERNEL_LOG / ASCENDC_ASSERT (kernel_log.h) and
// the integer helpers DivCeil, AlignUp, ConstCeil, Ceil, CeilDivision.
#ifndef ASC_TWIN_KERNEL_UTILS_H_
#define ASC_TWIN_KERNEL_UTILS_H_

#include <cstdio>
#include <string>
#include <type_traits>

#include "asc_twin/block_state.h"
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

// CANN's type test, as its samples spell it: IsSameType<T, U>::value.
template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = std::is_same<T, U>::value;
};

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

namespace twin {
// One printf record, formatted with C's conversions (16-bit floats as double).
template <typename... Args>
inline std::string FormatPrintf(const char* fmt, Args... args) {
  if (fmt == nullptr) return std::string();
  if constexpr (sizeof...(Args) == 0) {
    return std::string(fmt);
  } else {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wformat-security"
    char small[512];
    const int len = std::snprintf(small, sizeof(small), fmt, PrintfArg(args)...);
    if (len < 0) return std::string();
    if (static_cast<size_t>(len) < sizeof(small)) return std::string(small, static_cast<size_t>(len));
    std::string text(static_cast<size_t>(len) + 1, '\0');
    std::snprintf(&text[0], text.size(), fmt, PrintfArg(args)...);
#pragma GCC diagnostic pop
    text.resize(static_cast<size_t>(len));
    return text;
  }
}

// One record of kernel output (printf, DumpTensor) to the runtime's print path of the launch
// (AscTwinBlockEnv.print), or to stdout at once on a host without it.
inline void EmitRecord(const std::string& text) {
  const BlockState& block = Block();
  const AscTwinBlockEnv* env = block.env;
  if (env != nullptr && ASC_TWIN_ENV_HAS(env, print_ctx) && EnvField(env->print) != nullptr) {
    EnvField(env->print)(EnvField(env->print_ctx), static_cast<uint32_t>(block.block_idx), text.data(), text.size());
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
}

// Kernel printf. Inside a block the record starts with CANN's "[AIV Block <idx>/<num>] " and
// goes to the runtime (AscTwinBlockEnv.print), which prints the launch's records in block order
// when the launch ends, as CANN prints the parsed dump buffers at the stream's synchronize. A
// host without that path (a test harness calling entries) gets the record on stdout at once;
// outside any block it is plain C printf. -DASCENDC_DUMP=0 compiles it out, as CANN's.
template <typename... Args>
inline int KernelPrintf(const char* fmt, Args... args) {
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
  (void)fmt;
  ((void)args, ...);
  return 0;
#else
  const BlockState& block = Block();
  std::string text;
  if (block.env != nullptr) {
    char prefix[48];
    std::snprintf(prefix, sizeof(prefix), "[%s Block %lld/%lld] ", CoreTypeName(block),
                  static_cast<long long>(block.block_idx), static_cast<long long>(block.block_num));
    text = prefix;
  }
  text += FormatPrintf(fmt, args...);
  EmitRecord(text);
  return static_cast<int>(text.size());
#endif
}

// The tag utils/debug/asc_printf.h's `printf` macro puts first (see there).
struct PrintfCall {};
}  // namespace twin

template <class... Args>
__aicore__ inline void printf(const char* fmt, Args&&... args) {
  twin::KernelPrintf(fmt, std::decay_t<Args>(args)...);
}
// The form asc_printf.h's macro calls; int, so host code in the same file may use the result.
template <class... Args>
__aicore__ inline int printf(twin::PrintfCall, const char* fmt, Args&&... args) {
  return twin::KernelPrintf(fmt, std::decay_t<Args>(args)...);
}
template <class... Args>
__aicore__ inline void PRINTF(const char* fmt, Args&&... args) {
  twin::KernelPrintf(fmt, std::decay_t<Args>(args)...);
}

}  // namespace AscendC

#define ascendc_assert(cond, ...)                                                          \
  do {                                                                                     \
    if (!(cond)) ::AscendC::twin::AssertFailed(#cond, __FILE__, __LINE__, "" __VA_ARGS__); \
  } while (0)

#endif  // ASC_TWIN_KERNEL_UTILS_H_
