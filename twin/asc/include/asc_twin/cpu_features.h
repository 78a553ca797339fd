// Run-time CPU feature checks for the few hot loops that have an AVX2 clone. Device binaries
// are built for baseline x86-64 (SSE2), like any portable host code, so a loop compiled for
// AVX2 (target attribute) is only entered after this check.
#ifndef ASC_TWIN_CPU_FEATURES_H_
#define ASC_TWIN_CPU_FEATURES_H_

#include <atomic>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define ASC_TWIN_X86_DISPATCH 1
#define ASC_TWIN_TARGET_AVX2 __attribute__((target("avx2")))
#else
#define ASC_TWIN_X86_DISPATCH 0
#define ASC_TWIN_TARGET_AVX2
#endif

namespace AscendC {
namespace twin {

#if ASC_TWIN_X86_DISPATCH
// Out of line: runs once per binary, and inlined it put cpuid code beside every hot call.
__attribute__((noinline, cold)) inline bool DetectAvx2() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool osxsave = (c >> 27) & 1u, avx = (c >> 28) & 1u;
  if (!osxsave || !avx) return false;
  unsigned xcr0_lo = 0, xcr0_hi = 0;
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  if ((xcr0_lo & 6u) != 6u) return false;  // the OS saves XMM and YMM state
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b >> 5) & 1u;
}

// 0: not checked yet, 1: no, 2: yes. Hidden: one per device binary.
__attribute__((visibility("hidden"))) inline std::atomic<int> g_avx2_state{0};

// Out of line: the first call of a binary.
__attribute__((noinline, cold)) inline bool DetectAvx2Once() {
  const int state = DetectAvx2() ? 2 : 1;
  g_avx2_state.store(state, std::memory_order_relaxed);
  return state == 2;
}

inline bool HasAvx2() {
  const int state = g_avx2_state.load(std::memory_order_relaxed);
  if (__builtin_expect(state == 2, 1)) return true;  // one compare on the path every copy takes
  return state == 0 && DetectAvx2Once();
}
#else
inline bool HasAvx2() { return false; }
#endif

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CPU_FEATURES_H_
