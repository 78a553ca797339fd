// tiling/matmul/matmul_tiling.h: matmul_tiling::MatmulApiTiling, the tiling of one core's
// matmul (singleCore = the whole SetShape problem), and the Matmul temp-buffer query.
#ifndef ASC_TWIN_TILING_MATMUL_MATMUL_TILING_H_
#define ASC_TWIN_TILING_MATMUL_MATMUL_TILING_H_

#include <cstdint>

#include "tiling/matmul/matmul_tiling_base.h"

namespace matmul_tiling {

class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling() {}
  explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& ascendcPlatform)
      : MatmulApiTilingBase(ascendcPlatform) {}
  explicit MatmulApiTiling(const PlatformInfo& platform) : MatmulApiTilingBase(platform) {}
  ~MatmulApiTiling() override = default;
  int64_t GetTiling(optiling::TCubeTiling& tiling) override;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  int64_t Compute() override;
};

}  // namespace matmul_tiling

extern "C" {
// The UB/L1/L0C bytes a Matmul of this tiling uses besides its operands (0 on success, -1 for a
// tiling with no base block).
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
}

#endif  // ASC_TWIN_TILING_MATMUL_MATMUL_TILING_H_
