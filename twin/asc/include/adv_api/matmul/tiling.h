// adv_api/matmul/tiling.h: the MatmulConfig presets (GetNormalConfig, GetMDLConfig, ...,
// CFG_NORM, CFG_MDL, MM_CFG_BB, CFG_IBSHARE_NORM) and GetMMConfig, with CANN's parameters and
// defaults. On the twin every preset computes the same numbers; they select no different code
// (see the README's "What differs from CANN").
#ifndef ASC_TWIN_ADV_API_MATMUL_TILING_H_
#define ASC_TWIN_ADV_API_MATMUL_TILING_H_

#include "adv_api/matmul/matmul_config.h"
#include "kernel_macros.h"

__aicore__ constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                  const bool isVecND2NZ = false,
                                                  const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                  const bool isMsgReuse = true,
                                                  const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                                  const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                                  const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                                  const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c{};
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.enUnitFlag = enUnitFlag;
  c.batchMode = bmmMode;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = true;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

__aicore__ constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                               const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                               bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                               const bool enUnitFlag = false, const bool isMsgReuse = true,
                                               const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                               const bool enableMixDualMaster = false,
                                               const bool enableKdimReorderLoad = false,
                                               const bool enableL1BankConflictOptimise = false) {
  MatmulConfig c{};
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.doMTE2Preload = doMTE2Preload;
  c.enUnitFlag = enUnitFlag;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.batchMode = BatchMode::BATCH_LESS_THAN_L1;
  c.enableReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
  return c;
}

__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                      const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                                      bool isPerTensor = false, bool hasAntiQuantOffset = false) {
  MatmulConfig c = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ, isPerTensor, hasAntiQuantOffset);
  c.doMultiDataLoad = false;
  c.doSpecialMDL = true;
  return c;
}

__aicore__ constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                                 const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                 const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c{};
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  c.enableUBReuse = true;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  return c;
}

__aicore__ constexpr MatmulConfig GetSpecialBasicConfig(const uint32_t basicM, const uint32_t basicN,
                                                        const uint32_t basicK, const uint32_t singleCoreM,
                                                        const uint32_t singleCoreN, const uint32_t singleCoreK,
                                                        const uint32_t stepM, const uint32_t stepN,
                                                        const bool intrinsicsLimit = false,
                                                        const bool batchLoop = false,
                                                        const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c = GetBasicConfig(basicM, basicN, basicK, intrinsicsLimit, batchLoop, bmmMode);
  c.doBasicBlock = false;
  c.doSpecialBasicBlock = true;
  c.singleCoreM = singleCoreM;
  c.singleCoreN = singleCoreN;
  c.singleCoreK = singleCoreK;
  c.stepM = stepM;
  c.stepN = stepN;
  c.baseMN = basicM * basicN;
  c.singleCoreMN = singleCoreM * singleCoreN;
  return c;
}

__aicore__ constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                       const bool isVecND2NZ = false,
                                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                       const bool isDoubleCache = false, const bool enUnitFlag = true) {
  MatmulConfig c{};
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.enUnitFlag = enUnitFlag;
  c.doIBShareNorm = true;
  c.batchMode = bmmMode;
  c.enableUBReuse = true;
  c.scheduleType = ScheduleType::INNER_PRODUCT;
  c.enableDoubleCache = isDoubleCache;
  return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

// GetMMConfig's parameters, applied in the order given.
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig&) {}
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulShapeParams& p, Rest&&... rest);
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulQuantParams& p, Rest&&... rest);
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulBatchParams& p, Rest&&... rest);
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulFuncParams& p, Rest&&... rest);
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulBiasParams& p, Rest&&... rest);

template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulShapeParams& p, Rest&&... rest) {
  c.singleCoreM = p.singleCoreM;
  c.singleCoreN = p.singleCoreN;
  c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM;
  c.basicN = p.basicN;
  c.basicK = p.basicK;
  GetMMConfigImpl(c, rest...);
}
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulQuantParams& p, Rest&&... rest) {
  c.isPerTensor = p.isPerTensor;
  c.hasAntiQuantOffset = p.hasAntiQuantOffset;
  GetMMConfigImpl(c, rest...);
}
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulBatchParams& p, Rest&&... rest) {
  c.isNBatch = p.isNBatch;
  c.batchMode = p.batchMode;
  c.isBiasBatch = p.isBiasBatch;
  c.bmmOutMode = p.bmmOutMode;
  GetMMConfigImpl(c, rest...);
}
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulFuncParams& p, Rest&&... rest) {
  c.intrinsicsCheck = p.intrinsicsCheck;
  c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache;
  c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload;
  c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType;
  c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse;
  c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared;
  c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
  c.enableRelu = p.enableRelu;
  c.decompMode = p.decompMode;
  GetMMConfigImpl(c, rest...);
}
template <typename... Rest>
__aicore__ constexpr void GetMMConfigImpl(MatmulConfig& c, const MatmulBiasParams& p, Rest&&... rest) {
  c.enableSetBias = p.enableSetBias;
  GetMMConfigImpl(c, rest...);
}

template <MatmulConfigMode configMode, typename... ArgTypes>
__aicore__ inline constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig c = CFG_NORM;
  if constexpr (configMode == MatmulConfigMode::CONFIG_MDL) {
    c = CFG_MDL;
  } else if constexpr (configMode == MatmulConfigMode::CONFIG_SPECIALMDL) {
    c = GetSpecialMDLConfig();
  } else if constexpr (configMode == MatmulConfigMode::CONFIG_IBSHARE) {
    c = CFG_IBSHARE_NORM;
  }
  GetMMConfigImpl(c, args...);
  return c;
}

__aicore__ constexpr MatmulConfig ToMatmulConfig(const MatmulConfig& c) { return c; }

#endif  // ASC_TWIN_ADV_API_MATMUL_TILING_H_
