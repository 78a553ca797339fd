// aclrtLaunchKernelCfg: the launch attributes the twin honours, checked once per launch.
#ifndef TWIN_RUNTIME_SRC_LAUNCH_CONFIG_H_
#define TWIN_RUNTIME_SRC_LAUNCH_CONFIG_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

struct LaunchOptions {
  uint64_t dyn_ub_size = 0;  // ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE
};

// nullptr or no attributes: the defaults. Errors name `api` and the attribute.
StatusOr<LaunchOptions> ParseLaunchConfig(const char *api, const aclrtLaunchKernelCfg *cfg);

// The packed launch blob: `args` (args_size bytes), followed by the launch trailer
// (asc_twin/aicore_abi.h) when the options need one. *blob_size: the bytes to launch.
std::vector<uint64_t> PackLaunchArgs(const void *args, size_t args_size, const LaunchOptions &options,
                                     size_t *blob_size);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_SRC_LAUNCH_CONFIG_H_
