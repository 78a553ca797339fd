// Older Ascend C spellings that kernels still use, for the CPU twin:
// - GetTPipePtr() at global scope (older kernels call it unqualified outside AscendC);
// - the `tik2` namespace of the first Ascend C releases (tik2::TPipe ..., tik2::ParamOffset);
// - workspaces: SetSysWorkspace / GetSysWorkSpacePtr / GetUserWorkspace (the user part of a
//   workspace starts after the system part, whose size is what the host's
//   PlatformAscendC::GetLibApiWorkSpaceSize() reports: 16 MiB on dav-2201/3510, else 2 MiB);
// - ASSERT(cond): a failed assertion traps, naming the condition (ascendc_assert).
#ifndef ASC_TWIN_KERNEL_LEGACY_H_
#define ASC_TWIN_KERNEL_LEGACY_H_

#include <cstdint>
#include <type_traits>

#include "kernel_macros.h"
#include "kernel_operator_sys_var_intf.h"
#include "kernel_tpipe.h"
#include "kernel_utils.h"

namespace AscendC {
namespace twin {
// The workspace of the running block (per host thread, like every per-core state).
__attribute__((visibility("hidden"))) inline thread_local uint8_t* g_sys_workspace = nullptr;
}  // namespace twin

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510)
constexpr uint64_t kAscTwinSysWorkspaceSize = 16u * 1024u * 1024u;
#else
constexpr uint64_t kAscTwinSysWorkspaceSize = 2u * 1024u * 1024u;
#endif

__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { twin::g_sys_workspace = workspace; }
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return twin::g_sys_workspace; }
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + kAscTwinSysWorkspaceSize;
}
}  // namespace AscendC

using AscendC::GetTPipePtr;

namespace tik2 {
using namespace AscendC;

// ParamOffset<T>(gm, blockLength): where the running block's part of a GM buffer starts when
// each block takes blockLength elements of T (the first Ascend C samples' per-core offset,
// `gm + GetBlockIdx() * blockLength`). The twin's reading of the legacy helper. The result
// converts to `__gm__ T*` and to GM_ADDR, as the samples use it both ways (kernel arguments are
// GM_ADDR), and indexes and offsets like a T pointer; accesses through it stay checked.
template <typename T>
class ParamOffsetPtr {
 public:
  __aicore__ explicit ParamOffsetPtr(__gm__ T* p) : p_(p) {}
  __aicore__ operator __gm__ T*() const { return p_; }
  template <typename U = T, typename = typename std::enable_if<!std::is_same<U, uint8_t>::value>::type>
  __aicore__ operator GM_ADDR() const {
    return reinterpret_cast<GM_ADDR>(p_);
  }
  __aicore__ T& operator[](uint64_t i) const { return p_[i]; }
  __aicore__ T& operator*() const { return *p_; }
  __aicore__ __gm__ T* operator+(uint64_t n) const { return p_ + n; }
  __aicore__ __gm__ T* get() const { return p_; }

 private:
  __gm__ T* p_;
};

template <typename T>
__aicore__ inline ParamOffsetPtr<T> ParamOffset(GM_ADDR gm, uint64_t blockLength) {
  return ParamOffsetPtr<T>(reinterpret_cast<__gm__ T*>(gm) + static_cast<uint64_t>(GetBlockIdx()) * blockLength);
}
template <typename T, typename = typename std::enable_if<!std::is_same<T, uint8_t>::value>::type>
__aicore__ inline ParamOffsetPtr<T> ParamOffset(__gm__ T* gm, uint64_t blockLength) {
  return ParamOffsetPtr<T>(gm + static_cast<uint64_t>(GetBlockIdx()) * blockLength);
}
}  // namespace tik2

#ifndef ASSERT
#define ASSERT(cond) ascendc_assert(cond)
#endif

#endif  // ASC_TWIN_KERNEL_LEGACY_H_
