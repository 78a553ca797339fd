// Runs the blocks of one kernel launch: the calling thread runs blocks itself and pool
// workers join in; a trap in any block fails the launch with ONE line naming kernel, block and
// cause (ACL_ERROR_RT_AICORE_EXCEPTION).
#ifndef TWIN_RUNTIME_INTERNAL_LAUNCH_H_
#define TWIN_RUNTIME_INTERNAL_LAUNCH_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt {

constexpr uint32_t kMaxBlocks = 65535;
constexpr size_t kMaxArgsSize = 64 * 1024;  // the device process's launch slot (device/protocol.h)

struct LaunchRequest {
  std::shared_ptr<const Kernel> kernel;
  std::vector<uint64_t> args;  // packed 8-byte slots (copied from the caller)
  size_t args_size = 0;        // bytes the caller passed
  uint32_t blocks = 0;
  const SocSpec *soc = nullptr;
  const MemoryTable *memory = nullptr;
  uint32_t launch_slot = 0;  // device process: the control block's launch slot it came through
  // The blocks' printf text (block order) is appended here when the launch ends; null: written
  // to stdout then (launch_print.h).
  std::string *print_out = nullptr;
};

// Validates a launch before it is queued: block count, argument size. Errors:
// ACL_ERROR_INVALID_PARAM with one line naming the kernel.
Status ValidateLaunch(const Kernel &kernel, uint32_t blocks, const void *args, size_t args_size);

// Builds a request (copies args). Call ValidateLaunch first.
LaunchRequest MakeLaunch(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                         const SocSpec &soc, const MemoryTable &memory);
// The same into an existing request, reusing its argument buffer (a dispatcher's per-launch
// allocation otherwise).
void FillLaunch(LaunchRequest *request, std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args,
                size_t args_size, const SocSpec &soc, const MemoryTable &memory);

// A launch in flight (opaque outside launch.cc).
struct LaunchState;
// Told the state of a multi-block launch once its blocks may be claimed, and nullptr once they
// all finished; lets a thread that waits for the launch help run it (HelpLaunch).
using LaunchPublisher = std::function<void(const std::shared_ptr<LaunchState> &)>;

// Host: runs the launch in the kernel's device process (device_process.h) and returns when all
// blocks finished or the launch failed; `pool` and `publish` are unused there.
// Device process: RunLaunchInProcess runs every block on this thread and pool workers; returns
// when all finished. Without an
// explicit `publish`, the launch is published to the ScopedLaunchPublisher active on this
// thread, if any (set by a stream while it drains, so tasks such as model steps get helpers).
Status RunLaunch(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &publish = {});
Status RunLaunchInProcess(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &publish = {});

// Device process: called on the running thread with the block index before each block and
// with UINT32_MAX after it (fault attribution); nullptr: none.
using BlockMarkFn = void (*)(const LaunchRequest &request, uint32_t block);
extern BlockMarkFn g_block_mark;

// Makes `publish` this thread's default publisher for RunLaunch while alive (nests).
class ScopedLaunchPublisher {
 public:
  explicit ScopedLaunchPublisher(const LaunchPublisher *publish);
  ~ScopedLaunchPublisher();
  ScopedLaunchPublisher(const ScopedLaunchPublisher &) = delete;
  ScopedLaunchPublisher &operator=(const ScopedLaunchPublisher &) = delete;

 private:
  const LaunchPublisher *saved_;
};

// Launches this process ran on the launching thread alone (the small-launch path: too little
// work, at the kernel's measured pace, for a helper to pay; launch.cc). For benchmarks and tests.
uint64_t InlineLaunchCount();

// Runs blocks of `state` that no thread has claimed yet on the calling thread; returns when
// none is left (others may still be running theirs). Safe at any time, also after the end.
void HelpLaunch(LaunchState &state);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_LAUNCH_H_
