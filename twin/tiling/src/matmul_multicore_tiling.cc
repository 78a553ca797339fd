// matmul_tiling::MultiCoreMatmulTiling and BatchMatmulTiling: how the problem is shared among
// cores (M x N, optionally K), then each core's part split as MatmulApiTiling splits one core's.
#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include <algorithm>

#include "matmul_dtype.h"
#include "matmul_tiling_log.h"
#include "matmul_tiling_plan.h"
#include "tiling/matmul/bmm_tiling.h"

namespace matmul_tiling {
namespace {

constexpr int32_t kFractal = 16;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t v, int64_t a) { return CeilDiv(v, a) * a; }

struct CoreSplit {
  int32_t coreM = 0, coreN = 0, coreK = 0;
  int32_t mDim = 0, nDim = 0, kDim = 1;
};

// Picks mDim x nDim <= dim minimising one core's work: its MACs plus what it loads (an element
// loaded weighs as 16 MACs, so square-ish parts win over thin ones of equal area). A split whose
// parts are all whole (M and N multiples of the part) is taken over a cheaper one with tails
// when it costs at most kWholeSlack times as much: kernels that never call SetTail (CANN's
// nbuffer33 sample) are right only on such splits, which CANN's tiling gives them. Ties go to
// the larger mDim (CANN cuts M first: M=N=512, K=128 on two cores gives singleCoreM 256).
constexpr double kWholeSlack = 1.5;

CoreSplit ChooseSplit(int32_t m, int32_t n, int32_t k, int32_t dim, int32_t alignM, int32_t alignN) {
  struct Candidate {
    double cost = -1;
    int64_t cm = 0, cn = 0;
  };
  Candidate any, whole;
  for (int32_t md = std::min<int64_t>(dim, CeilDiv(m, alignM)); md >= 1; --md) {
    for (int32_t nd = 1; md * nd <= dim && nd <= CeilDiv(n, alignN); ++nd) {
      const int64_t cm = std::min<int64_t>(AlignUp(CeilDiv(m, md), alignM), m);
      const int64_t cn = std::min<int64_t>(AlignUp(CeilDiv(n, nd), alignN), n);
      const double cost = static_cast<double>(cm) * cn * k + 16.0 * (cm + cn) * k;
      // md counts down and only a strictly lower cost replaces: a tie keeps the larger mDim
      if (any.cost < 0 || cost < any.cost) any = {cost, cm, cn};
      if (m % cm == 0 && n % cn == 0 && (whole.cost < 0 || cost < whole.cost)) whole = {cost, cm, cn};
    }
  }
  const Candidate& pick = (whole.cost >= 0 && whole.cost <= kWholeSlack * any.cost) ? whole : any;
  CoreSplit best;
  best.coreM = static_cast<int32_t>(pick.cm);
  best.coreN = static_cast<int32_t>(pick.cn);
  best.mDim = static_cast<int32_t>(CeilDiv(m, best.coreM));
  best.nDim = static_cast<int32_t>(CeilDiv(n, best.coreN));
  best.coreK = k;
  return best;
}

}  // namespace

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim <= 0) return asc_twin_tiling::MatmulTilingError("SetDim(%d): the core count must be positive", dim);
  blockDim = dim;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetShape(int32_t m, int32_t n, int32_t k) {
  return MatmulApiTilingBase::SetShape(m, n, k);
}

int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn, int32_t singleKIn) {
  if (singleMIn == 0 || singleNIn == 0 || singleKIn == 0 || singleMIn < -1 || singleNIn < -1 || singleKIn < -1) {
    return asc_twin_tiling::MatmulTilingError("SetSingleShape(%d, %d, %d): each dim is positive or -1", singleMIn,
                                              singleNIn, singleKIn);
  }
  singleCoreM = singleMIn;
  singleCoreN = singleNIn;
  singleCoreK = singleKIn;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
  alignSingleM = alignM > 0 ? alignM : 1;
  alignSingleN = alignN > 0 ? alignN : 1;
  alignSingleK = alignK > 0 ? alignK : 1;
  return 0;
}

