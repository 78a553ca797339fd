// matmul_tiling::MatmulApiTilingBase: the setters, the checks every GetTiling makes, and the
// tiling of one core's part (PlanOneCore, over matmul_tiling_plan.h).
#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include <string>

#include "matmul_dtype.h"
#include "matmul_tiling_log.h"
#include "matmul_tiling_plan.h"
#include "tiling/matmul/matmul_tiling_base.h"

namespace matmul_tiling {

using asc_twin_tiling::MatmulTilingError;

namespace {
// A2/A3 figures, used when no platform is readable (the default constructor).
constexpr uint64_t kDefaultL1 = 524288 - 256, kDefaultL0 = 65536, kDefaultL0C = 131072, kDefaultUb = 196608 - 256;
// The BiasTable (not in the SoC ini): the twin's 1 KiB, as the kernel side's core_buffers.h.
constexpr uint64_t kBiasTableBytes = 1024;
}  // namespace

void MatmulApiTilingBase::InitBuffers(uint64_t l1, uint64_t l0a, uint64_t l0b, uint64_t l0c, uint64_t ub, uint64_t bt) {
  BufferPool pool = {};
  pool.l1Size = static_cast<int32_t>(l1);
  pool.l0ASize = static_cast<int32_t>(l0a);
  pool.l0BSize = static_cast<int32_t>(l0b);
  pool.l0CSize = static_cast<int32_t>(l0c);
  pool.ubSize = static_cast<int32_t>(ub);
  pool.btSize = static_cast<int32_t>(bt);
  oriBufferPool_ = pool;
  bufferPool_ = pool;
}

MatmulApiTilingBase::MatmulApiTilingBase() {
  const platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  if (platform == nullptr) {
    InitBuffers(kDefaultL1, kDefaultL0, kDefaultL0, kDefaultL0C, kDefaultUb, kBiasTableBytes);
    coreNum_ = 24;
    return;
  }
  InitFromPlatform(*platform);
}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
  InitFromPlatform(ascendcPlatform);
}

void MatmulApiTilingBase::InitFromPlatform(const platform_ascendc::PlatformAscendC& ascendcPlatform) {
  using platform_ascendc::CoreMemType;
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0, bt = 0;
  ascendcPlatform.GetCoreMemSize(CoreMemType::L1, l1);
  ascendcPlatform.GetCoreMemSize(CoreMemType::L0_A, l0a);
  ascendcPlatform.GetCoreMemSize(CoreMemType::L0_B, l0b);
  ascendcPlatform.GetCoreMemSize(CoreMemType::L0_C, l0c);
  ascendcPlatform.GetCoreMemSize(CoreMemType::UB, ub);
  ascendcPlatform.GetCoreMemSize(CoreMemType::BT, bt);
  InitBuffers(l1, l0a, l0b, l0c, ub, bt != 0 ? bt : kBiasTableBytes);
  socVersion = ascendcPlatform.GetSocVersion();
  const uint32_t aic = ascendcPlatform.GetCoreNumAic();
  coreNum_ = aic != 0 ? static_cast<int32_t>(aic) : static_cast<int32_t>(ascendcPlatform.GetCoreNum());
}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  InitBuffers(platform.l1Size, platform.l0ASize, platform.l0BSize, platform.l0CSize, platform.ubSize, kBiasTableBytes);
  socVersion = platform.socVersion;
  coreNum_ = 1 << 16;  // PlatformInfo carries no core count: SetDim alone limits the split
}

MatmulApiTilingBase::~MatmulApiTilingBase() = default;

namespace {
int32_t SetType(MatTilingType& slot, const char* which, TPosition pos, CubeFormat type, DataType dataType,
                bool isTrans) {
  if (asc_twin_tiling::MatmulElementBytes(dataType) == 0) {
    return MatmulTilingError("Set%sType: DataType %d is not one Matmul takes", which, static_cast<int>(dataType));
  }
  if (pos == TPosition::MAX) return MatmulTilingError("Set%sType: TPosition::MAX is not a position", which);
  slot.pos = pos;
  slot.type = type;
  slot.dataType = dataType;
  slot.isTrans = isTrans;
  return 0;
}
}  // namespace

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  return SetType(aType_, "A", pos, type, dataType, isTrans);
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans) {
  return SetType(bType_, "B", pos, type, dataType, isTrans);
}
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  return SetType(cType_, "C", pos, type, dataType, false);
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  return SetType(biasType_, "Bias", pos, type, dataType, false);
}
int32_t MatmulApiTilingBase::SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans) {
  aType_.hasSetScaleType = true;
  aType_.scalePos = scalePos;
  aType_.scaleType = scaleType;
  aType_.isScaleTrans = isScaleTrans;
  return 0;
}
int32_t MatmulApiTilingBase::SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans) {
  bType_.hasSetScaleType = true;
  bType_.scalePos = scalePos;
  bType_.scaleType = scaleType;
  bType_.isScaleTrans = isScaleTrans;
  return 0;
}

