// Sequential ("deterministic") block order: InitDetermineComputeWorkspace, WaitPreBlock,
// NotifyNextBlock; GM scalars that bypass the data cache (ReadGmByPassDCache /
// WriteGmByPassDCache); the SuperKernel task flags (SetNextTaskStart / WaitPreTaskEnd).
//
// Twin's layout of the workspace (CANN documents only its size, numBlocks x 32 bytes, and that
// the host need not zero it): one int32 "done" flag per block in its 32-byte slot. Init clears
// the caller's own flag, then passes the launch's barrier, so no block can see a stale flag of
// an earlier launch; WaitPreBlock in block b waits for block b - 1's flag (block 0 does not
// wait); NotifyNextBlock sets block b's flag after b's earlier GM writes. As on the NPU, every
// block of the launch calls Init and numBlocks must not exceed the cores.
#ifndef ASC_TWIN_KERNEL_OPERATOR_DETERMINE_COMPUTE_SYNC_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_DETERMINE_COMPUTE_SYNC_INTF_H_

#include <cstdint>

#include "asc_twin/cross_block.h"
#include "kernel_tensor.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {
inline int32_t* DetermineSlot(const char* api, GlobalTensor<int32_t>& gm, LocalTensor<int32_t>& ub, int64_t block) {
  const int64_t blocks = Block().block_num;
  CheckSyncWorkspace(api, gm, ub, blocks, blocks * kSyncSlotInt32 + kSyncSlotInt32);
  return gm.GetPhyAddr() + block * kSyncSlotInt32;
}
}  // namespace twin

__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                                     LocalTensor<int32_t>& ubWorkspace) {
  const int64_t self = twin::Block().block_idx;
  twin::StoreFlag(twin::DetermineSlot("InitDetermineComputeWorkspace", gmWorkspace, ubWorkspace, self), 0);
  SyncAll();
}
__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  const int64_t self = twin::Block().block_idx;
  int32_t* own = twin::DetermineSlot("WaitPreBlock", gmWorkspace, ubWorkspace, self);
  if (self == 0) return;
  const int32_t* previous = own - twin::kSyncSlotInt32;
  twin::WaitForOtherBlocks("WaitPreBlock", [&] { return twin::LoadFlag(previous) != 0; });
}
__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  const int64_t self = twin::Block().block_idx;
  twin::StoreFlag(twin::DetermineSlot("NotifyNextBlock", gmWorkspace, ubWorkspace, self), 1);
}

// One scalar of GM, read or written past the data cache (host memory: an atomic access, so
// other blocks see it in order). Kernels spin on such reads (set_atomic_deterministic_computation:
// block 1 waits for block 3's flag), so a read also asks for every block of the launch to run
// at once, where the launch fits the SoC's cores.
template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
  static_assert(
      std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
      "WriteGmByPassDCache takes a 1-, 2-, 4- or 8-byte scalar");
  twin::CheckGm("WriteGmByPassDCache", addr, sizeof(T));
  if (reinterpret_cast<uintptr_t>(addr) % sizeof(T) != 0) {
    twin::RaiseTrap("WriteGmByPassDCache: GM address %p is not aligned to %zu bytes", static_cast<void*>(addr),
                    sizeof(T));
  }
  __atomic_store(addr, &value, __ATOMIC_SEQ_CST);
}
template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr) {
  static_assert(
      std::is_trivially_copyable<T>::value && (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
      "ReadGmByPassDCache takes a 1-, 2-, 4- or 8-byte scalar");
  twin::CheckGm("ReadGmByPassDCache", addr, sizeof(T));
  if (reinterpret_cast<uintptr_t>(addr) % sizeof(T) != 0) {
    twin::RaiseTrap("ReadGmByPassDCache: GM address %p is not aligned to %zu bytes", static_cast<void*>(addr),
                    sizeof(T));
  }
  twin::PreferResidentBlocks();  // a block may spin on a flag another block of the launch writes
  T value;
  __atomic_load(addr, &value, __ATOMIC_SEQ_CST);
  return value;
}

// SuperKernel fusion: order between two fused operators. A twin launch runs one operator, and
// the stream already orders launches, so there is nothing to wait for or signal.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ != 1001) && (__NPU_ARCH__ != 2002)
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
#else
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_MTE3, bool FORCE = false>
#endif
__aicore__ inline void SetNextTaskStart() {
}
template <bool FORCE = false>
__aicore__ inline void WaitPreTaskEnd() {}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_DETERMINE_COMPUTE_SYNC_INTF_H_