int64_t MultiCoreMatmulTiling::Compute() {
  if (!CheckSetParam()) return -1;
  const int32_t dim = blockDim > 0 ? blockDim : 1;
  const int32_t alignM = alignSingleM > kFractal ? alignSingleM : kFractal;
  const int32_t alignN = alignSingleN > kFractal ? alignSingleN : kFractal;
  CoreSplit split = ChooseSplit(singleM, singleN, singleK, dim, alignM, alignN);
  // An operand at TSCM is staged whole in each core's L1 by the kernel (the Matmul reads it from
  // there), so its M (A) or N (B) and K are not split between cores.
  if (aType_.pos == TPosition::TSCM) {
    split.coreM = singleM;
    split.coreK = singleK;
  }
  if (bType_.pos == TPosition::TSCM) {
    split.coreN = singleN;
    split.coreK = singleK;
  }
  if (singleCoreM > 0) split.coreM = singleCoreM;
  if (singleCoreN > 0) split.coreN = singleCoreN;
  if (singleCoreK > 0) split.coreK = singleCoreK;
  if (split.coreM > singleM || split.coreN > singleN || split.coreK > singleK) {
    return asc_twin_tiling::MatmulTilingError(
        "GetTiling: SetSingleShape(%d, %d, %d) is larger than the shape M=%d N=%d K=%d", split.coreM, split.coreN,
        split.coreK, singleM, singleN, singleK);
  }
  split.mDim = static_cast<int32_t>(CeilDiv(singleM, split.coreM));
  split.nDim = static_cast<int32_t>(CeilDiv(singleN, split.coreN));
  if (enableSplitK_ && singleCoreK <= 0 && aType_.pos != TPosition::TSCM && bType_.pos != TPosition::TSCM) {
    // Idle cores share K: each takes a fractal-aligned slice (the kernel accumulates atomically).
    const int32_t spare = dim / (split.mDim * split.nDim);
    if (spare > 1) {
      const int32_t k0 = asc_twin_tiling::CubeK0(asc_twin_tiling::MatmulElementBytes(aType_.dataType));
      split.coreK = static_cast<int32_t>(AlignUp(CeilDiv(singleK, spare), k0));
      // whole slices where K allows (a kernel offsetting by singleCoreK never sets a K tail):
      // the smallest aligned slice at least this large that divides K
      for (int64_t whole = split.coreK; whole < singleK; whole += k0) {
        if (singleK % whole == 0) {
          split.coreK = static_cast<int32_t>(whole);
          break;
        }
      }
      if (split.coreK > singleK) split.coreK = singleK;
    }
  }
  split.kDim = static_cast<int32_t>(CeilDiv(singleK, split.coreK));
  int64_t cores = int64_t{split.mDim} * split.nDim * split.kDim;
  // A single shape the user set is the kernel's to cover: with more parts than SetDim's cores the
  // tiling uses every core (CANN's usedCoreNum is SetDim's then), and the kernel loops over the
  // parts (asc-devkit's matmul_high_performance #6 runs its M halves one after the other).
  const bool userSingleShape = singleCoreM > 0 || singleCoreN > 0 || singleCoreK > 0;
  if (userSingleShape && cores > dim) cores = dim;
  if (cores > dim) {
    return asc_twin_tiling::MatmulTilingError(
        "GetTiling: singleCore M=%d N=%d K=%d needs %lld cores, more than SetDim(%d)", split.coreM, split.coreN,
        split.coreK, static_cast<long long>(cores), dim);
  }
  mDim_ = split.mDim;
  nDim_ = split.nDim;
  kDim_ = split.kDim;
  return PlanOneCore(static_cast<int32_t>(cores), split.coreM, split.coreN, split.coreK);
}

int64_t MultiCoreMatmulTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  SetFinalTiling(tiling);
  return 0;
}

int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  if (tiling_.baseM == 0) {
    return asc_twin_tiling::MatmulTilingError("GetSingleShape: call GetTiling first (no tiling was computed)");
  }
  shapeM = tiling_.singleCoreM;
  shapeN = tiling_.singleCoreN;
  shapeK = tiling_.singleCoreK;
  return 0;
}

int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  if (tiling_.baseM == 0) {
    return asc_twin_tiling::MatmulTilingError("GetCoreNum: call GetTiling first (no tiling was computed)");
  }
  dim = tiling_.usedCoreNum;
  mDim = mDim_;
  nDim = nDim_;
  return 0;
}

int64_t BatchMatmulTiling::Compute() {
  if (!CheckSetParam()) return -1;
  if (batchM <= 0)
    batchM = aLayoutInfoB > 0
                 ? aLayoutInfoB * (aLayoutInfoN > 0 ? aLayoutInfoN : 1) * (aLayoutInfoG > 0 ? aLayoutInfoG : 1)
                 : 1;
  if (batchN <= 0)
    batchN = bLayoutInfoB > 0
                 ? bLayoutInfoB * (bLayoutInfoN > 0 ? bLayoutInfoN : 1) * (bLayoutInfoG > 0 ? bLayoutInfoG : 1)
                 : 1;
  if (batchNum <= 0) batchNum = batchM > batchN ? batchM : batchN;
  // As many whole A and B matrices as L1 holds at once form one IterateBatch pass.
  const int64_t oneA = int64_t{singleM} * singleK * asc_twin_tiling::MatmulElementBytes(aType_.dataType);
  const int64_t oneB = int64_t{singleK} * singleN * asc_twin_tiling::MatmulElementBytes(bType_.dataType);
  int64_t fit = (oneA + oneB) > 0 ? bufferPool_.l1Size / (oneA + oneB) : 0;
  if (fit < 1) fit = 1;
  singleBatchM = static_cast<int32_t>(fit < batchM ? fit : batchM);
  singleBatchN = static_cast<int32_t>(fit < batchN ? fit : batchN);
  return PlanOneCore(1, singleM, singleN, singleK);
}

int64_t BatchMatmulTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  SetFinalTiling(tiling);
  return 0;
}

int32_t BatchMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM,
                                      int32_t& batchCoreN) {
  if (tiling_.baseM == 0) {
    return asc_twin_tiling::MatmulTilingError("GetCoreNum: call GetTiling first (no tiling was computed)");
  }
  dim = tiling_.usedCoreNum;
  mDim = nDim = batchCoreM = batchCoreN = 1;
  return 0;
}

}  // namespace matmul_tiling
