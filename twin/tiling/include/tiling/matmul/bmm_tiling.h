// tiling/matmul/bmm_tiling.h: matmul_tiling::MultiCoreMatmulTiling (the problem split over
// SetDim cores along M and N, optionally K) and BatchMatmulTiling (batched matmuls).
#ifndef ASC_TWIN_TILING_MATMUL_BMM_TILING_H_
#define ASC_TWIN_TILING_MATMUL_BMM_TILING_H_

#include <cstdint>

#include "tiling/matmul/matmul_tiling_base.h"

namespace matmul_tiling {

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() {}
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  // The most cores the split may use (1..the platform's AIC count x 2 for mixed kernels).
  int32_t SetDim(int32_t dim);
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override;
  // One core's part; -1 lets the tiling choose that axis.
  virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1);
  using MatmulApiTilingBase::GetTiling;  // the optiling::TCubeTiling form
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                                 int32_t minN = -1, int32_t minK = -1) {
    maxSingleM = maxM;
    maxSingleN = maxN;
    maxSingleK = maxK;
    minSingleM = minM;
    minSingleN = minN;
    minSingleK = minK;
    return 0;
  }
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  // After GetTiling: one core's M, N, K.
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  // After GetTiling: cores used (mDim x nDim, times the K split).
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);
  void EnableMultiCoreSplitK(bool flag) { enableSplitK_ = flag; }
  void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  int64_t Compute() override;
  int32_t mDim_ = 0;
  int32_t nDim_ = 0;
  int32_t kDim_ = 0;
};

class BatchMatmulTiling : public MatmulApiTilingBase {
 public:
  BatchMatmulTiling() {}
  explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN);
  using MatmulApiTilingBase::GetTiling;  // the optiling::TCubeTiling form
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;

 protected:
  int64_t Compute() override;
};

}  // namespace matmul_tiling

#include "tiling/matmul/matmul_tiling.h"

extern "C" {
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                       matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
}

#ifndef ASC_TWIN_TILING_LIBRARY_BUILD
extern "C" inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                                       matmul_tiling::SysTilingTempBufSize& bufSize) {
  AscendC::tiling::TCubeTiling k = matmul_tiling::KernelTilingOf(tiling);
  return MultiCoreMatmulGetTmpBufSizeV2(k, bufSize);
}
extern "C" inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                                   matmul_tiling::SysTilingTempBufSize& bufSize) {
  AscendC::tiling::TCubeTiling k = matmul_tiling::KernelTilingOf(tiling);
  return BatchMatmulGetTmpBufSizeV2(k, bufSize);
}
#endif

#endif  // ASC_TWIN_TILING_MATMUL_BMM_TILING_H_
