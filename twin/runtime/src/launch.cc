#include "twin/runtime/internal/launch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/internal/spin_wait.h"

namespace asc_twin::rt {
namespace {

constexpr size_t kErrCapacity = 512;
constexpr auto kJoinSpin = std::chrono::microseconds(100);
// Lazy fan-out: when the pool's workers are asleep, the launching thread runs blocks alone for
// this long before it wakes them. A launch done by then finishes without paying a wake-up
// (20-60 us on a VM, README "Launch latency"); a longer one loses at most this much of the
// helpers' share, and the woken helpers could not have started sooner than their wake-up.
constexpr auto kFanOutDelay = std::chrono::microseconds(20);

// This thread's Unified Buffer: 4 KiB aligned, sized to the SoC's ub_size, reused by every
// block the thread runs.
class UbArena {
 public:
  ~UbArena() { std::free(base_); }
  uint8_t *Get(uint64_t size) {
    if (size != size_) {
      std::free(base_);
      const uint64_t rounded = (size + 4095) / 4096 * 4096;
      base_ = static_cast<uint8_t *>(std::aligned_alloc(4096, rounded));
      size_ = base_ != nullptr ? size : 0;
    }
    return base_;
  }

 private:
  uint8_t *base_ = nullptr;
  uint64_t size_ = 0;
};

thread_local UbArena t_ub_arena;

// The publisher RunLaunch uses when given none (ScopedLaunchPublisher).
thread_local const LaunchPublisher *t_publisher = nullptr;

}  // namespace

// One launch in flight. The counters every block thread writes sit on their own cache lines so
// that claiming does not slow down the flag every block reads.
struct LaunchState {
  const LaunchRequest *request = nullptr;  // valid only while a block is unclaimed or running
  uint32_t blocks = 0;
  uint32_t threads = 1;  // threads expected to claim blocks (sizes the chunks)
  alignas(64) std::atomic<uint32_t> next_block{0};
  alignas(64) std::atomic<uint32_t> finished{0};
  alignas(64) std::atomic<bool> failed{false};
  std::mutex mutex;  // guards the fields below
  uint32_t failed_block = UINT32_MAX;
  std::string failure;
  bool waiter_sleeping = false;
  std::condition_variable all_done;
};

namespace {

std::string OneLine(const char *text) {
  std::string line(text);
  for (char &c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line.empty() ? std::string("trap (the kernel gave no cause)") : line;
}

void RecordFailure(LaunchState &state, uint32_t block, std::string cause) {
  std::lock_guard<std::mutex> lock(state.mutex);
  if (block < state.failed_block) {  // report the lowest failing block that ran
    state.failed_block = block;
    state.failure = std::move(cause);
  }
  state.failed.store(true, std::memory_order_release);
}

// The env of this thread's blocks of one launch: filled once (only block_idx changes per
// block), so the kernel does not read fields that were stored a moment before.
void FillEnv(const LaunchRequest &request, uint8_t *ub, AscTwinBlockEnv *env) {
  *env = AscTwinBlockEnv{};
  env->abi_version = ASC_TWIN_ABI_VERSION;
  env->block_num = request.blocks;
  env->npu_arch = request.soc->npu_arch;
  env->flags = ASC_TWIN_ENV_HOST_FENCES_STORES;  // RunBlocks fences each run (FenceBlockStores)
  env->ub_base = ub;
  env->ub_size = request.soc->ub_size;
  env->gm_check = &MemoryTable::GmCheck;
  env->gm_ctx = request.memory;
  env->soc_version = request.soc->soc_version;
  env->kernel_name = request.kernel->name.c_str();
}

void RunOneBlock(LaunchState &state, AscTwinBlockEnv &env, uint32_t block) {
  const LaunchRequest &request = *state.request;
  if (env.ub_base == nullptr) {
    RecordFailure(state, block, "cannot allocate the " + std::to_string(request.soc->ub_size) + "-byte UB arena");
    return;
  }
  env.block_idx = block;
  if (g_block_mark != nullptr) g_block_mark(block);
  char err[kErrCapacity];
  err[0] = '\0';
  int rc = 0;
  try {
    rc = request.kernel->entry(&env, request.args.data(), request.args_size, err, sizeof(err));
  } catch (...) {  // the ABI forbids it; do not let a buggy binary take the process down
    std::snprintf(err, sizeof(err), "C++ exception escaped the kernel entry");
    rc = -1;
  }
  if (g_block_mark != nullptr) g_block_mark(UINT32_MAX);
  if (rc != 0) {
    err[sizeof(err) - 1] = '\0';
    RecordFailure(state, block, OneLine(err));
  }
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
void RunBlocks(LaunchState &state, DeferredHelpers *deferred = nullptr);

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
// The launching thread passes `deferred` and posts the helpers once they are due.
void RunBlocks(LaunchState &state, DeferredHelpers *deferred) {
  const uint32_t blocks = state.blocks;  // a late helper must not touch the finished request
  uint32_t first = 0, count = 0;
  AscTwinBlockEnv env;
  bool env_filled = false;  // the request may be touched only once a block was claimed
  while (ClaimBlocks(state, &first, &count)) {
    if (!env_filled) {
      FillEnv(*state.request, t_ub_arena.Get(state.request->soc->ub_size), &env);
      env_filled = true;
    }
    for (uint32_t block = first; block < first + count; ++block) {
      if (state.failed.load(std::memory_order_relaxed)) break;
      RunOneBlock(state, env, block);
      if (deferred != nullptr && deferred->count > 0) deferred->PostIfDue();
    }
    FenceBlockStores();  // every path that completes blocks, trapped ones included, passes here
    if (state.finished.fetch_add(count, std::memory_order_acq_rel) + count == blocks) {
      std::lock_guard<std::mutex> lock(state.mutex);
      if (state.waiter_sleeping) state.all_done.notify_all();
    }
  }
}

void WaitAllFinished(LaunchState &state) {
  const uint32_t blocks = state.blocks;
  if (SpinUntil([&] { return state.finished.load(std::memory_order_acquire) == blocks; }, kJoinSpin)) return;
  std::unique_lock<std::mutex> lock(state.mutex);
  state.waiter_sleeping = true;
  state.all_done.wait(lock, [&] { return state.finished.load(std::memory_order_acquire) == blocks; });
  state.waiter_sleeping = false;
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
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name + ": argsSize=" + std::to_string(args_size) +
                                               " exceeds the " + std::to_string(kMaxArgsSize) + "-byte argument limit");
  }
  if (args_size < kernel.args_size) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name + ": argsSize=" +
                                               std::to_string(args_size) + " but the kernel reads " +
                                               std::to_string(kernel.args_size) + " bytes (" +
                                               std::to_string(kernel.params) + " parameters, 8-byte slots)");
  }
  return Status::Ok();
}

