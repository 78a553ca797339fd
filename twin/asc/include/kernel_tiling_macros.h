// Kernel-side tiling macros of Ascend C (CANN: kernel_utils_macros.h and the per-op generated
// GET_TILING_DATA*), for the CPU twin. The tiling struct lives in GM and is passed to the
// kernel as a GM_ADDR; GET_TILING_DATA copies it into a local variable (each GM read checked
// against the device allocations, like every GM access of the twin).
//
//   REGISTER_TILING_DEFAULT(MyTiling);            // in the kernel body or at namespace scope
//   GET_TILING_DATA(t, tiling);                   // MyTiling t = *tiling (from GM)
//   GET_TILING_DATA_WITH_STRUCT(Other, t2, tiling);
//   GET_TILING_DATA_PTR_WITH_STRUCT(Other, p, tiling);   // const __gm__ Other* p
//   GET_TILING_DATA_MEMBER(MyTiling, n, n_var, tiling);  // one member
//   if (TILING_KEY_IS(1)) { ... } else if (TILING_KEY_IS(2)) { ... }
//
// TILING_KEY_IS compares TILING_KEY_VAR (default g_tilingKey). A direct launch carries the key
// the host set last with ICPU_SET_TILING_KEY (CANN's CPU-debug g_tilingKey; 0 when never set;
// CANN documents the macros as unsupported in NPU direct launches), in the launch trailer of
// asc_twin/aicore_abi.h; a kernel can `#define TILING_KEY_VAR` to one of its own values before
// including kernel_operator.h.
#ifndef ASC_TWIN_KERNEL_TILING_MACROS_H_
#define ASC_TWIN_KERNEL_TILING_MACROS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/block_state.h"

namespace AscendC {
namespace twin {

template <typename T>
__attribute__((always_inline)) inline void ReadTiling(T* dst, const void* gm, const char* api) {
  static_assert(std::is_trivially_copyable<T>::value, "a tiling struct must be trivially copyable");
  CheckGm(api, gm, sizeof(T));
  std::memcpy(static_cast<void*>(dst), gm, sizeof(T));
}

template <typename T>
struct TilingDefault {
  using type = T;
};

}  // namespace twin
}  // namespace AscendC

// The tiling key of the running block, as CANN's kernels read it (per host thread: blocks of
// launches with different keys may run at once).
__attribute__((visibility("hidden"))) inline thread_local uint64_t g_tilingKey = 0;

#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR g_tilingKey
#endif
#define TILING_KEY_IS(k) (TILING_KEY_VAR == (k))

#define REGISTER_TILING_DEFAULT(S)                                          \
  using AscTwinDefaultTilingType = ::AscendC::twin::TilingDefault<S>::type; \
  static_assert(std::is_trivially_copyable<S>::value, "a tiling struct must be trivially copyable")
#define REGISTER_TILING_FOR_TILINGKEY(expr, S) \
  static_assert(std::is_trivially_copyable<S>::value, "a tiling struct must be trivially copyable")

#define GET_TILING_DATA(var, tiling) \
  AscTwinDefaultTilingType var;      \
  ::AscendC::twin::ReadTiling(&var, (const void*)(tiling), "GET_TILING_DATA")
#define GET_TILING_DATA_WITH_STRUCT(S, var, tiling) \
  S var;                                            \
  ::AscendC::twin::ReadTiling(&var, (const void*)(tiling), "GET_TILING_DATA_WITH_STRUCT")
#define GET_TILING_DATA_PTR_WITH_STRUCT(S, ptr, tiling)                                               \
  const __gm__ S* ptr =                                                                               \
      (::AscendC::twin::CheckGm("GET_TILING_DATA_PTR_WITH_STRUCT", (const void*)(tiling), sizeof(S)), \
       reinterpret_cast<const __gm__ S*>(tiling))
#define GET_TILING_DATA_MEMBER(S, member, var, tiling) \
  decltype(S::member) var;                             \
  ::AscendC::twin::ReadTiling(&var, (const uint8_t*)(tiling) + offsetof(S, member), "GET_TILING_DATA_MEMBER")

#endif  // ASC_TWIN_KERNEL_TILING_MACROS_H_
