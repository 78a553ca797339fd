// Per-block state of the twin. One host thread runs one block at a time, so
// everything the NPU keeps per core (block index, UB, the TPipe pointer) is
// thread_local here. The kernel entry shim installs it from AscTwinBlockEnv
// and clears it when the block ends, also after a trap.
//
// Reaching it fast: a device binary is dlopened, so its thread_local lives in dynamic TLS and
// every access is a call to __tls_get_addr (~6% of a small-tile kernel's time, as every
// Ascend C call reads the state). When the host offers a block slot (env block_slot_tpoff:
// a pointer in the host's static TLS, at one offset from the thread pointer in all threads),
// the entry stores &g_block there for the block and Block() reads it back with two plain
// loads (%fs-relative). The slot only ever points to the running image's own g_block, so
// images built with other header versions never see each other's state (as long as one image's
// code does not run inside another image's block: then it would read the running image's
// layout through the slot; kernels do not call into other images), and the image itself
// defines no static TLS (thousands of dlopen/dlclose cycles cannot exhaust it). Without a
// slot (another host, outside a block, not clang on x86-64) Block() is g_block itself.
#ifndef ASC_TWIN_BLOCK_STATE_H_
#define ASC_TWIN_BLOCK_STATE_H_

#include <cstddef>
#include <cstdint>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_copy.h"
#include "asc_twin/core_buffers.h"
#include "asc_twin/event_flags.h"
#include "asc_twin/trap.h"
#include "asc_twin/vec_regs.h"

