// In-core synchronisation. A twin block executes its instruction stream in program order, so
// pipe barriers and cross-pipe flags have nothing to wait for; SetFlag/WaitFlag still track
// their events (asc_twin/event_flags.h) and trap where the NPU would hang: a WaitFlag with no
// SetFlag before it, a second SetFlag on an event not yet waited for, an event left set when the
// kernel ends, an event id out of range.
#ifndef ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/event_flags.h"
#include "kernel_type.h"

namespace AscendC {
namespace twin {

template <HardEvent event>
inline EventKey HardEventKey(const char* what, int32_t eventID) {
  static_assert(event != HardEvent::MAX, "HardEvent::MAX is not an event");
  const HardEventInfo info = EventInfo(event);
  return EventKey{what, info.name, info.src, info.dst, eventID};
}

}  // namespace twin

template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {}

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
  twin::RaiseEvent(twin::Block().events, twin::HardEventKey<event>("SetFlag", eventID));
}
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
  twin::WaitEvent(twin::Block().events, twin::HardEventKey<event>("WaitFlag", eventID));
}

}  // namespace AscendC

// Compiler builtins some kernels call directly: the same events, named by their pipe pair.
__aicore__ inline void pipe_barrier(pipe_t) {}
__aicore__ inline void set_flag(pipe_t src, pipe_t dst, event_t id) {
  AscendC::twin::RaiseEvent(AscendC::twin::Block().events,
                            AscendC::twin::EventKey{"set_flag", "", src, dst, static_cast<int32_t>(id)});
}
__aicore__ inline void wait_flag(pipe_t src, pipe_t dst, event_t id) {
  AscendC::twin::WaitEvent(AscendC::twin::Block().events,
                           AscendC::twin::EventKey{"wait_flag", "", src, dst, static_cast<int32_t>(id)});
}

// Cross-block synchronisation (SyncAll, IBSet, IBWait): blocks wait for each other.
#include "asc_twin/cross_block.h"
// Cross-core flags (CrossCoreSetFlag, CrossCoreWaitFlag): AIC and AIV cores of a launch.
#include "asc_twin/cross_core.h"

#endif  // ASC_TWIN_KERNEL_OPERATOR_BLOCK_SYNC_INTF_H_
