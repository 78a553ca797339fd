// Per-block state of the twin. One host thread runs one block at a time, so
// everything the NPU keeps per core (block index, UB, the TPipe pointer) is
// thread_local here. The kernel entry shim installs it from AscTwinBlockEnv
// and clears it when the block ends, also after a trap.
#ifndef ASC_TWIN_BLOCK_STATE_H_
#define ASC_TWIN_BLOCK_STATE_H_

#include <cstdint>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_copy.h"
#include "asc_twin/event_flags.h"
#include "asc_twin/trap.h"
#include "asc_twin/vec_regs.h"

namespace AscendC {
class TPipe;
namespace twin {

struct alignas(64) BlockState {  // own cache lines: dynamic TLS blocks of two threads may be neighbours
  const AscTwinBlockEnv* env = nullptr;
  uint8_t* ub_base = nullptr;
  uint64_t ub_size = 0;
  AscTwinGmCheckFn gm_check = nullptr;
  const void* gm_ctx = nullptr;
  int64_t block_idx = 0;
  int64_t block_num = 1;
  TPipe* pipe = nullptr;       // GetTPipePtr()
  uint64_t pipe_epoch = 0;     // bumped by every TPipe construction/Reset
  uint64_t gm_written = 0;     // bytes this block's DataCopy calls wrote to GM so far
  bool gm_streamed = false;    // a DataCopy used streaming stores (fenced when the block ends)
  bool host_fences = false;    // env flag ASC_TWIN_ENV_HOST_FENCES_STORES: the runtime fences instead
  VecRegs vec;                 // mask mode/mask, CMPMASK, reduce SPRs (reset with the block)
  EventFlags events;           // SetFlag/WaitFlag events raised and not yet waited for
};

// Constant-initialised, so access needs no TLS init wrapper. Hidden: every
// device binary keeps its own copy instead of binding to another loaded
// kernel's (which may come from other header versions).
__attribute__((visibility("hidden"))) inline thread_local BlockState g_block;

inline BlockState& Block() { return g_block; }

// Store fences this thread's blocks issued when they ended (what tests observe of ClearBlock).
__attribute__((visibility("hidden"))) inline thread_local uint64_t g_block_end_fences = 0;

// Reads one field of the env exactly as wide as it is: the runtime has just stored the fields
// one by one, and a wider load merging two of them (which compilers like to emit) cannot be
// forwarded from the store buffer; it waits until every older store, e.g. the previous block's
// GM writes, reached the cache.
template <typename F>
inline F EnvField(const F& field) {
  return __atomic_load_n(&field, __ATOMIC_RELAXED);
}

inline void InstallBlock(const AscTwinBlockEnv* env) {
  BlockState& b = g_block;
  b.env = env;
  b.ub_base = EnvField(env->ub_base);
  b.ub_size = EnvField(env->ub_size);
  b.gm_check = EnvField(env->gm_check);
  b.gm_ctx = EnvField(env->gm_ctx);
  b.block_idx = EnvField(env->block_idx);
  b.block_num = EnvField(env->block_num);
  b.pipe = nullptr;
  ++b.pipe_epoch;
  b.gm_written = 0;
  b.gm_streamed = false;
  b.host_fences = (EnvField(env->flags) & ASC_TWIN_ENV_HOST_FENCES_STORES) != 0;
  b.vec = VecRegs{};
  b.events = EventFlags{};
}

inline void ClearBlock() {
  BlockState& b = g_block;
  // Streaming stores are weakly ordered: make them visible before the runtime learns (from
  // another thread) that the block is done, unless the runtime promised to fence them itself
  // (once per run of blocks: an sfence per block cost ~1/3 of a streaming kernel's time).
  if (b.gm_streamed && !b.host_fences) {
    FenceStreamingStores();
    ++g_block_end_fences;
  }
  const uint64_t epoch = b.pipe_epoch + 1;
  b = BlockState{};
  b.pipe_epoch = epoch;
}

// Traps unless [addr, addr+len) lies inside one live device allocation.
inline void CheckGm(const char* api, const void* addr, uint64_t len) {
  const BlockState& b = g_block;
  if (len == 0 || b.gm_check == nullptr) return;
  if (!b.gm_check(b.gm_ctx, addr, len)) {
    RaiseTrap("%s: GM access [%p, +%llu B) is outside every device allocation", api, addr,
              static_cast<unsigned long long>(len));
  }
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_BLOCK_STATE_H_
