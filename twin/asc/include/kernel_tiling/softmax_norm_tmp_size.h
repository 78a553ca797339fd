// The temporary UB space the twin's SoftMax family and normalisation APIs need, written once:
// the host's Get*MaxMinTmpSize (twin/tiling) report it and the kernels trap when a
// sharedTmpBuffer is smaller than the minimum. The twin works row by row in float, so the
// minimum is one float row (32-byte aligned) plus two blocks for the row's statistics, and the
// maximum that for every row of the tile (what lets CANN's implementation take all rows at once).
#ifndef ASC_TWIN_KERNEL_TILING_SOFTMAX_NORM_TMP_SIZE_H_
#define ASC_TWIN_KERNEL_TILING_SOFTMAX_NORM_TMP_SIZE_H_

#include <cstdint>

namespace AscendC {
namespace tiling {
namespace twin_tmp {

constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kRowStatsBytes = 2 * kBlockBytes;

// `floatRows` float rows of `cols` elements + the statistics of one row.
constexpr uint32_t RowBytes(uint64_t cols, uint32_t floatRows) {
  const uint64_t row = (cols * 4 + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
  const uint64_t bytes = row * floatRows + kRowStatsBytes;
  return bytes > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<uint32_t>(bytes);
}
constexpr uint32_t TileBytes(uint64_t rows, uint64_t cols, uint32_t floatRows) {
  const uint64_t bytes = (rows == 0 ? 1 : rows) * uint64_t{RowBytes(cols, floatRows)};
  return bytes > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<uint32_t>(bytes);
}

// Float rows each API works with: SoftMax/LogSoftMax/Flash*/LayerNorm/RmsNorm/DeepNorm one (the
// widened or exponentiated row); SoftmaxGrad and LayerNormGrad two (both inputs widened).
constexpr uint32_t kSoftMaxFloatRows = 1;
constexpr uint32_t kGradFloatRows = 2;
constexpr uint32_t kNormFloatRows = 1;

}  // namespace twin_tmp
}  // namespace tiling
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TILING_SOFTMAX_NORM_TMP_SIZE_H_
