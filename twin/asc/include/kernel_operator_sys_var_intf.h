// System queries: block index/number of the running block, SoC constants.
#ifndef ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "kernel_type.h"

namespace AscendC {

__aicore__ inline int64_t GetBlockIdx() { return twin::Block().block_idx; }
__aicore__ inline int64_t GetBlockNum() { return twin::Block().block_num; }
__aicore__ inline constexpr uint32_t GetUBSizeInBytes() { return TOTAL_UB_SIZE; }
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// Resets per-core modes on the NPU; the twin has no such state besides
// what the entry shim resets per block.
__aicore__ inline void InitSocState() {}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_SYS_VAR_INTF_H_
