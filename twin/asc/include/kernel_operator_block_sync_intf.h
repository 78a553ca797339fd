// In-core synchronisation. A twin block executes its instruction stream in
// program order, so pipe barriers and cross-pipe flags have nothing to wait
// for: they compile to nothing (arguments are still type-checked).
#ifndef ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_

#include <cstdint>

#include "kernel_type.h"

namespace AscendC {

template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {}

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
  (void)eventID;
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
  (void)eventID;
}

}  // namespace AscendC

// Compiler builtins some kernels call directly.
__aicore__ inline void pipe_barrier(pipe_t) {}
__aicore__ inline void set_flag(pipe_t, pipe_t, event_t) {}
__aicore__ inline void wait_flag(pipe_t, pipe_t, event_t) {}

// Cross-block synchronisation (SyncAll, IBSet, IBWait): blocks wait for each other.
#include "asc_twin/cross_block.h"

#endif  // ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_