LaunchRequest MakeLaunch(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                         const SocSpec &soc, const MemoryTable &memory) {
  LaunchRequest request;
  request.kernel = std::move(kernel);
  request.args.resize((args_size + 7) / 8 + 1);  // +1: never hand out an empty (null) blob
  if (args_size > 0) std::memcpy(request.args.data(), args, args_size);
  request.args_size = args_size;
  request.blocks = blocks;
  request.soc = &soc;
  request.memory = &memory;
  return request;
}

void HelpLaunch(LaunchState &state) { RunBlocks(state); }

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
  state->blocks = request.blocks;
  // Pool workers, plus this thread (a worker itself, or a host thread draining its stream).
  state->threads = pool.size() + 1;
  DeferredHelpers deferred;
  if (request.blocks > 1) {
    const unsigned helpers = std::min<unsigned>(request.blocks - 1, pool.size());
    if (pool.sleeping() == 0) {  // polling workers join at once, at no wake-up cost
      for (unsigned i = 0; i < helpers; ++i) pool.Post([state] { RunBlocks(*state); });
    } else {
      deferred = DeferredHelpers{&pool, helpers, std::chrono::steady_clock::now() + kFanOutDelay, state};
    }
    if (publish) publish(state);
  }
  RunBlocks(*state, &deferred);
  WaitAllFinished(*state);
  if (request.blocks > 1 && publish) publish(nullptr);
  if (!state->failed.load(std::memory_order_acquire)) return Status::Ok();
  std::lock_guard<std::mutex> lock(state->mutex);
  return Status(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel " + request.kernel->name + " block " +
                                                   std::to_string(state->failed_block) + ": " + state->failure);
}

}  // namespace asc_twin::rt
