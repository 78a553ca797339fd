// adv_api/matmul/matmul_config.h: the Matmul high-level API's kernel-side enums and MatmulConfig
// (CANN's names, values and field order), which the Matmul template takes as MM_CFG.
#ifndef ASC_TWIN_ADV_API_MATMUL_MATMUL_CONFIG_H_
#define ASC_TWIN_ADV_API_MATMUL_MATMUL_CONFIG_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

enum class CubeFormat {
  ND = 0,  // row-major
  NZ,      // fractals column-major between blocks, row-major inside
  ZN,
  ZZ,
  NN,
  ND_ALIGN,  // ND with N padded to 32 bytes (output)
  SCALAR,
  VECTOR,  // a 1-row A (GEMV)
  ROW_MAJOR = ND,
  COLUMN_MAJOR = 8,  // DN
};

enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };

#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif

enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };

enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

enum class DecompressionMode {
  DECOMP_NONE = 0b0000,
  DECOMP_2bitTo8bit = 0b0001,
  DECOMP_3bitTo8bit = 0b0010,
  DECOMP_4bitTo8bit = 0b0011,
  DECOMP_16bitTo64bit = 0b100,
  DECOMP_1bitTo8bit = 0b0101,
  DECOMP_1bitTo4bit = 0b0110,
  DECOMP_2bitTo4bit = 0b0111,
  DECOMP_3bitTo4bit = 0b1000,
};

struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
};

struct MatmulQuantParams {
  bool isPerTensor;
  bool hasAntiQuantOffset;
};

struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};

struct MatmulFuncParams {
  bool intrinsicsCheck;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

struct MatmulBiasParams {
  bool enableSetBias = true;
};

struct MatrixOffset {
  int32_t offset;
  int32_t row;
  int32_t col;
  int32_t height;
  int32_t width;
};

#endif  // ASC_TWIN_ADV_API_MATMUL_MATMUL_CONFIG_H_
