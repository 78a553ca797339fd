// Cross-block synchronisation on the twin: SyncAll, IBSet, IBWait (Ascend C's core-to-core
// sync). On the NPU every block of a launch is resident on an AI core, so a block may wait
// for another. Twin blocks share a few threads, so a block about to wait first asks the
// runtime (AscTwinBlockEnv.cross_block) to give every block of its launch a thread of its
// own; the runtime refuses launches with more blocks than the SoC has cores, where the NPU
// could not hold them either. Waits poll GM (the workspace forms) or the runtime's barrier
// (SyncAll() without arguments), yield the core while they poll (more threads than cores),
// and give up with a trap when another block of the launch failed. A wait that is never
// satisfied runs into the runtime's operator execution timeout, as on the NPU.
#ifndef ASC_TWIN_CROSS_BLOCK_H_
#define ASC_TWIN_CROSS_BLOCK_H_

#include <sched.h>

#include <cstdint>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

// Blocks of the caller's core type in the launch: GetBlockNum() on an AIC, GetBlockNum() x
// GetSubBlockNum() on an AIV (a MIX_AIC_1_2 launch of N runs 2N AIVs). SyncAll and IBSet/IBWait
// count these.
inline int64_t BlocksOfMyType() {
  const BlockState& b = Block();
  return b.core_type == ASC_TWIN_CORE_AIV ? b.block_num * b.sub_block_num : b.block_num;
}

// One flag or counter per 32-byte GM block, as the NPU's workspace layout spaces them.
constexpr int64_t kSyncSlotInt32 = 8;

inline const AscTwinBlockEnv& CrossBlockEnv(const char* api) {
  const AscTwinBlockEnv* env = Block().env;
  if (env == nullptr || !ASC_TWIN_ENV_HAS(env, cross_block) || EnvField(env->cross_block) == nullptr) {
    RaiseTrap(
        "%s: this runtime does not run the blocks of a launch at once, so blocks cannot wait for each "
        "other (launch through ACL: aclrtLaunchKernel or <<<>>>)",
        api);
  }
  return *env;
}

inline void CrossBlockCall(const char* api, uint32_t op) {
  const AscTwinBlockEnv& env = CrossBlockEnv(api);
  char err[256];
  err[0] = '\0';
  if (EnvField(env.cross_block)(EnvField(env.launch_ctx), op, err, sizeof(err)) != 0) {
    err[sizeof(err) - 1] = '\0';
    RaiseTrap("%s: %s", api, err);
  }
}

// Asks for every block of the launch to run at once where the host offers it and the launch
// fits the SoC's cores; never fails. For APIs through which a kernel may poll what other blocks
// write (DataCacheCleanAndInvalid + GetValue): a plain read must not trap, and a launch the
// NPU could not hold at once keeps the normal schedule.
inline void PreferResidentBlocks() {
  const AscTwinBlockEnv* env = Block().env;
  if (env == nullptr || !ASC_TWIN_ENV_HAS(env, cross_block) || EnvField(env->cross_block) == nullptr) return;
  if (BlocksOfMyType() > EnvField(env->resident_limit)) return;
  char err[256];
  (void)EnvField(env->cross_block)(EnvField(env->launch_ctx), ASC_TWIN_CROSS_BLOCK_RESIDENT, err, sizeof(err));
}

// Polls `ready()` until it holds, after making the launch resident.
template <typename Ready>
inline void WaitForOtherBlocks(const char* api, Ready&& ready) {
  CrossBlockCall(api, ASC_TWIN_CROSS_BLOCK_RESIDENT);
  for (uint32_t polls = 1; !ready(); ++polls) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (polls % 64 != 0) continue;
    sched_yield();  // the block waited for may need this core
    if (polls % 4096 == 0) CrossBlockCall(api, ASC_TWIN_CROSS_BLOCK_POLL);
  }
}

inline int32_t LoadFlag(const int32_t* slot) { return __atomic_load_n(slot, __ATOMIC_ACQUIRE); }
inline void StoreFlag(int32_t* slot, int32_t value) { __atomic_store_n(slot, value, __ATOMIC_RELEASE); }

inline void CheckSyncWorkspace(const char* api, const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub,
                               int64_t gm_slots, int64_t ub_elements) {
  CheckGm(api, gm.GetPhyAddr(), static_cast<uint64_t>(gm_slots * kSyncSlotInt32) * sizeof(int32_t));
  if (static_cast<int64_t>(ub.GetSize()) < ub_elements) {
    RaiseTrap("%s: ubWorkspace holds %u int32 elements, needs at least %lld (32 bytes per core)", api, ub.GetSize(),
              static_cast<long long>(ub_elements));
  }
}