int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  if (m <= 0 || n <= 0 || k <= 0) {
    return MatmulTilingError("SetShape(%d, %d, %d): every dim must be positive", m, n, k);
  }
  singleM = m;
  singleN = n;
  singleK = k;
  return 0;
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
  if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) {
    return MatmulTilingError("SetOrgShape(%d, %d, %d, %d): every dim must be positive", orgMIn, orgNIn, orgKaIn,
                             orgKbIn);
  }
  orgM = orgMIn;
  orgN = orgNIn;
  orgKa = orgKaIn;
  orgKb = orgKbIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  aLayoutInfoB = b, aLayoutInfoS = s, aLayoutInfoN = n, aLayoutInfoG = g, aLayoutInfoD = d;
  return 0;
}
int32_t MatmulApiTilingBase::SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  bLayoutInfoB = b, bLayoutInfoS = s, bLayoutInfoN = n, bLayoutInfoG = g, bLayoutInfoD = d;
  return 0;
}
int32_t MatmulApiTilingBase::SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
  cLayoutInfoB = b, cLayoutInfoS1 = s, cLayoutInfoN = n, cLayoutInfoG = g, cLayoutInfoS2 = d;
  return 0;
}

int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
  if (batchA <= 0 || batchB <= 0) {
    return MatmulTilingError("SetBatchInfoForNormal: batchA %d and batchB %d must be positive", batchA, batchB);
  }
  if (SetShape(m, n, k) != 0 || SetOrgShape(m, n, k) != 0) return -1;
  batchM = batchA;
  batchN = batchB;
  if (batchNum == 0) batchNum = batchA > batchB ? batchA : batchB;
  return 0;
}

int32_t MatmulApiTilingBase::SetBatchNum(int32_t batch) {
  if (batch <= 0) return MatmulTilingError("SetBatchNum(%d): the batch count must be positive", batch);
  batchNum = batch;
  return 0;
}

int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) {
  isBias = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) { return EnableBias(isBiasIn); }

int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  baseM = baseMIn;
  baseN = baseNIn;
  baseK = baseKIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize, int32_t btSize) {
  struct Entry {
    const char* name;
    int32_t asked;
    int32_t platform;
    int32_t* slot;
  };
  Entry entries[] = {{"L1", l1Size, oriBufferPool_.l1Size, &bufferPool_.l1Size},
                     {"L0C", l0CSize, oriBufferPool_.l0CSize, &bufferPool_.l0CSize},
                     {"UB", ubSize, oriBufferPool_.ubSize, &bufferPool_.ubSize},
                     {"BT", btSize, oriBufferPool_.btSize, &bufferPool_.btSize}};
  for (const Entry& e : entries) {
    if (e.asked > e.platform) {
      return MatmulTilingError("SetBufferSpace: %s size %d is larger than the SoC's %d bytes", e.name, e.asked,
                               e.platform);
    }
  }
  for (const Entry& e : entries) *e.slot = e.asked < 0 ? e.platform : e.asked;
  return 0;
}

int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  madType_ = madType;
  return 0;
}
int32_t MatmulApiTilingBase::SetSplitRange(int32_t maxBaseM, int32_t maxBaseN, int32_t maxBaseK, int32_t minBaseM,
                                           int32_t minBaseN, int32_t minBaseK) {
  adjust_ = {maxBaseM, maxBaseN, maxBaseK, minBaseM, minBaseN, minBaseK};
  return 0;
}
int32_t MatmulApiTilingBase::SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool, bool) {
  aType_.isDB = a;
  bType_.isDB = b;
  cType_.isDB = c;
  biasType_.isDB = bias;
  return 0;
}
void MatmulApiTilingBase::SetMatmulConfigParams(int32_t mmConfigTypeIn, bool enableL1CacheUBIn,
                                                ScheduleType scheduleTypeIn, MatrixTraverse traverseIn,
                                                bool enVecND2NZIn) {
  mmConfigType = mmConfigTypeIn;
  enableL1CacheUB = enableL1CacheUBIn;
  scheduleType = scheduleTypeIn;
  if (traverseIn != MatrixTraverse::NOSET) traverse_ = traverseIn;
  enVecND2NZ = enVecND2NZIn;
}
void MatmulApiTilingBase::SetMatmulConfigParams(const MatmulConfigParams& p) {
  SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
}
int32_t MatmulApiTilingBase::SetSparse(bool isSparseIn) {
  isSparse_ = isSparseIn;
  return 0;
}

