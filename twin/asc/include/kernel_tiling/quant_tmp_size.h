// The twin's temporary-space model of the quantisation APIs (AscendQuant, AscendDequant,
// AscendAntiQuant), shared by the host's Get*MaxMinTmpSize (libtiling_api.a) and the kernel
// headers, which trap when a sharedTmpBuffer is below the minimum. It follows the buffers the
// NPU's A2/A3 code carves from the sharedTmpBuffer:
// - AscendQuant: one half per element of a slice (the value cast to half, scaled, offset);
//   the smallest slice is one 256-byte repeat, the largest the whole source;
// - AscendDequant: the deqScale row in fp32 (n rounded up to 8) plus k whole rows of the source
//   in fp32 (k = 1 at least, all m rows at most);
// - AscendAntiQuant: the source in fp32 (a 256-byte repeat at least) plus the offset and the
//   scale in fp32 (the bfloat16 path; the half path needs less, the twin asks the same).
#ifndef ASC_TWIN_KERNEL_TILING_QUANT_TMP_SIZE_H_
#define ASC_TWIN_KERNEL_TILING_QUANT_TMP_SIZE_H_

#include <cstdint>

#include "kernel_tiling/asc_twin_tmp_sizes.h"

namespace asc_twin_tmp {

struct TmpRange {
  uint64_t min;
  uint64_t max;
};

constexpr uint64_t MinU64(uint64_t a, uint64_t b) { return a < b ? a : b; }

constexpr TmpRange QuantTmpBytes(uint64_t count) {
  return count == 0 ? TmpRange{0, 0} : TmpRange{MinU64(AlignBlock(count * 2), kRepeatBytes), AlignBlock(count * 2)};
}

// m rows of n int32 elements.
constexpr TmpRange DequantTmpBytes(uint64_t m, uint64_t n) {
  return (m == 0 || n == 0)
             ? TmpRange{0, 0}
             : TmpRange{AlignBlock(n * 4) + AlignBlock(n * 4), AlignBlock(n * 4) + AlignBlock(m * n * 4)};
}

// count source elements, paramCount elements in each of offset and scale.
constexpr TmpRange AntiQuantTmpBytes(uint64_t count, uint64_t paramCount) {
  return count == 0 ? TmpRange{0, 0}
                    : TmpRange{MinU64(AlignBlock(count * 4), kRepeatBytes) + 2 * AlignBlock(paramCount * 4),
                               AlignBlock(count * 4) + 2 * AlignBlock(paramCount * 4)};
}

}  // namespace asc_twin_tmp

#endif  // ASC_TWIN_KERNEL_TILING_QUANT_TMP_SIZE_H_