// The flag of (blockIdx, eventID) in an IBSet/IBWait workspace: eventID-major, one 32-byte
// slot per block, so the workspace needs numBlocks x 32 bytes per event id in use.
inline int32_t* EventSlot(const char* api, const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub,
                          int32_t blockIdx, int32_t eventID) {
  const int64_t blocks = BlocksOfMyType();
  if (blockIdx < 0 || blockIdx >= blocks) {
    RaiseTrap("%s: blockIdx %d is outside the launch's %lld blocks", api, blockIdx, static_cast<long long>(blocks));
  }
  if (eventID < 0) RaiseTrap("%s: eventID %d is negative", api, eventID);
  const int64_t slot = static_cast<int64_t>(eventID) * blocks + blockIdx;
  const GlobalTensor<int32_t> at = gm[static_cast<uint64_t>(slot * kSyncSlotInt32)];
  CheckSyncWorkspace(api, at, ub, 1, kSyncSlotInt32);
  return at.GetPhyAddr();
}

}  // namespace twin

// Software barrier over `usedCores` blocks (0: all of the launch) through a GM workspace of
// usedCores x 32 bytes that the host zeroed before the launch; ubWorkspace: usedCores x 32
// bytes of scratch. Each call bumps the caller's own counter and waits until every other
// participant's counter caught up, so the barrier can be passed any number of times.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0) {
  constexpr const char* kApi = "SyncAll";
  const int64_t blocks = twin::BlocksOfMyType();
  const int64_t idx = twin::Block().block_idx;
  const int64_t used = usedCores == 0 ? blocks : usedCores;
  if (used < 0 || used > blocks) {
    twin::RaiseTrap("%s: usedCores=%d is outside [0, %lld] (the launch's blocks)", kApi, usedCores,
                    static_cast<long long>(blocks));
  }
  if (idx >= used) {
    twin::RaiseTrap("%s: block %lld is not one of the usedCores=%lld blocks taking part", kApi,
                    static_cast<long long>(idx), static_cast<long long>(used));
  }
  twin::CheckSyncWorkspace(kApi, gmWorkspace, ubWorkspace, used, used * twin::kSyncSlotInt32);
  int32_t* counters = gmWorkspace.GetPhyAddr();
  int32_t* mine = counters + idx * twin::kSyncSlotInt32;
  const int32_t round = twin::LoadFlag(mine) + 1;
  twin::StoreFlag(mine, round);
  twin::WaitForOtherBlocks(kApi, [&] {
    for (int64_t b = 0; b < used; ++b) {
      if (twin::LoadFlag(counters + b * twin::kSyncSlotInt32) < round) return false;
    }
    return true;
  });
}

// Hardware barrier over every block of the launch; isAIVOnly in a launch with AIC blocks: over
// its AIV blocks (an AIC calling it traps).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
  const twin::BlockState& b = twin::Block();
  const bool mixed =
      b.kernel_type == ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_1 || b.kernel_type == ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_2;
  if (isAIVOnly && mixed && b.core_type == ASC_TWIN_CORE_AIC) {
    twin::RaiseTrap(
        "SyncAll<true>: called on an AIC of a mixed kernel; isAIVOnly synchronises the AIV blocks (use "
        "SyncAll<false>)");
  }
  twin::CrossBlockCall("SyncAll", isAIVOnly && mixed ? ASC_TWIN_CROSS_BLOCK_BARRIER_AIV : ASC_TWIN_CROSS_BLOCK_BARRIER);
}

// Sets the flag (blockIdx, eventID) in the workspace (zeroed by the host before the launch),
// after this block's earlier GM writes.
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID) {
  twin::StoreFlag(twin::EventSlot("IBSet", gmWorkspace, ubWorkspace, blockIdx, eventID), 1);
}

// Waits until the flag (blockIdx, eventID) is set; the flag stays set.
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID) {
  const int32_t* flag = twin::EventSlot("IBWait", gmWorkspace, ubWorkspace, blockIdx, eventID);
  twin::WaitForOtherBlocks("IBWait", [&] { return twin::LoadFlag(flag) != 0; });
}

}  // namespace AscendC

#endif  // ASC_TWIN_CROSS_BLOCK_H_
