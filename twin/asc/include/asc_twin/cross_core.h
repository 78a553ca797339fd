// CrossCoreSetFlag / CrossCoreWaitFlag: the separated AI core's core-to-core flags (modes 0, 1,
// 2; aicore_abi.h describes the counters). The runtime keeps the counters of the launch
// (AscTwinBlockEnv.cross_core): a wait really blocks its thread until the flag is set, and
// traps instead of hanging when no core of the launch can set it any more.
#ifndef ASC_TWIN_CROSS_CORE_H_
#define ASC_TWIN_CROSS_CORE_H_

#include <cstdint>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"

namespace AscendC {
namespace twin {

inline void CrossCoreCall(const char* api, uint32_t op, uint32_t mode, uint16_t flag_id) {
  const BlockState& b = Block();
  const AscTwinBlockEnv* env = b.env;
  if (env == nullptr || !ASC_TWIN_ENV_HAS(env, cross_core) || EnvField(env->cross_core) == nullptr) {
    RaiseTrap("%s: this runtime offers no cross-core flags (launch through ACL: aclrtLaunchKernel or <<<>>>)", api);
  }
  char err[256];
  err[0] = '\0';
  if (EnvField(env->cross_core)(EnvField(env->launch_ctx), op, mode, flag_id, b.core_type,
                                static_cast<uint32_t>(b.block_idx), err, sizeof(err)) != 0) {
    err[sizeof(err) - 1] = '\0';
    RaiseTrap("%s", err);
  }
}

}  // namespace twin

// Raises flag `flagId` by mode `modeId`'s rule once this core's `pipe` work is done (a twin block
// runs in program order, so its earlier GM writes are already visible).
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
  static_assert(pipe != PIPE_S && pipe != PIPE_ALL, "CrossCoreSetFlag: pipe cannot be PIPE_S or PIPE_ALL");
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  twin::CrossCoreCall("CrossCoreSetFlag", ASC_TWIN_CROSS_CORE_SET, modeId, flagId);
}

// Blocks until this core's counter of `flagId` is above 0, then takes one.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
  twin::CrossCoreCall("CrossCoreWaitFlag", ASC_TWIN_CROSS_CORE_WAIT, modeId, flagId);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

}  // namespace AscendC

#endif  // ASC_TWIN_CROSS_CORE_H_
