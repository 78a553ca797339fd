// Which cores a launch runs, from the kernel's type (KERNEL_TASK_TYPE_DEFAULT, __mix__,
// __cube__, __vector__) and its numBlocks N: AIV-only N AIV blocks, AIC-only N AIC blocks,
// MIX_AIC_1_1 N of each, MIX_AIC_1_2 N AIC and 2N AIV blocks (N core groups of one AIC and its
// AIVs). The launch runner numbers them as one range of "units": AIC blocks first, then AIVs.
#ifndef TWIN_RUNTIME_INTERNAL_CORE_LAYOUT_H_
#define TWIN_RUNTIME_INTERNAL_CORE_LAYOUT_H_

#include <cstdint>

namespace asc_twin::rt {

// AscTwinKernelInfo.kernel_type values (asc_twin/aicore_abi.h; CANN's KernelMetaType).
constexpr uint32_t kKernelTypeAivOnly = 0, kKernelTypeAicOnly = 1, kKernelTypeMixAiv10 = 2, kKernelTypeMixAic10 = 3,
                   kKernelTypeMixAic11 = 4, kKernelTypeMixAic12 = 5, kKernelTypeUnset = 0xFFFFFFFFu;
constexpr uint32_t kCoreAic = 1, kCoreAiv = 2;  // ASC_TWIN_CORE_*

inline bool KnownKernelType(uint32_t type) { return type <= kKernelTypeMixAic12 || type == kKernelTypeUnset; }

// CANN's name of a kernel type, for messages.
inline const char *KernelTypeName(uint32_t type) {
  switch (type) {
    case kKernelTypeAivOnly:
      return "KERNEL_TYPE_AIV_ONLY";
    case kKernelTypeAicOnly:
      return "KERNEL_TYPE_AIC_ONLY";
    case kKernelTypeMixAiv10:
      return "KERNEL_TYPE_MIX_AIV_1_0";
    case kKernelTypeMixAic10:
      return "KERNEL_TYPE_MIX_AIC_1_0";
    case kKernelTypeMixAic11:
      return "KERNEL_TYPE_MIX_AIC_1_1";
    case kKernelTypeMixAic12:
      return "KERNEL_TYPE_MIX_AIC_1_2";
    default:
      return "an undeclared kernel type (vector blocks)";
  }
}

struct CoreLayout {
  uint32_t kernel_type = kKernelTypeUnset;
  uint32_t blocks = 0;         // numBlocks: core groups
  uint32_t aic = 0;            // AIC blocks
  uint32_t aiv = 0;            // AIV blocks
  uint32_t aiv_per_group = 1;  // GetSubBlockNum() on an AIV, GetTaskRation()

  static CoreLayout For(uint32_t kernel_type, uint32_t blocks) {
    CoreLayout l;
    l.kernel_type = kernel_type;
    l.blocks = blocks;
    switch (kernel_type) {
      case kKernelTypeAicOnly:
      case kKernelTypeMixAic10:
        l.aic = blocks;
        break;
      case kKernelTypeMixAic11:
        l.aic = l.aiv = blocks;
        break;
      case kKernelTypeMixAic12:
        l.aic = blocks;
        l.aiv = 2 * blocks;
        l.aiv_per_group = 2;
        break;
      default:
        l.aiv = blocks;
        break;  // AIV only, MIX_AIV_1_0, unset
    }
    return l;
  }
  uint32_t units() const { return aic + aiv; }
  bool mixed() const { return aic != 0 && aiv != 0; }
  // An undeclared kernel's AIV blocks see every local memory (the twin's vector block of old).
  bool all_memories() const { return kernel_type == kKernelTypeUnset; }

  struct Unit {
    uint32_t core_type;
    uint32_t block_idx;  // GetBlockIdx(): AIC [0, N), AIV [0, N * aiv_per_group)
    uint32_t group;      // the core group (AI core) it belongs to
    uint32_t sub;        // GetSubBlockIdx()
  };
  Unit At(uint32_t unit) const {
    if (unit < aic) return Unit{kCoreAic, unit, unit, 0};
    const uint32_t v = unit - aic;
    return Unit{kCoreAiv, v, v / aiv_per_group, v % aiv_per_group};
  }
  // The unit of (core type, block index); no check.
  uint32_t UnitOf(uint32_t core_type, uint32_t block_idx) const {
    return core_type == kCoreAic ? block_idx : aic + block_idx;
  }
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_CORE_LAYOUT_H_
