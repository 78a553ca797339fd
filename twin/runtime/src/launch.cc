#include "twin/runtime/internal/launch.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/internal/core_layout.h"
#include "twin/runtime/internal/cross_core.h"
#include "twin/runtime/internal/env_knob.h"
#include "twin/runtime/internal/launch_print.h"
#include "twin/runtime/internal/spin_wait.h"

#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
// The block slot every env offers kernels (ASC_TWIN_ENV_BLOCK_SLOT): a kernel entry parks its
// per-block state here, so the kernel's API calls reach it without __tls_get_addr. Static TLS
// of the process that runs blocks (the device process, or libascendcl in-process); the images
// themselves define none, so loading and unloading them cannot use static TLS up.
// Not ASC_TWIN_DEFINE_BLOCK_SLOT's static variable: linked by gold into libascendcl.so, the
// dynamic relocation of a local initial-exec TLS variable names the wrong symbol, so its address
// came out as the library's TLS base and every kernel entry overwrote the variables there. An
// exported one (libascendcl.lds) is relocated by name; tls_relocs_test checks the library.
extern "C" {  // braced: a definition, not `extern "C" T x;`'s declaration
__attribute__((visibility("default"))) __thread void *__asc_twin_block_slot __attribute__((tls_model("initial-exec")));
}
#endif

namespace asc_twin::rt {
namespace {

constexpr size_t kErrCapacity = 512;
constexpr auto kJoinSpin = std::chrono::microseconds(100);
// Lazy fan-out: when the pool's workers sleep, the launching thread runs blocks alone for this
// long before it wakes them. A launch done by then (most small ones) finishes without a wake-up
// (20-60 us on a VM, README "Launch latency"); a longer one loses at most this much of the
// helpers' share, plus the rest of the block running when it is due (helpers are posted
// between blocks; launches with no more blocks than threads post them at once).
constexpr auto kFanOutDelay = std::chrono::microseconds(10);
// Small-launch path: a launch whose blocks, at the pace this kernel's blocks ran at in earlier
// launches, add up to less than this runs on the launching thread alone. Below it, handing
// blocks to a helper (a post, the helper's claim, waiting for its last block) costs more than
// the helper saves; README "Small launches" has the measurement behind the default.
constexpr uint64_t kDefaultInlineBelowNs = 8000;
uint64_t InlineBelowNs() {
  static const uint64_t ns = EnvUnsigned("ASCEND_TWIN_INLINE_LAUNCH_NS", kDefaultInlineBelowNs, 1000u * 1000 * 1000);
  return ns;
}

// Per-kernel pace of a block (ns), learned from the blocks each launching thread ran. A small
// table keyed by the Kernel's address: a collision or a reused address only costs one launch a
// stale guess (the next launch corrects it), never a wrong result.
class BlockPace {
 public:
  // 0: no estimate yet.
  uint64_t Get(const Kernel *kernel) const {
    const Entry &entry = entries_[Slot(kernel)];
    return entry.kernel.load(std::memory_order_relaxed) == kernel ? entry.ns.load(std::memory_order_relaxed) : 0;
  }
  void Record(const Kernel *kernel, uint64_t ns_per_block) {
    Entry &entry = entries_[Slot(kernel)];
    const uint64_t before = Get(kernel);
    // A quarter of each new sample: one slow launch (a preempted thread) does not flip the choice.
    entry.ns.store(before == 0 ? ns_per_block : (3 * before + ns_per_block) / 4, std::memory_order_relaxed);
    entry.kernel.store(kernel, std::memory_order_relaxed);
  }

