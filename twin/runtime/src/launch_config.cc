// aclrtLaunchKernelCfg attributes: which ones change a launch on the twin, which are accepted
// without effect (there is no task scheduler to configure), which are refused.
#include "twin/runtime/src/launch_config.h"

#include <cstring>
#include <string>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/src/api_common.h"

namespace asc_twin::rt {

StatusOr<LaunchOptions> ParseLaunchConfig(const char *api, const aclrtLaunchKernelCfg *cfg) {
  LaunchOptions options;
  if (cfg == nullptr || cfg->numAttrs == 0) return options;
  if (cfg->attrs == nullptr) {
    return Status(ACL_ERROR_INVALID_PARAM,
                  std::string(api) + ": cfg->numAttrs is " + std::to_string(cfg->numAttrs) + " but cfg->attrs is null");
  }
  bool timeout_s = false, timeout_us = false;
  for (size_t i = 0; i < cfg->numAttrs; ++i) {
    const aclrtLaunchKernelAttr &attr = cfg->attrs[i];
    const int id = RawEnum(attr.id);
    const std::string where = std::string(api) + ": cfg->attrs[" + std::to_string(i) + "]";
    switch (id) {
      case ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE:
        options.dyn_ub_size = attr.value.dynUBufSize;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE: {
        const int engine = RawEnum(attr.value.engineType);
        if (engine != ACL_RT_ENGINE_TYPE_AIC && engine != ACL_RT_ENGINE_TYPE_AIV) {
          return Status(ACL_ERROR_INVALID_PARAM,
                        where + ": engine type " + std::to_string(engine) +
                            " is neither ACL_RT_ENGINE_TYPE_AIC (0) nor ACL_RT_ENGINE_TYPE_AIV (1)");
        }
        break;
      }
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET:
        if (attr.value.blockDimOffset != 0) {
          return Status(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                        where + ": a block index offset (ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = " +
                            std::to_string(attr.value.blockDimOffset) + ") is not supported by the twin");
        }
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT:
        timeout_s = true;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US:
        timeout_us = true;
        break;
      case ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE:
      case ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH:
      case ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP:
      case ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING:
        break;  // scheduling, prefetch, dump and profiling hints: nothing to configure on the CPU
      default:
        return Status(ACL_ERROR_INVALID_PARAM,
                      where + ": attribute id " + std::to_string(id) + " is not an aclrtLaunchKernelAttrId");
    }
  }
  if (timeout_s && timeout_us) {
    return Status(ACL_ERROR_INVALID_PARAM,
                  std::string(api) +
                      ": ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT and ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US "
                      "may not be given together");
  }
  return options;
}

std::vector<uint64_t> PackLaunchArgs(const void *args, size_t args_size, const LaunchOptions &options,
                                     size_t *blob_size) {
  const size_t trailer = options.dyn_ub_size != 0 ? sizeof(AscTwinLaunchTrailer) : 0;
  const size_t padded = (args_size + 7) / 8 * 8;  // the trailer starts on a slot boundary
  std::vector<uint64_t> blob((padded + trailer) / 8 + 1, 0);
  if (args_size > 0) std::memcpy(blob.data(), args, args_size);
  if (trailer != 0) {
    AscTwinLaunchTrailer t{};
    t.magic = ASC_TWIN_LAUNCH_TRAILER_MAGIC;
    t.dyn_ub_size = options.dyn_ub_size;
    std::memcpy(reinterpret_cast<uint8_t *>(blob.data()) + padded, &t, sizeof(t));
  }
  *blob_size = trailer != 0 ? padded + trailer : args_size;
  return blob;
}

}  // namespace asc_twin::rt
