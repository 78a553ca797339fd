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
  using MatmulApiTilingBase::GetTiling;  // the optiling::TCubeTiling form
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) override;
  bool EnableL1BankConflictOptimise() { return false; }

 protected:
  int64_t Compute() override;
};

}  // namespace matmul_tiling

extern "C" {
// The UB/L1/L0C bytes a Matmul of this tiling uses besides its operands (0 on success, -1 for a
// tiling with no base block).
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize);
}

#ifndef ASC_TWIN_TILING_LIBRARY_BUILD
namespace matmul_tiling {
// optiling::TCubeTiling's fields as the kernel struct (inline: see GetTiling's host form).
inline AscendC::tiling::TCubeTiling KernelTilingOf(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling k;
#define ASC_TWIN_COPY_FROM_HOST(f) k.f = tiling.get_##f();
  ASC_TWIN_TCUBE_TILING_FIELDS(ASC_TWIN_COPY_FROM_HOST)
#undef ASC_TWIN_COPY_FROM_HOST
  return k;
}
}  // namespace matmul_tiling
extern "C" inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                              matmul_tiling::SysTilingTempBufSize& bufSize) {
  AscendC::tiling::TCubeTiling k = matmul_tiling::KernelTilingOf(tiling);
  return MatmulGetTmpBufSizeV2(k, bufSize);
}
#endif

#endif  // ASC_TWIN_TILING_MATMUL_MATMUL_TILING_H_
