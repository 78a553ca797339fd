// tiling/matmul/matmul_tiling_base.h: namespace matmul_tiling, the host half of the Matmul
// high-level API: CANN's enums (values as CANN's) and MatmulApiTilingBase, the setters every
// tiling class shares. The split itself is computed in libtiling_api.a (twin/tiling/src/matmul_*).
#ifndef ASC_TWIN_TILING_MATMUL_MATMUL_TILING_BASE_H_
#define ASC_TWIN_TILING_MATMUL_MATMUL_TILING_BASE_H_

#include <cstdint>
#include <iostream>  // as CANN's: host code around GetTiling prints with std::cout
#include <map>
#include <string>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/matmul/matmul_tiling_fields.h"
#include "tiling/matmul/matmul_tilingdata.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;
constexpr int32_t BITS_PER_BYTE = 8;

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_BFLOAT16 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E4M3FN = 35,
  DT_FLOAT8_E5M2 = 36,
  DT_FLOAT4_E2M1 = 37,
  DT_FLOAT8_E8M0 = 38,
  DT_FLOAT4_E1M2 = 39,
  DT_MAX = 40,
};

enum class TPosition : int32_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };

enum class CubeFormat : int32_t {
  ND = 0,
  NZ,
  ZN,
  ZZ,
  NN,
  ND_ALIGN,
  SCALAR,
  VECTOR,
  ROW_MAJOR = ND,
  COLUMN_MAJOR = 8,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};

struct MatTilingType {
  TPosition pos = TPosition::GM;
  CubeFormat type = CubeFormat::ND;
  DataType dataType = DataType::DT_FLOAT;
  bool isTrans = false;
  bool isDB = false;
  bool hasSetScaleType = false;
  TPosition scalePos = TPosition::GM;
  CubeFormat scaleType = CubeFormat::ND;
  bool isScaleTrans = false;
};

struct BufferPool {
  int32_t l1Size;
  int32_t l0CSize;
  int32_t ubSize;
  int32_t l0ASize;
  int32_t l0BSize;
  int32_t btSize;
  int32_t l1AlignSize;
  int32_t l0CAlignSize;
  int32_t l0AAlignSize;
  int32_t l0BAlignSize;
  int32_t ubAlignSize;
};

struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
  int32_t mmConfigType;  // 0: Norm, 1: MDL
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

class MatmulApiTilingBase {
 public:
  // Without a platform: the sizes of the twin's default SoC (PlatformAscendCManager::GetInstance()).
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase();