namespace AscendC {
class TPipe;
namespace twin {

// Allocations the GM accesses of this thread's blocks were found in (ASC_TWIN_ENV_GM_RANGE):
// any access inside one is checked while the allocation table's generation still reads
// `generation`. Kept from block to block: generations are unique in the process (no two tables,
// no two states of a table share one), so a match can only be the table that answered.
struct GmRanges {
  static constexpr uint32_t kSize = 4;  // a kernel typically streams 2-4 tensors
  uint64_t generation = 0;              // 0: none yet (tables start at 1)
  uintptr_t lo[kSize] = {};
  uintptr_t hi[kSize] = {};
  uint32_t next = 0;  // round-robin victim
};

// The generation CheckGm compares with when the host offers no gm_range: 0, which the cache
// holds only while it is empty, so every access takes CheckGmRange's road (gm_check).
__attribute__((visibility("hidden"))) inline constexpr uint64_t kNoGmRanges = 0;

struct alignas(64) BlockState {  // own cache lines: dynamic TLS blocks of two threads may be neighbours
  const AscTwinBlockEnv* env = nullptr;
  uint8_t* ub_base = nullptr;
  uint64_t ub_size = 0;
  AscTwinGmCheckFn gm_check = nullptr;
  const void* gm_ctx = nullptr;
  AscTwinGmRangeFn gm_range = nullptr;           // with gm_generation, when the host offers them
  const uint64_t* gm_generation = &kNoGmRanges;  // never null: CheckGm reads it first
  GmRanges gm_ranges;
  int64_t block_idx = 0;
  int64_t block_num = 1;
  uint32_t core_type = ASC_TWIN_CORE_AIV;  // ASCEND_IS_AIC / ASCEND_IS_AIV
  uint32_t kernel_type = ASC_TWIN_KERNEL_TYPE_UNSET;
  int64_t sub_block_idx = 0;  // GetSubBlockIdx()
  int64_t sub_block_num = 1;  // GetSubBlockNum()
  int64_t task_ration = 1;    // GetTaskRation()
  TPipe* pipe = nullptr;      // GetTPipePtr()
  uint64_t pipe_epoch = 1;    // bumped by every TPipe construction/Reset; never 0 (an unset queue's epoch)
  uint64_t gm_written = 0;    // bytes this block's DataCopy calls wrote to GM so far
  bool gm_streamed = false;   // a DataCopy used streaming stores (fenced when the block ends)
  bool host_fences = false;   // env flag ASC_TWIN_ENV_HOST_FENCES_STORES: the runtime fences instead
  bool accumulating = false;  // the block has entered its accumulation into GM (StartAccumulating)
  VecRegs vec;                // mask mode/mask, CMPMASK, reduce SPRs (reset with the block)
  EventFlags events;          // SetFlag/WaitFlag events raised and not yet waited for
  LocalMems mem;              // the block's local memories from the env (UB, L1, L0A, L0B, L0C, BT, FB)
};

// Constant-initialised, so access needs no TLS init wrapper. Hidden: every
// device binary keeps its own copy instead of binding to another loaded
// kernel's (which may come from other header versions).
__attribute__((visibility("hidden"))) inline thread_local BlockState g_block;

// Reads one field of the env exactly as wide as it is: the runtime has just stored the fields
// one by one, and a wider load merging two of them (which compilers like to emit) cannot be
// forwarded from the store buffer; it waits until every older store, e.g. the previous block's
// GM writes, reached the cache.
template <typename F>
inline F EnvField(const F& field) {
  return __atomic_load_n(&field, __ATOMIC_RELAXED);
}

#if defined(__clang__) && defined(__x86_64__)
#define ASC_TWIN_BLOCK_SLOT_READS 1  // clang's __seg_fs: loads the compiler orders and aliases
#else
#define ASC_TWIN_BLOCK_SLOT_READS 0  // g++ has no __seg_fs in C++: g_block only
#endif

// The host's block slot as an offset from the thread pointer; 0 until an entry got one. The
// same value for every host thread, stored only when it changes (atomics: entries on several
// threads may store it at once). The asm name lets SlotBlock() read it from inline assembly;
// `used` emits it in every translation unit that includes this header.
__attribute__((visibility("hidden"), used)) inline intptr_t g_block_slot_tpoff asm("__asc_twin_block_slot_tpoff") = 0;

#if ASC_TWIN_BLOCK_SLOT_READS
using BlockSlotRef = BlockState* __seg_fs*;  // the calling thread's slot, at a TP offset

// What the host's slot holds for the calling thread (null: no slot offered, or no block of a
// slot host running here): the offset and the slot, two loads. Assembly without memory operands,
// so that CurrentBlock() below really reads no memory the compiler knows of, as its `const` says.
inline BlockState* SlotBlock() {
  BlockState* current;
  __asm__(
      "movq __asc_twin_block_slot_tpoff(%%rip), %0\n\t"
      "testq %0, %0\n\t"
      "jz 1f\n\t"
      "movq %%fs:(%0), %0\n"
      "1:"
      : "=r"(current)
      :
      : "cc");
  return current;
}

// The calling thread's block state: the slot's, else this thread's own g_block (outside a
// block, or a host that offers no slot). Out of line and `const`, so the compiler calls it once
// per kernel function and keeps the pointer in a register, where the read inlined into every
// Ascend C call repeated the loads and null tests (and the dynamic-TLS fallback, whose call
// clobbers registers, beside each). `const` is a promise the compiler cannot check: it holds
// because the slot does not change while a kernel runs. The entry sets it before calling the
// kernel and restores it after, around InvokeKernel, which is never inlined, so no call can be
// moved out of the block.
__attribute__((noinline, const)) inline BlockState* CurrentBlock() noexcept {
  BlockState* current = SlotBlock();
  return __builtin_expect(current != nullptr, 1) ? current : &g_block;
}
#endif

ASC_TWIN_HOT inline BlockState& Block() {
#if ASC_TWIN_BLOCK_SLOT_READS
  return *CurrentBlock();
#else
  return g_block;
#endif
}

// Publishes `state` (this thread's g_block) in the host's slot for one block and restores the
// slot's old value afterwards (ASC_TWIN_ENV_BLOCK_SLOT; nothing when the host offers none).
class BlockSlotScope {
 public:
  BlockSlotScope(const AscTwinBlockEnv* env, BlockState* state) {
#if ASC_TWIN_BLOCK_SLOT_READS
    if (!ASC_TWIN_ENV_HAS(env, block_slot_tpoff)) return;
    const intptr_t off = static_cast<intptr_t>(EnvField(env->block_slot_tpoff));
    if (off == 0) return;
    if (__atomic_load_n(&g_block_slot_tpoff, __ATOMIC_RELAXED) != off) {
      __atomic_store_n(&g_block_slot_tpoff, off, __ATOMIC_RELAXED);
    }
    slot_ = reinterpret_cast<BlockSlotRef>(off);
    saved_ = *slot_;
    *slot_ = state;
#else
    (void)env;
    (void)state;
#endif
  }
  ~BlockSlotScope() {
#if ASC_TWIN_BLOCK_SLOT_READS
    if (slot_ != nullptr) *slot_ = saved_;
#endif
  }
  BlockSlotScope(const BlockSlotScope&) = delete;
  BlockSlotScope& operator=(const BlockSlotScope&) = delete;