bool MatmulApiTilingBase::CheckSetParam() {
  const char* typeError =
      asc_twin_tiling::CheckMatmulTypes(aType_.dataType, bType_.dataType, cType_.dataType, isBias, biasType_.dataType);
  if (typeError != nullptr) {
    MatmulTilingError("GetTiling: %s (A %s, B %s, C %s)", typeError, asc_twin_tiling::MatmulTypeName(aType_.dataType),
                      asc_twin_tiling::MatmulTypeName(bType_.dataType),
                      asc_twin_tiling::MatmulTypeName(cType_.dataType));
    return false;
  }
  if (singleM <= 0 && orgM <= 0) {
    MatmulTilingError("GetTiling: no shape was set (call SetShape and SetOrgShape first)");
    return false;
  }
  // Either shape alone stands for both, as a user who sets one means.
  if (singleM <= 0) singleM = orgM, singleN = orgN, singleK = orgKa;
  if (orgM <= 0) orgM = singleM, orgN = singleN, orgKa = orgKb = singleK;
  if (singleM > orgM || singleN > orgN || singleK > orgKa || singleK > orgKb) {
    MatmulTilingError("GetTiling: the shape M=%d N=%d K=%d is larger than the org shape M=%d N=%d Ka=%d Kb=%d", singleM,
                      singleN, singleK, orgM, orgN, orgKa, orgKb);
    return false;
  }
  return true;
}

int64_t MatmulApiTilingBase::PlanOneCore(int32_t usedCores, int32_t coreM, int32_t coreN, int32_t coreK) {
  asc_twin_tiling::CubeBlockRequest request;
  request.m = coreM;
  request.n = coreN;
  request.k = coreK;
  request.aBytes = asc_twin_tiling::MatmulElementBytes(aType_.dataType);
  request.bBytes = asc_twin_tiling::MatmulElementBytes(bType_.dataType);
  request.biasBytes = asc_twin_tiling::MatmulElementBytes(biasType_.dataType);
  request.hasBias = isBias;
  request.fixBaseM = baseM;
  request.fixBaseN = baseN;
  request.fixBaseK = baseK;
  request.maxBaseM = adjust_.maxBaseM;
  request.maxBaseN = adjust_.maxBaseN;
  request.maxBaseK = adjust_.maxBaseK;
  request.l1 = static_cast<uint64_t>(bufferPool_.l1Size);
  request.l0a = static_cast<uint64_t>(bufferPool_.l0ASize);
  request.l0b = static_cast<uint64_t>(bufferPool_.l0BSize);
  request.l0c = static_cast<uint64_t>(bufferPool_.l0CSize);
  request.bt = static_cast<uint64_t>(bufferPool_.btSize);
  request.traverseN = traverse_ == MatrixTraverse::FIRSTN;
  asc_twin_tiling::CubeBlockPlan plan;
  std::string why;
  if (!asc_twin_tiling::PlanCubeBlocks(request, &plan, &why)) {
    return MatmulTilingError("GetTiling: no tiling fits for singleCore M=%d N=%d K=%d: %s", coreM, coreN, coreK,
                             why.c_str());
  }
  AscendC::tiling::TCubeTiling t;
  t.usedCoreNum = usedCores;
  t.M = orgM;
  t.N = orgN;
  t.Ka = orgKa;
  t.Kb = orgKb;
  t.singleCoreM = coreM;
  t.singleCoreN = coreN;
  t.singleCoreK = coreK;
  t.baseM = plan.baseM;
  t.baseN = plan.baseN;
  t.baseK = plan.baseK;
  t.depthA1 = plan.depthA1;
  t.depthB1 = plan.depthB1;
  t.stepM = plan.stepM;
  t.stepN = plan.stepN;
  t.stepKa = plan.stepKa;
  t.stepKb = plan.stepKb;
  t.isBias = isBias ? 1 : 0;
  t.iterateOrder = plan.iterateOrder;
  t.shareL1Size = plan.l1Bytes;
  t.shareL0CSize = plan.l0cBytes;
  t.batchM = batchM > 0 ? batchM : 1;
  t.batchN = batchN > 0 ? batchN : 1;
  t.singleBatchM = singleBatchM > 0 ? singleBatchM : 1;
  t.singleBatchN = singleBatchN > 0 ? singleBatchN : 1;
  t.dbL0A = plan.dbL0A;
  t.dbL0B = plan.dbL0B;
  t.dbL0C = plan.dbL0C;
  t.ALayoutInfoB = aLayoutInfoB;
  t.ALayoutInfoS = aLayoutInfoS;
  t.ALayoutInfoN = aLayoutInfoN;
  t.ALayoutInfoG = aLayoutInfoG;
  t.ALayoutInfoD = aLayoutInfoD;
  t.BLayoutInfoB = bLayoutInfoB;
  t.BLayoutInfoS = bLayoutInfoS;
  t.BLayoutInfoN = bLayoutInfoN;
  t.BLayoutInfoG = bLayoutInfoG;
  t.BLayoutInfoD = bLayoutInfoD;
  t.CLayoutInfoB = cLayoutInfoB;
  t.CLayoutInfoS1 = cLayoutInfoS1;
  t.CLayoutInfoN = cLayoutInfoN;
  t.CLayoutInfoG = cLayoutInfoG;
  t.CLayoutInfoS2 = cLayoutInfoS2;
  t.BatchNum = batchNum;
  tiling_ = t;
  return 0;
}

void MatmulApiTilingBase::SetFinalTiling(AscendC::tiling::TCubeTiling& tiling) { tiling = tiling_; }

}  // namespace matmul_tiling