  // Setters return 0, or -1 (with one error line in the log) for a value CANN rejects.
  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false);
  int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false);
  int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetDequantType(DequantType dequantType) {
    deqType = dequantType;
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn);
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k);
  int32_t SetBatchNum(int32_t batch);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false);
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1);
  // -1 keeps the platform's size of that memory; a size above the platform's is rejected.
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  int32_t SetMadType(MatrixMadType madType);
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                        int32_t minBaseN = -1, int32_t minBaseK = -1);
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true);
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false);
  void SetMatmulConfigParams(const MatmulConfigParams& configParams);
  int32_t SetSparse(bool isSparseIn = false);
  int32_t GetBaseM() const { return baseM; }
  int32_t GetBaseN() const { return baseN; }
  int32_t GetBaseK() const { return baseK; }
  // 0 (or the tiling's size class) on success; -1 when no split fits the SoC (one log line why).
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;
  // The host class's form: the same tiling copied into optiling::TCubeTiling. Inline (a template
  // only so that it compiles where the class is declared, not defined), so libtiling_api.a needs
  // no libregister.so: the class's code comes from the caller's link, as in CANN.
  template <typename HostTiling, typename = std::enable_if_t<std::is_same<HostTiling, optiling::TCubeTiling>::value>>
  int64_t GetTiling(HostTiling& tiling) {
    AscendC::tiling::TCubeTiling result;
    const int64_t ret = GetTiling(result);
    if (ret == -1) return -1;
#define ASC_TWIN_COPY_TO_HOST(f) tiling.set_##f(result.f);
    ASC_TWIN_TCUBE_TILING_FIELDS(ASC_TWIN_COPY_TO_HOST)
#undef ASC_TWIN_COPY_TO_HOST
    return ret;
  }

 public:
  // What the setters recorded (CANN keeps these public too). The result is held as the kernel
  // struct (CANN: an optiling::TCubeTiling), so the library itself needs no libregister.so.
  AscendC::tiling::TCubeTiling tiling_;
  MatTilingType aType_;
  MatTilingType bType_;
  MatTilingType cType_;
  MatTilingType biasType_;
  bool isBias = false;
  int32_t blockDim = 0;
  int32_t orgM = 0;
  int32_t orgN = 0;
  int32_t orgKa = 0;
  int32_t orgKb = 0;
  int32_t aLayoutInfoB = 0, aLayoutInfoS = 0, aLayoutInfoN = 0, aLayoutInfoG = 0, aLayoutInfoD = 0;
  int32_t bLayoutInfoB = 0, bLayoutInfoS = 0, bLayoutInfoN = 0, bLayoutInfoG = 0, bLayoutInfoD = 0;
  int32_t cLayoutInfoB = 0, cLayoutInfoS1 = 0, cLayoutInfoN = 0, cLayoutInfoG = 0, cLayoutInfoS2 = 0;
  int32_t batchNum = 0;
  int32_t singleM = 0;  // SetShape: the problem this tiling splits
  int32_t singleN = 0;
  int32_t singleK = 0;
  int32_t singleCoreM = 0;  // SetSingleShape (multi-core): one core's part, -1/0 = computed
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;  // SetFixSplit, then the result
  int32_t baseN = 0;
  int32_t baseK = 0;
  int32_t batchM = 0;
  int32_t batchN = 0;
  int32_t singleBatchM = 0;
  int32_t singleBatchN = 0;
  struct MnmAdjust {
    int32_t maxBaseM, maxBaseN, maxBaseK, minBaseM, minBaseN, minBaseK;
  } adjust_ = {-1, -1, -1, -1, -1, -1};
  BufferPool oriBufferPool_ = {};  // the platform's sizes
  BufferPool bufferPool_ = {};     // what SetBufferSpace allows
  MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
  MatrixMadType madType_ = MatrixMadType::NORMAL;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool isSparse_ = false;
  DequantType deqType = DequantType::SCALAR;
  bool enableSplitK_ = false;
  platform_ascendc::SocVersion socVersion = platform_ascendc::SocVersion::ASCEND910B;
  int32_t mmConfigType = 1;
  bool enableL1CacheUB = false;
  bool enVecND2NZ = false;
  int32_t maxSingleM = 0, maxSingleN = 0, maxSingleK = 0, minSingleM = 0, minSingleN = 0, minSingleK = 0;
  int32_t alignSingleM = 1, alignSingleN = 1, alignSingleK = 1;
  int32_t coreNum_ = 1;  // the platform's AIC count (the most SetDim may ask for)

 protected:
  virtual int64_t Compute() = 0;
  // Fills tiling_ for a split of `cores` cores, each singleCoreM x singleCoreN x singleCoreK.
  int64_t PlanOneCore(int32_t usedCores, int32_t coreM, int32_t coreN, int32_t coreK);
  // The checks every GetTiling makes first (types, shapes, org shapes); false after logging why.
  bool CheckSetParam();
  // Copies tiling_ into the kernel struct field by field.
  void SetFinalTiling(AscendC::tiling::TCubeTiling& tiling);

 private:
  void InitBuffers(uint64_t l1, uint64_t l0a, uint64_t l0b, uint64_t l0c, uint64_t ub, uint64_t bt);
  void InitFromPlatform(const platform_ascendc::PlatformAscendC& ascendcPlatform);
};

}  // namespace matmul_tiling

#endif  // ASC_TWIN_TILING_MATMUL_MATMUL_TILING_BASE_H_