 private:
#if ASC_TWIN_BLOCK_SLOT_READS
  BlockSlotRef slot_ = nullptr;
  BlockState* saved_ = nullptr;
#endif
};

// The smallest env a kernel runs with: every field up to the memory table (the rest is read
// only where struct_size covers it).
constexpr uint32_t kMinEnvSize = static_cast<uint32_t>(offsetof(AscTwinBlockEnv, mem) + sizeof(AscTwinBlockEnv::mem));

// True in a KERNEL_TYPE_MIX_AIC_1_1 / 1_2 launch (AIC and AIV blocks of one kernel).
inline bool IsMixedKernel(const BlockState& b) {
  return b.kernel_type == ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_1 || b.kernel_type == ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_2;
}

// The block's memory `which` (UB: less the launch's dynamic UB), or size 0 where its core has none.
// An AIV of a mixed kernel is given L1 for its TSCM buffers only (`tscm`): as on the NPU, the
// AIC's L1 is reached from the AIV through a Matmul's TSCM operand, never as A1/B1/C1.
inline void MemoryOf(const BlockState& b, CoreBuffer which, uint8_t** base, uint64_t* size, bool tscm = false) {
  if (which == CoreBuffer::UB) {
    *base = b.ub_base;
    *size = b.ub_size;
    return;
  }
  if (which == CoreBuffer::L1 && b.core_type == ASC_TWIN_CORE_AIV && IsMixedKernel(b) && !tscm) {
    *base = nullptr;
    *size = 0;
    return;
  }
  *base = b.mem.base[static_cast<uint32_t>(which)];
  *size = b.mem.size[static_cast<uint32_t>(which)];
}

// Bytes of the running block's memory `which` (0 where its core has none).
inline uint64_t BlockMemoryBytes(CoreBuffer which) {
  uint8_t* base = nullptr;
  uint64_t size = 0;
  MemoryOf(Block(), which, &base, &size);
  return size;
}

// "AIV" / "AIC": the running block's core, for messages.
inline const char* CoreTypeName(const BlockState& b) { return b.core_type == ASC_TWIN_CORE_AIC ? "AIC" : "AIV"; }

// Traps naming `api` when the running block's core has no `which` (an AIV has no L1, ...).
[[noreturn]] __attribute__((noinline, cold)) inline void RaiseNoMemory(const char* api, CoreBuffer which) {
  const BlockState& b = Block();
  if (b.env == nullptr) RaiseTrap("%s: no block environment (kernel not launched by the twin runtime)", api);
  if (which == CoreBuffer::UB) {
    RaiseTrap(
        "%s: this block runs on an AIC, which has no UB (the UB is the AIVs': run this code under "
        "ASCEND_IS_AIV in a __mix__ kernel)",
        api);
  }
  RaiseTrap(
      "%s: this block runs on an AIV, which has no %s (the cube's memories are the AIC's: declare the kernel "
      "__mix__(1, 2) or __cube__ and run this code under ASCEND_IS_AIC)",
      api, CoreBufferName(which));
}

// Store fences this thread's blocks issued when they ended (what tests observe of ClearBlock).
__attribute__((visibility("hidden"))) inline thread_local uint64_t g_block_end_fences = 0;

// `b` is this thread's g_block (the entry looks it up once: in a dlopened image each lookup is
// a __tls_get_addr call).
// The entry checked that the env covers every field up to the memory table (kMinEnvSize); the
// fields after it are read only where struct_size covers them (aicore_abi.h's rule).
inline void InstallBlock(const AscTwinBlockEnv* env, BlockState& b) {
  b.env = env;
  for (uint32_t m = 0; m < ASC_TWIN_MEM_COUNT; ++m) {
    b.mem.base[m] = EnvField(env->mem[m].base);
    b.mem.size[m] = b.mem.base[m] != nullptr ? EnvField(env->mem[m].size) : 0;
  }
  b.ub_base = b.mem.base[ASC_TWIN_MEM_UB];
  b.ub_size = b.mem.size[ASC_TWIN_MEM_UB];
  b.core_type = EnvField(env->core_type);
  b.kernel_type = EnvField(env->kernel_type);
  b.sub_block_idx = EnvField(env->sub_block_idx);
  b.sub_block_num = EnvField(env->sub_block_num);
  b.task_ration = EnvField(env->task_ration);
  b.gm_check = ASC_TWIN_ENV_HAS(env, gm_check) ? EnvField(env->gm_check) : nullptr;
  b.gm_ctx = ASC_TWIN_ENV_HAS(env, gm_ctx) ? EnvField(env->gm_ctx) : nullptr;
  const bool ranges = ASC_TWIN_ENV_HAS(env, gm_generation);
  b.gm_range = ranges ? EnvField(env->gm_range) : nullptr;
  b.gm_generation = ranges ? EnvField(env->gm_generation) : nullptr;
  if (b.gm_generation == nullptr) {
    b.gm_range = nullptr;
    b.gm_generation = &kNoGmRanges;
  }
  b.block_idx = EnvField(env->block_idx);
  b.block_num = EnvField(env->block_num);
  b.pipe = nullptr;
  ++b.pipe_epoch;
  b.gm_written = 0;
  b.gm_streamed = false;
  b.host_fences = (EnvField(env->flags) & ASC_TWIN_ENV_HOST_FENCES_STORES) != 0;
  b.accumulating = false;
  b.vec = VecRegs{};
  b.events = EventFlags{};
}

inline void ClearBlock(BlockState& b) {
  // Streaming stores are weakly ordered: make them visible before the runtime learns (from
  // another thread) that the block is done, unless the runtime promised to fence them itself
  // (once per run of blocks: an sfence per block cost ~1/3 of a streaming kernel's time).
  if (b.gm_streamed && !b.host_fences) {
    FenceStreamingStores();
    ++g_block_end_fences;
  }
  const uint64_t epoch = b.pipe_epoch + 1;
  const GmRanges ranges = b.gm_ranges;
  b = BlockState{};
  b.pipe_epoch = epoch;
  b.gm_ranges = ranges;
}

inline void InstallBlock(const AscTwinBlockEnv* env) { InstallBlock(env, g_block); }
inline void ClearBlock() { ClearBlock(g_block); }

[[noreturn]] __attribute__((noinline, cold)) inline void RaiseGmTrap(const char* api, const void* addr, uint64_t len) {
  RaiseTrap("%s: GM access [%p, +%llu B) is outside every device allocation", api, addr,
            static_cast<unsigned long long>(len));
}

// A miss of the block's GmRanges: asks the host (gm_range) and remembers the allocation; a host
// without gm_range answers through gm_check (or checks nothing, when it offers neither).
__attribute__((noinline)) inline void CheckGmRange(BlockState& b, const char* api, const void* addr, uint64_t len) {
  if (b.gm_range == nullptr) {
    if (b.gm_check != nullptr && !b.gm_check(b.gm_ctx, addr, len)) RaiseGmTrap(api, addr, len);
    return;
  }
  uintptr_t lo = 0, hi = 0;
  uint64_t generation = 0;
  if (!b.gm_range(b.gm_ctx, addr, len, &lo, &hi, &generation)) RaiseGmTrap(api, addr, len);
  GmRanges& c = b.gm_ranges;
  if (generation != c.generation) {  // something was freed: forget everything found before
    c = GmRanges{};
    c.generation = generation;
  }
  c.lo[c.next] = lo;
  c.hi[c.next] = hi;
  c.next = (c.next + 1) % GmRanges::kSize;
}

// Traps unless [addr, addr+len) lies inside one live device allocation. With the host's
// gm_range, a hit among this block's known allocations is a few inline compares (the host's
// gm_check was an indirect call per DataCopy); a free since they were found changes the
// generation, so the next access asks the host again, as gm_check would.
ASC_TWIN_HOT inline void CheckGm(BlockState& b, const char* api, const void* addr, uint64_t len) {
  if (len == 0) return;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(addr), end = begin + len;
  const GmRanges& c = b.gm_ranges;
  if (__builtin_expect(end > begin && __atomic_load_n(b.gm_generation, __ATOMIC_ACQUIRE) == c.generation, 1)) {
    for (uint32_t k = 0; k < GmRanges::kSize; ++k) {
      if (begin >= c.lo[k] && end <= c.hi[k]) return;
    }
  }
  CheckGmRange(b, api, addr, len);
}
ASC_TWIN_HOT inline void CheckGm(const char* api, const void* addr, uint64_t len) { CheckGm(Block(), api, addr, len); }

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_BLOCK_STATE_H_
