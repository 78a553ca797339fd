// UB -> GM writes under SetAtomicAdd/Max/Min: every element is combined with GM atomically
// (compare-and-swap on the element's bytes), so blocks running at the same time can
// accumulate into one GM buffer, as the NPU's atomic mode allows. half/bfloat16_t are
// combined in float and rounded once per element.
#ifndef ASC_TWIN_ATOMIC_GM_H_
#define ASC_TWIN_ATOMIC_GM_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/block_state.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

enum AtomicOp : uint8_t { kAtomicNone = 0, kAtomicAdd = 1, kAtomicMax = 2, kAtomicMin = 3 };

template <typename T>
using AtomicBits = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T>
inline T AtomicCombine(uint8_t op, T old, T in) {
  using W = std::conditional_t<std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value, float, T>;
  const W a = static_cast<W>(old), b = static_cast<W>(in);
  if (op == kAtomicMax) return a > b ? old : in;
  if (op == kAtomicMin) return a < b ? old : in;
  if constexpr (std::is_integral<T>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(old) + static_cast<U>(in)));
  } else {
    return static_cast<T>(a + b);
  }
}

template <typename T>
inline void AtomicWriteGm(void* dst, const void* src, uint64_t bytes) {
  using B = AtomicBits<T>;
  const uint8_t op = Block().vec.atomicOp;
  B* d = static_cast<B*>(dst);
  const uint8_t* s = static_cast<const uint8_t*>(src);
  for (uint64_t i = 0; i < bytes / sizeof(T); ++i) {
    T in;
    std::memcpy(&in, s + i * sizeof(T), sizeof(T));
    B expected = __atomic_load_n(d + i, __ATOMIC_RELAXED);
    for (;;) {
      T old;
      std::memcpy(&old, &expected, sizeof(T));
      const T next = AtomicCombine(op, old, in);
      B desired;
      std::memcpy(&desired, &next, sizeof(T));
      if (__atomic_compare_exchange_n(d + i, &expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
    }
  }
}

ASC_TWIN_HOT inline bool AtomicActive() { return Block().vec.atomicOp != kAtomicNone; }

// The block enters its accumulation into GM (SetAtomicAdd/Max/Min, a Matmul result written with
// enAtomic): the first time, it waits until the other blocks of the launch have started too and
// finished their prologues (ASC_TWIN_CROSS_BLOCK_ACCUMULATE), as all cores start at once on the
// NPU. Without that, on the twin's few threads, a later block's clearing of the output (every
// block of asc-devkit's matmul_splitk fills all of C with zeros, then adds its K slice) would
// erase an earlier block's sums. Never fails: a runtime without the operation, or a launch too
// large to be resident, keeps its schedule.
inline void StartAccumulating() {
  BlockState& b = Block();
  if (b.accumulating) return;
  b.accumulating = true;
  const AscTwinBlockEnv* env = b.env;
  if (env == nullptr || !ASC_TWIN_ENV_HAS(env, cross_block) || EnvField(env->cross_block) == nullptr) return;
  const int64_t mine = b.core_type == ASC_TWIN_CORE_AIV ? b.block_num * b.sub_block_num : b.block_num;
  if (mine <= 1 || mine > EnvField(env->resident_limit)) return;
  char err[256];
  (void)EnvField(env->cross_block)(EnvField(env->launch_ctx), ASC_TWIN_CROSS_BLOCK_ACCUMULATE, err, sizeof(err));
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ATOMIC_GM_H_
