// adv_api/utils/init_global_memory.h (CANN's layout): Fill / InitGlobalMemory, which set `size`
// elements of GM from gmWorkspaceAddr to `value` (CANN: uint16_t, int16_t, half, float,
// uint32_t, int32_t). On the NPU the vector unit duplicates the value into free UB and MTE3
// copies it out, so a later MTE2 read of that GM needs MTE3_MTE2 sync; the twin stores into GM
// directly, in program order. The range is checked against the device allocations first, so a
// bad call writes nothing.
#ifndef ASC_TWIN_ADV_API_UTILS_INIT_GLOBAL_MEMORY_H_
#define ASC_TWIN_ADV_API_UTILS_INIT_GLOBAL_MEMORY_H_

#include <cstdint>
#include <type_traits>

#include "asc_twin/block_state.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {
template <typename T>
constexpr bool kFillType =
    std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value || std::is_same<T, half>::value ||
    std::is_same<T, float>::value || std::is_same<T, uint32_t>::value || std::is_same<T, int32_t>::value;

// The GM store behind Fill, InitGlobalMemory and InitOutput: checks [gm, gm + size) first.
template <typename T>
inline void FillGm(const char* api, const GlobalTensor<T>& gm, uint64_t size, T value) {
  if (size == 0) return;
  __gm__ T* p = gm.GetPhyAddr();
  if (p == nullptr) RaiseTrap("%s: the GlobalTensor has no buffer (SetGlobalBuffer not called)", api);
  if (reinterpret_cast<uintptr_t>(p) % alignof(T) != 0) {
    RaiseTrap("%s: GM address %p is not aligned to %zu bytes", api, static_cast<void*>(p), alignof(T));
  }
  CheckGm(api, p, size * sizeof(T));
  for (uint64_t i = 0; i < size; ++i) p[i] = value;
}
}  // namespace twin

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  static_assert(twin::kFillType<T>, "Fill supports uint16_t, int16_t, half, float, uint32_t and int32_t");
  twin::FillGm("Fill", gmWorkspaceAddr, size, value);
}

template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  static_assert(twin::kFillType<T>, "InitGlobalMemory supports uint16_t, int16_t, half, float, uint32_t and int32_t");
  twin::FillGm("InitGlobalMemory", gmWorkspaceAddr, size, value);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_UTILS_INIT_GLOBAL_MEMORY_H_
