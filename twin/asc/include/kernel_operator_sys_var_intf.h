// System queries: block index/number of the running block, SoC constants.
#ifndef ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "kernel_type.h"

namespace AscendC {

__aicore__ inline int64_t GetBlockIdx() { return twin::Block().block_idx; }
__aicore__ inline int64_t GetBlockNum() { return twin::Block().block_num; }
// The AIV's index in its core group (0 or 1 in a MIX_AIC_1_2 kernel); 0 on an AIC.
__aicore__ inline int64_t GetSubBlockIdx() { return twin::Block().sub_block_idx; }
// AIVs per core group on an AIV (2 in a MIX_AIC_1_2 kernel), 1 on an AIC.
__aicore__ inline int64_t GetSubBlockNum() { return twin::Block().sub_block_num; }
// AIVs per AIC of the launch on an AIV (GetTaskRatio in newer CANN docs), 1 on an AIC.
__aicore__ inline int64_t GetTaskRation() { return twin::Block().task_ration; }
__aicore__ inline int64_t GetTaskRatio() { return twin::Block().task_ration; }
__aicore__ inline constexpr uint32_t GetUBSizeInBytes() { return TOTAL_UB_SIZE; }
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// Resets per-core modes on the NPU; the twin has no such state besides
// what the entry shim resets per block.
__aicore__ inline void InitSocState() {}

namespace twin {
// A read-only builtin the NPU compiler provides as an int64_t variable: an object converting to
// the running block's value, so member names such as `env->block_idx` stay untouched (a macro
// would rewrite them).
template <int64_t (*read)()>
struct BlockBuiltin {
  constexpr BlockBuiltin() = default;
  __aicore__ operator int64_t() const { return read(); }
};
// AIC or AIV: the core the running block is on (AIV outside any block).
__aicore__ inline int32_t RunningCoreType() { return static_cast<int32_t>(Block().core_type); }
struct CoreTypeBuiltin {
  constexpr CoreTypeBuiltin() = default;
  __aicore__ operator int32_t() const { return RunningCoreType(); }
};
}  // namespace twin

// CANN's g_coreType: compares with AscendC::AIC / AscendC::AIV.
static constexpr twin::CoreTypeBuiltin g_coreType{};

}  // namespace AscendC

// The same at global scope, where CANN declares it.
using AscendC::g_coreType;

// The device builtins `block_idx` and `block_num`: the running block's index and the launch's
// block count (what GetBlockIdx() / GetBlockNum() return).
static constexpr AscendC::twin::BlockBuiltin<AscendC::GetBlockIdx> block_idx{};
static constexpr AscendC::twin::BlockBuiltin<AscendC::GetBlockNum> block_num{};

#endif  // ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_