 private:
  struct Entry {
    std::atomic<const Kernel *> kernel{nullptr};
    std::atomic<uint64_t> ns{0};
  };
  static size_t Slot(const Kernel *kernel) { return (reinterpret_cast<uintptr_t>(kernel) >> 4) % kSlots; }
  static constexpr size_t kSlots = 64;
  Entry entries_[kSlots];
};

BlockPace g_block_pace;
std::atomic<uint64_t> g_inline_launches{0};

// This thread's local memories of one core type, by position (ASC_TWIN_MEM_*): each 4 KiB
// aligned, sized to the SoC's ini figure, reused by every block of that type the thread runs
// (its contents are what the last block left, as on the NPU).
class LocalMemArena {
 public:
  ~LocalMemArena() {
    for (uint32_t m = 0; m < ASC_TWIN_MEM_COUNT; ++m) Unmap(m);
  }
  // Null when the host has no memory for it (the block then fails, naming the position). Mapped
  // directly, not malloc'ed: no allocator state is touched between blocks, and pages a block
  // never uses (most kernels leave L0/BT/FB alone) cost no memory.
  uint8_t *Get(uint32_t position, uint64_t size) {
    if (size != size_[position]) {
      Unmap(position);
      void *p =
          mmap(nullptr, Rounded(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p != MAP_FAILED) {
        base_[position] = static_cast<uint8_t *>(p);
        size_[position] = size;
      }
    }
    return base_[position];
  }

 private:
  static uint64_t Rounded(uint64_t size) { return (size + 4095) / 4096 * 4096; }
  void Unmap(uint32_t position) {
    if (base_[position] != nullptr) munmap(base_[position], Rounded(size_[position]));
    base_[position] = nullptr;
    size_[position] = 0;
  }
  uint8_t *base_[ASC_TWIN_MEM_COUNT] = {};
  uint64_t size_[ASC_TWIN_MEM_COUNT] = {};
};

thread_local LocalMemArena t_aiv_mem;
thread_local LocalMemArena t_aic_mem;

// The SoC's size of each position, by ASC_TWIN_MEM_*.
uint64_t PositionBytes(const SocSpec &soc, uint32_t position) {
  switch (position) {
    case ASC_TWIN_MEM_UB:
      return soc.ub_size;
    case ASC_TWIN_MEM_L1:
      return soc.l1_size;
    case ASC_TWIN_MEM_L0A:
      return soc.l0_a_size;
    case ASC_TWIN_MEM_L0B:
      return soc.l0_b_size;
    case ASC_TWIN_MEM_L0C:
      return soc.l0_c_size;
    case ASC_TWIN_MEM_BT:
      return soc.bt_size;
    case ASC_TWIN_MEM_FB:
      return soc.fb_size;
    default:
      return 0;
  }
}

const char *PositionName(uint32_t position) {
  static const char *const kNames[ASC_TWIN_MEM_COUNT] = {"UB", "L1", "L0A", "L0B", "L0C", "BT", "FB"};
  return position < ASC_TWIN_MEM_COUNT ? kNames[position] : "?";
}

// Fills env->mem for a block of `core_type`: an AIV has the UB, an AIC the cube's memories, the
// AIV of a kernel that declares no type all of them. "" or the position that could not be had.
std::string FillLocalMem(const SocSpec &soc, const CoreLayout &layout, uint32_t core_type, AscTwinBlockEnv *env) {
  LocalMemArena &arena = core_type == kCoreAic ? t_aic_mem : t_aiv_mem;
  for (uint32_t position = 0; position < ASC_TWIN_MEM_COUNT; ++position) {
    // An AIV of a mixed launch also reaches L1: its TSCM buffers (the AIC's L1 a Matmul client
    // stages operands in, as CANN's); the kernel side keeps A1/B1/C1 there the AIC's alone.
    const bool has = core_type == kCoreAic ? position != ASC_TWIN_MEM_UB
                                           : position == ASC_TWIN_MEM_UB || layout.all_memories() ||
                                                 (position == ASC_TWIN_MEM_L1 && layout.mixed());
    const uint64_t bytes = has ? PositionBytes(soc, position) : 0;
    env->mem[position].size = bytes;
    env->mem[position].base = bytes != 0 ? arena.Get(position, bytes) : nullptr;
    if (bytes != 0 && env->mem[position].base == nullptr) {
      return "cannot allocate the " + std::to_string(bytes) + "-byte " + PositionName(position) + " arena";
    }
  }
  return "";
}

// The publisher RunLaunch uses when given none (ScopedLaunchPublisher).
thread_local const LaunchPublisher *t_publisher = nullptr;

}  // namespace

// One launch in flight. The counters every block thread writes sit on their own cache lines so
// that claiming does not slow down the flag every block reads.
struct LaunchState : std::enable_shared_from_this<LaunchState> {
  const LaunchRequest *request = nullptr;  // valid only while a block is unclaimed or running
  // The blocks of the launch by core type (core_layout.h); `blocks` below counts units: every
  // AIC and AIV block.
  CoreLayout layout;
  uint32_t blocks = 0;
  uint32_t threads = 1;  // threads expected to claim blocks (sizes the chunks)
  // Cross-block waits (SyncAll, IBWait; CrossBlock below): launches of at most
  // resident_limit blocks get a started flag per block, so that once a block waits for the
  // others, every block not yet started can be given a thread of its own (`resident`), even
  // the ones already claimed in some thread's run. Whoever sets a block's flag runs it.
  uint32_t resident_limit = 0;  // per core type: AIC blocks at most aic_resident_limit
  uint32_t aic_resident_limit = 0;
  std::unique_ptr<std::atomic<uint8_t>[]> started;  // null: more blocks than can be resident
  std::atomic<bool> resident{false};
  std::mutex barrier_mutex;  // SyncAll() without workspace, and ACCUMULATE waits
  std::condition_variable barrier_cv;
  // Units that reached an accumulation into GM, a cross-block or cross-core call, or their end
  // (ASC_TWIN_CROSS_BLOCK_ACCUMULATE waits for the rest of its core type); with `started`.
  std::unique_ptr<std::atomic<uint8_t>[]> settled;
  std::atomic<uint32_t> settled_aic{0};
  std::atomic<uint32_t> settled_aiv{0};
  std::atomic<uint32_t> settle_waiters{0};  // threads in an ACCUMULATE wait: settling notifies
  uint32_t barrier_arrived = 0;
  uint64_t barrier_generation = 0;
  alignas(64) std::atomic<uint32_t> next_block{0};
  alignas(64) std::atomic<uint32_t> finished{0};
  alignas(64) std::atomic<bool> failed{false};
  std::mutex mutex;  // guards the fields below
  uint32_t failed_block = UINT32_MAX;
  std::string failure;
  bool failure_is_cascade = false;  // `failure` is a block giving up on another (kCascadeWords)
  bool waiter_sleeping = false;
  std::condition_variable all_done;
  LaunchPrint print;  // the blocks' printf records
  // CrossCoreSetFlag/WaitFlag state, made by the first call (most launches never use it).
  std::once_flag cross_core_once;
  std::unique_ptr<CrossCoreFlags> cross_core;
  std::atomic<bool> cross_core_used{false};
  std::atomic<uint32_t> units_ended{0};  // units whose entry returned (the deadlock rule of cross_core.h)
};

namespace {

// "block 3" for a launch of one core type as before; "AIC block 0" / "AIV block 3" in a mixed one.
std::string BlockName(const CoreLayout &layout, uint32_t unit) {
  const CoreLayout::Unit u = layout.At(unit);
  if (!layout.mixed()) return "block " + std::to_string(u.block_idx);
  return std::string(u.core_type == kCoreAic ? "AIC" : "AIV") + " block " + std::to_string(u.block_idx);
}

std::string OneLine(const char *text) {
  std::string line(text);
  for (char &c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line.empty() ? std::string("trap (the kernel gave no cause)") : line;
}

// A block that gave up waiting because another failed (barrier, IBWait poll, cross-core wait)
// says so with these words: the launch reports the block that failed first-hand instead.
constexpr const char *kCascadeWords = "another block of the launch failed";

// The unit the calling thread runs now (RunOneBlock), UINT32_MAX outside a block: for the
// cross-block calls its kernel makes.
thread_local uint32_t t_unit = UINT32_MAX;

// The longest an ACCUMULATE waits for the other blocks to settle: far above any prologue, short
// enough that a block spinning on GM without an API call (which cannot settle) stalls little.
constexpr auto kAccumulateWaitLimit = std::chrono::seconds(1);

// `unit` reached an accumulation, a cross-block call or its end: counted once per unit.
void Settle(LaunchState &state, uint32_t unit) {
  if (state.settled == nullptr || unit >= state.blocks) return;
  if (state.settled[unit].exchange(1, std::memory_order_acq_rel) != 0) return;
  (state.layout.At(unit).core_type == kCoreAic ? state.settled_aic : state.settled_aiv).fetch_add(1);
  if (state.settle_waiters.load() == 0) return;  // seq_cst with the waiter's increment: no lost wake-up
  std::lock_guard<std::mutex> lock(state.barrier_mutex);
  state.barrier_cv.notify_all();
}

void RecordFailure(LaunchState &state, uint32_t block, std::string cause) {
  std::lock_guard<std::mutex> lock(state.mutex);
  const bool cascade = cause.find(kCascadeWords) != std::string::npos;
  // The lowest failing block that ran, among first-hand failures if there is one.
  const bool better = state.failed_block == UINT32_MAX || (state.failure_is_cascade && !cascade) ||
                      (state.failure_is_cascade == cascade && block < state.failed_block);
  if (better) {
    state.failed_block = block;
    state.failure = std::move(cause);
    state.failure_is_cascade = cascade;
  }
  state.failed.store(true, std::memory_order_release);
  if (state.started != nullptr) {  // blocks waiting in a barrier give up (CrossBlock)
    std::lock_guard<std::mutex> barrier(state.barrier_mutex);
    state.barrier_cv.notify_all();
  }
  if (state.cross_core_used.load(std::memory_order_acquire)) state.cross_core->Wake();
}

int CrossBlock(const void *launch_ctx, uint32_t op, char *err, size_t err_cap);
int CrossCore(const void *launch_ctx, uint32_t op, uint32_t mode, uint32_t flag_id, uint32_t core_type,
              uint32_t block_idx, char *err, size_t err_cap);

// The env of this thread's blocks of one launch: filled once (RunOneBlock sets what changes per
// block), so the kernel does not read fields that were stored a moment before.
void FillEnv(const LaunchState &state, AscTwinBlockEnv *env) {
  const LaunchRequest &request = *state.request;
  const SocSpec &soc = *request.soc;
  *env = AscTwinBlockEnv{};
  env->struct_size = sizeof(AscTwinBlockEnv);
  env->abi_version = ASC_TWIN_ABI_VERSION;
  env->block_num = state.layout.blocks;
  env->npu_arch = soc.npu_arch;
  env->flags = ASC_TWIN_ENV_HOST_FENCES_STORES;  // RunBlocks fences each run (FenceBlockStores)
  env->kernel_type = state.layout.kernel_type;
  env->aic_core_num = soc.cube_core_cnt;
  env->aiv_core_num = soc.vector_core_cnt;
  env->resident_limit = state.resident_limit;
  env->gm_check = &MemoryTable::GmCheck;
  env->gm_ctx = request.memory;
  env->gm_range = &MemoryTable::GmRange;
  env->gm_generation = request.memory->GenerationWord();
  env->soc_version = soc.soc_version;
  env->kernel_name = request.kernel->name.c_str();
  env->cross_block = &CrossBlock;
  env->launch_ctx = &state;
  env->cross_core = &CrossCore;
  env->print = &LaunchPrint::Record;
  env->print_ctx = &state.print;
#if ASC_TWIN_BLOCK_SLOT_SUPPORTED
  AscTwinEnvUseBlockSlot(env, &__asc_twin_block_slot);
#endif
}

// The per-block fields of `unit` and its core type's local memories. "" or why it cannot run.
std::string SetUnit(const LaunchState &state, uint32_t unit, AscTwinBlockEnv *env) {
  const CoreLayout::Unit u = state.layout.At(unit);
  env->block_idx = u.block_idx;
  env->sub_block_idx = u.sub;
  const bool aic = u.core_type == kCoreAic;
  env->sub_block_num = aic ? 1 : state.layout.aiv_per_group;
  env->task_ration = aic ? 1 : state.layout.aiv_per_group;
  if (env->core_type == u.core_type && env->mem[aic ? ASC_TWIN_MEM_L1 : ASC_TWIN_MEM_UB].base != nullptr) return "";
  env->core_type = u.core_type;
  return FillLocalMem(*state.request->soc, state.layout, u.core_type, env);
}

// True if the calling thread may run `block` (no resident thread took it first).
inline bool TakeBlock(LaunchState &state, uint32_t block) {
  return state.started == nullptr || state.started[block].exchange(1, std::memory_order_acq_rel) == 0;
}

// A unit's entry returned: waiters on cross-core flags check whether they can still be served.
void UnitEnded(LaunchState &state, uint32_t unit) {
  Settle(state, unit);
  state.units_ended.fetch_add(1, std::memory_order_acq_rel);
  if (state.cross_core_used.load(std::memory_order_acquire)) state.cross_core->Wake();
}

void CountFinished(LaunchState &state, uint32_t count) {
  if (count == 0) return;
  if (state.finished.fetch_add(count, std::memory_order_acq_rel) + count == state.blocks) {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.waiter_sleeping) state.all_done.notify_all();
  }
}

void RunOneBlock(LaunchState &state, AscTwinBlockEnv &env, uint32_t block) {
  const LaunchRequest &request = *state.request;
  const std::string no_memory = SetUnit(state, block, &env);
  if (!no_memory.empty()) {
    RecordFailure(state, block, no_memory);
    UnitEnded(state, block);
    return;
  }
  if (g_block_mark != nullptr) g_block_mark(request, block);
  char err[kErrCapacity];
  err[0] = '\0';
  int rc = 0;
  t_unit = block;
  try {
    rc = request.kernel->entry(&env, request.args.data(), request.args_size, err, sizeof(err));
  } catch (...) {  // the ABI forbids it; do not let a buggy binary take the process down
    std::snprintf(err, sizeof(err), "C++ exception escaped the kernel entry");
    rc = -1;
  }
  t_unit = UINT32_MAX;
  if (g_block_mark != nullptr) g_block_mark(request, UINT32_MAX);
  if (rc != 0) {
    err[sizeof(err) - 1] = '\0';
    RecordFailure(state, block, OneLine(err));
  }
  UnitEnded(state, block);
}

// Makes the streaming (non-temporal) stores of the blocks this thread just ran visible before
// their completion is published: the promise of ASC_TWIN_ENV_HOST_FENCES_STORES. The
// release/acquire on `finished` orders ordinary stores only; weakly ordered ones need sfence.
inline void FenceBlockStores() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_sfence();
#else
  std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}

// Claims the next run of consecutive blocks: guided self-scheduling, a share of what is left
// per claim (large runs first, single blocks at the end), so threads stream through contiguous
// memory and touch the shared counter a few dozen times per launch instead of once per block.
// Returns false when no block is left.
bool ClaimBlocks(LaunchState &state, uint32_t *first, uint32_t *count) {
  uint32_t next = state.next_block.load(std::memory_order_relaxed);
  for (;;) {
    if (next >= state.blocks) return false;
    const uint32_t left = state.blocks - next;
    const uint32_t take = std::max<uint32_t>(1, left / (2 * state.threads));
    if (state.next_block.compare_exchange_weak(next, next + take, std::memory_order_relaxed)) {
      *first = next;
      *count = take;
      return true;
    }
  }
}

struct DeferredHelpers;
uint32_t RunBlocks(LaunchState &state, DeferredHelpers *deferred = nullptr);

// Helpers the launching thread still owes the pool (lazy fan-out, kFanOutDelay).
struct DeferredHelpers {
  WorkerPool *pool = nullptr;
  unsigned count = 0;
  std::chrono::steady_clock::time_point due;
  std::shared_ptr<LaunchState> state;
  void PostIfDue() {
    if (count == 0 || std::chrono::steady_clock::now() < due) return;
    for (; count > 0; --count) pool->Post([held = state] { RunBlocks(*held); });
  }
};

// Claims and runs blocks until none is left; after a trap the remaining blocks are skipped.
// The launching thread passes `deferred` and posts the helpers once they are due. Returns how
// many blocks this thread ran.
uint32_t RunBlocks(LaunchState &state, DeferredHelpers *deferred) {
  uint32_t ran = 0;
  uint32_t first = 0, count = 0;
  AscTwinBlockEnv env;
  bool env_filled = false;  // the request may be touched only once a block was claimed
  while (ClaimBlocks(state, &first, &count)) {
    if (!env_filled) {
      FillEnv(state, &env);
      env_filled = true;
    }
    uint32_t mine = 0;  // blocks of the run this thread completes (ran, or skipped after a trap)
    for (uint32_t block = first; block < first + count; ++block) {
      if (!TakeBlock(state, block)) continue;  // a resident thread has it
      ++mine;
      if (state.failed.load(std::memory_order_relaxed)) continue;
      RunOneBlock(state, env, block);
      ++ran;
      if (deferred != nullptr && deferred->count > 0) deferred->PostIfDue();
    }
    FenceBlockStores();  // every path that completes blocks, trapped ones included, passes here
    CountFinished(state, mine);
  }
  return ran;
}

void WaitAllFinished(LaunchState &state) {
  const uint32_t blocks = state.blocks;
  if (SpinUntil([&] { return state.finished.load(std::memory_order_acquire) == blocks; }, kJoinSpin)) return;
  std::unique_lock<std::mutex> lock(state.mutex);
  state.waiter_sleeping = true;
  state.all_done.wait(lock, [&] { return state.finished.load(std::memory_order_acquire) == blocks; });
  state.waiter_sleeping = false;
}

// Runs `block` on a thread of its own, unless a thread that claimed it started it first.
void RunResidentBlock(const std::shared_ptr<LaunchState> &state, uint32_t block) {
  if (!TakeBlock(*state, block)) return;
  if (!state->failed.load(std::memory_order_relaxed)) {
    AscTwinBlockEnv env;
    FillEnv(*state, &env);
    RunOneBlock(*state, env, block);
  }
  FenceBlockStores();
  CountFinished(*state, 1);
}

// From the first wait on: every block not yet started gets a thread (started per launch and
// ended with the block: such launches are rare and small, at most resident_limit blocks).
void MakeResident(LaunchState &state) {
  if (state.resident.exchange(true, std::memory_order_acq_rel)) return;
  std::shared_ptr<LaunchState> held = state.shared_from_this();
  for (uint32_t block = 0; block < state.blocks; ++block) {
    if (state.started[block].load(std::memory_order_acquire) != 0) continue;
    try {
      std::thread([held, block] { RunResidentBlock(held, block); }).detach();
    } catch (const std::system_error &e) {
      if (TakeBlock(state, block)) {
        RecordFailure(state, block, std::string("cannot start a thread to make the block resident: ") + e.what());
        CountFinished(state, 1);
      }
    }
  }
}

// `parties`: the blocks that take part (every unit, or the AIVs of a mixed launch).
int Barrier(LaunchState &state, uint32_t parties, char *err, size_t err_cap) {
  std::unique_lock<std::mutex> lock(state.barrier_mutex);
  const uint64_t generation = state.barrier_generation;
  if (++state.barrier_arrived == parties) {
    state.barrier_arrived = 0;
    ++state.barrier_generation;
    state.barrier_cv.notify_all();
    return 0;
  }
  state.barrier_cv.wait(
      lock, [&] { return state.barrier_generation != generation || state.failed.load(std::memory_order_acquire); });
  if (state.barrier_generation != generation) return 0;
  std::snprintf(err, err_cap, "SyncAll: another block of the launch failed, it will never reach the barrier");
  return 1;
}

// ASC_TWIN_CROSS_BLOCK_ACCUMULATE: until every unit of the caller's core type settled, a block
// failed, or kAccumulateWaitLimit passed (the caller has settled itself already).
void WaitForAccumulation(LaunchState &state, uint32_t unit) {
  if (unit >= state.blocks) return;
  const bool aic = state.layout.At(unit).core_type == kCoreAic;
  const uint32_t units = aic ? state.layout.aic : state.layout.aiv;
  const std::atomic<uint32_t> &settled = aic ? state.settled_aic : state.settled_aiv;
  state.settle_waiters.fetch_add(1);
  {
    std::unique_lock<std::mutex> lock(state.barrier_mutex);
    state.barrier_cv.wait_for(lock, kAccumulateWaitLimit,
                              [&] { return settled.load() >= units || state.failed.load(std::memory_order_acquire); });
  }
  state.settle_waiters.fetch_sub(1);
}

int CrossBlock(const void *launch_ctx, uint32_t op, char *err, size_t err_cap) {
  auto &state = *const_cast<LaunchState *>(static_cast<const LaunchState *>(launch_ctx));
  Settle(state, t_unit);  // whatever it asks for, the caller now waits for or accumulates
  if (op == ASC_TWIN_CROSS_BLOCK_ACCUMULATE) {
    if (state.started == nullptr) return 0;  // run in waves, on the NPU too: no start together
    MakeResident(state);
    WaitForAccumulation(state, t_unit);
    return 0;
  }
  if (op == ASC_TWIN_CROSS_BLOCK_POLL) {
    if (!state.failed.load(std::memory_order_acquire)) return 0;
    std::snprintf(err, err_cap, "another block of the launch failed, the block waited for may never come");
    return 1;
  }
  if (op != ASC_TWIN_CROSS_BLOCK_RESIDENT && op != ASC_TWIN_CROSS_BLOCK_BARRIER &&
      op != ASC_TWIN_CROSS_BLOCK_BARRIER_AIV) {
    std::snprintf(err, err_cap, "unknown cross-block operation %u", op);
    return 1;
  }
  if (state.started == nullptr) {
    const bool aic = state.layout.aic > state.aic_resident_limit;
    const uint32_t limit = aic ? state.aic_resident_limit : state.resident_limit;
    const uint32_t per_block = aic ? 1 : state.layout.aiv_per_group;
    std::snprintf(err, err_cap,
                  "numBlocks=%u exceeds the %u %s of %s: blocks that wait for each other (SyncAll, IBWait, "
                  "CrossCoreWaitFlag) must all be resident at once, as on the NPU; launch at most %u blocks",
                  state.layout.blocks, limit, aic ? "cube cores" : "cores", state.request->soc->soc_version,
                  limit / per_block);
    return 1;
  }
  MakeResident(state);
  if (op == ASC_TWIN_CROSS_BLOCK_BARRIER) return Barrier(state, state.blocks, err, err_cap);
  return op == ASC_TWIN_CROSS_BLOCK_BARRIER_AIV ? Barrier(state, state.layout.aiv, err, err_cap) : 0;
}

// Both ops first make the launch resident: a core waiting for a flag needs the cores that set
// it running (CrossBlock's rule, with its message when the launch is too large for that).
int CrossCore(const void *launch_ctx, uint32_t op, uint32_t mode, uint32_t flag_id, uint32_t core_type,
              uint32_t block_idx, char *err, size_t err_cap) {
  auto &state = *const_cast<LaunchState *>(static_cast<const LaunchState *>(launch_ctx));
  if (op != ASC_TWIN_CROSS_CORE_SET && op != ASC_TWIN_CROSS_CORE_WAIT) {
    std::snprintf(err, err_cap, "unknown cross-core operation %u", op);
    return 1;
  }
  const uint32_t cores = core_type == kCoreAic ? state.layout.aic : state.layout.aiv;
  if ((core_type != kCoreAic && core_type != kCoreAiv) || block_idx >= cores) {
    std::snprintf(err, err_cap, "cross-core call from a core not in the launch (core type %u, block %u)", core_type,
                  block_idx);
    return 1;
  }
  if (CrossBlock(launch_ctx, ASC_TWIN_CROSS_BLOCK_RESIDENT, err, err_cap) != 0) return 1;
  std::call_once(state.cross_core_once, [&] {
    state.cross_core = std::make_unique<CrossCoreFlags>(state.layout);
    state.cross_core_used.store(true, std::memory_order_release);
  });
  if (op == ASC_TWIN_CROSS_CORE_SET) return state.cross_core->Set(mode, flag_id, core_type, block_idx, err, err_cap);
  return state.cross_core->Wait(flag_id, core_type, block_idx, state.failed, state.units_ended, err, err_cap);
}

}  // namespace

Status ValidateLaunch(const Kernel &kernel, uint32_t blocks, const void *args, size_t args_size) {
  if (blocks == 0 || blocks > kMaxBlocks) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name + ": numBlocks=" + std::to_string(blocks) +
                                               " is outside [1, " + std::to_string(kMaxBlocks) + "]");
  }
  if (args == nullptr) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name + ": argsData is null");
  }
  if (args_size > kMaxArgsSize) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name +
                                               ": argsSize=" + std::to_string(args_size) + " exceeds the " +
                                               std::to_string(kMaxArgsSize) + "-byte argument limit");
  }
  if (args_size < kernel.args_size) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name +
                                               ": argsSize=" + std::to_string(args_size) + " but the kernel reads " +
                                               std::to_string(kernel.args_size) + " bytes (" +
                                               std::to_string(kernel.params) + " parameters, 8-byte slots)");
  }
  return Status::Ok();
}

