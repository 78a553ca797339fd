// matmul_tiling::MatmulApiTiling: one core computes the whole SetShape problem.
#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include "matmul_tiling_log.h"
#include "tiling/matmul/matmul_tiling.h"

namespace matmul_tiling {

int64_t MatmulApiTiling::Compute() {
  if (!CheckSetParam()) return -1;
  return PlanOneCore(1, singleM, singleN, singleK);
}

int64_t MatmulApiTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  SetFinalTiling(tiling);
  return 0;
}

}  // namespace matmul_tiling

namespace {
// What a Matmul of this tiling holds besides its operands: L1 for the A1/B1 buffers and the bias,
// L0C for the accumulators; the twin's Matmul needs no UB of its own (no ND2NZ through the UB).
int32_t TmpBufSize(int32_t baseM, int32_t shareL1, int32_t shareL0C, matmul_tiling::SysTilingTempBufSize& bufSize) {
  if (baseM <= 0)
    return asc_twin_tiling::MatmulTilingError(
        "GetTmpBufSize: the tiling has no base block (GetTiling failed or was not called)");
  bufSize.ubSize = 0;
  bufSize.l1Size = shareL1;
  bufSize.l0cSize = shareL0C;
  return 0;
}
}  // namespace

extern "C" {
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return TmpBufSize(tiling.baseM, tiling.shareL1Size, tiling.shareL0CSize, bufSize);
}
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                       matmul_tiling::SysTilingTempBufSize& bufSize) {
  return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
  return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
}
