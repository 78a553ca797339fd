// Runs the blocks of one kernel launch: the calling thread runs blocks itself and pool
// workers join in; a trap in any block fails the launch with ONE line naming kernel, block and
// cause (ACL_ERROR_RT_AICORE_EXCEPTION).
#ifndef TWIN_RUNTIME_INTERNAL_LAUNCH_H_
#define TWIN_RUNTIME_INTERNAL_LAUNCH_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt {

constexpr uint32_t kMaxBlocks = 65535;

struct LaunchRequest {
  std::shared_ptr<const Kernel> kernel;
  std::vector<uint64_t> args;  // packed 8-byte slots (copied from the caller)
  size_t args_size = 0;        // bytes the caller passed
  uint32_t blocks = 0;
  const SocSpec *soc = nullptr;
  const MemoryTable *memory = nullptr;
};

// Validates a launch before it is queued: block count, argument size. Errors:
// ACL_ERROR_INVALID_PARAM with one line naming the kernel.
Status ValidateLaunch(const Kernel &kernel, uint32_t blocks, const void *args, size_t args_size);

// Builds a request (copies args). Call ValidateLaunch first.
LaunchRequest MakeLaunch(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                         const SocSpec &soc, const MemoryTable &memory);

// Runs every block; returns when all finished.
Status RunLaunch(const LaunchRequest &request, WorkerPool &pool);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_LAUNCH_H_