void FillLaunch(LaunchRequest *request, std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args,
                size_t args_size, const SocSpec &soc, const MemoryTable &memory) {
  request->kernel = std::move(kernel);
  request->args.resize((args_size + 7) / 8 + 1);  // +1: never hand out an empty (null) blob
  if (args_size > 0) std::memcpy(request->args.data(), args, args_size);
  request->args_size = args_size;
  request->blocks = blocks;
  request->soc = &soc;
  request->memory = &memory;
}

LaunchRequest MakeLaunch(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                         const SocSpec &soc, const MemoryTable &memory) {
  LaunchRequest request;
  FillLaunch(&request, std::move(kernel), blocks, args, args_size, soc, memory);
  return request;
}

void HelpLaunch(LaunchState &state) { RunBlocks(state); }

uint64_t InlineLaunchCount() { return g_inline_launches.load(std::memory_order_relaxed); }

ScopedLaunchPublisher::ScopedLaunchPublisher(const LaunchPublisher *publish) : saved_(t_publisher) {
  t_publisher = publish;
}

ScopedLaunchPublisher::~ScopedLaunchPublisher() { t_publisher = saved_; }

BlockMarkFn g_block_mark = nullptr;

Status RunLaunchInProcess(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &explicit_publish) {
  const LaunchPublisher *publisher = explicit_publish ? &explicit_publish : t_publisher;
  const LaunchPublisher &publish = publisher != nullptr ? *publisher : explicit_publish;
  auto state = std::make_shared<LaunchState>();
  state->request = &request;
  state->layout = CoreLayout::For(request.kernel->kernel_type, request.blocks);
  state->blocks = state->layout.units();
  // Records are kept by block index: AIC block i and AIV block i share a slot (core_layout.h).
  state->print.SetBlocks(std::max(state->layout.aic, state->layout.aiv));
  // Pool workers, plus this thread (a worker itself, or a host thread draining its stream).
  state->threads = pool.size() + 1;
  state->resident_limit = std::max(request.soc->ai_core_cnt, request.soc->vector_core_cnt);
  state->aic_resident_limit = std::max(request.soc->ai_core_cnt, request.soc->cube_core_cnt);
  if (state->layout.aiv <= state->resident_limit && state->layout.aic <= state->aic_resident_limit) {
    state->started = std::make_unique<std::atomic<uint8_t>[]>(state->blocks);
    state->settled = std::make_unique<std::atomic<uint8_t>[]>(state->blocks);
    for (uint32_t b = 0; b < state->blocks; ++b) {
      state->started[b].store(0, std::memory_order_relaxed);
      state->settled[b].store(0, std::memory_order_relaxed);
    }
  }
  DeferredHelpers deferred;
  const Kernel *kernel = request.kernel.get();
  const uint64_t pace = g_block_pace.Get(kernel);
  const uint32_t units = state->blocks;
  const bool inline_only = pace != 0 && pace * units < InlineBelowNs();
  if (inline_only) g_inline_launches.fetch_add(1, std::memory_order_relaxed);
  if (units > 1 && !inline_only) {
    const unsigned helpers = std::min<unsigned>(units - 1, pool.size());
    // At once when that costs no wake-up (the workers are polling), or when there are no more
    // blocks than threads (each block may be long, and a helper posted at the first block
    // boundary would come too late); else lazily.
    if (pool.sleeping() == 0 || units <= pool.size() + 1) {
      for (unsigned i = 0; i < helpers; ++i) pool.Post([state] { RunBlocks(*state); });
    } else {
      deferred = DeferredHelpers{&pool, helpers, std::chrono::steady_clock::now() + kFanOutDelay, state};
    }
    if (publish) publish(state);
  }
  const auto start = std::chrono::steady_clock::now();
  const uint32_t ran = RunBlocks(*state, &deferred);
  if (ran > 0) {
    const auto spent = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
    g_block_pace.Record(kernel, std::max<uint64_t>(1, static_cast<uint64_t>(spent.count()) / ran));
  }
  WaitAllFinished(*state);
  if (units > 1 && !inline_only && publish) publish(nullptr);
  if (!state->print.empty()) EmitLaunchPrint(request.print_out, state->print.Collect());
  if (!state->failed.load(std::memory_order_acquire)) return Status::Ok();
  std::lock_guard<std::mutex> lock(state->mutex);
  return Status(
      ACL_ERROR_RT_AICORE_EXCEPTION,
      "kernel " + request.kernel->name + " " + BlockName(state->layout, state->failed_block) + ": " + state->failure);
}

}  // namespace asc_twin::rt
