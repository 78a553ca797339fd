// kernel_tiling/data_layout_tmp_size.h: the twin's temporary-space rule for the data-layout
// high-level APIs, written once for both sides: the host's Get*MaxMinTmpSize report it and the
// kernels check a sharedTmpBuffer against the minimum. The rule: one 32-byte aligned row staged
// at a time (Pad / UnPad), one 256-byte repeat (Broadcast), two 16 x 16 fractals
// (ConfusionTranspose), one batch of channel planes (TransData); the maximum stages everything at once. Not CANN's byte
// counts.
#ifndef ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TMP_SIZE_H_
#define ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TMP_SIZE_H_

#include <cstdint>

namespace AscendC {
namespace tiling {
namespace layout_tmp {

constexpr uint64_t kBlockBytes = 32;
constexpr uint64_t kRepeatBytes = 256;
constexpr uint64_t kFractal = 16;  // the NZ fractal is 16 x 16 elements

constexpr uint64_t AlignedRowBytes(uint64_t width, uint64_t typeSize) {
  return (width * typeSize + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
}

// Pad and UnPad over [height, width].
constexpr uint64_t PadMinBytes(uint64_t width, uint64_t typeSize) { return AlignedRowBytes(width, typeSize); }
constexpr uint64_t PadMaxBytes(uint64_t height, uint64_t width, uint64_t typeSize) {
  return height * AlignedRowBytes(width, typeSize);
}

// Broadcast of srcElems into dstElems (nothing to stage when they are equal).
constexpr uint64_t BroadcastMinBytes(uint64_t srcElems, uint64_t dstElems) {
  return srcElems == dstElems ? 0 : kRepeatBytes;
}
constexpr uint64_t BroadcastMaxBytes(uint64_t srcElems, uint64_t dstElems, uint64_t typeSize) {
  return srcElems == dstElems ? 0 : AlignedRowBytes(dstElems, typeSize);
}

// ConfusionTranspose of elems elements.
constexpr uint64_t TransposeMinBytes(uint64_t typeSize) { return 2 * kFractal * kFractal * typeSize; }
constexpr uint64_t TransposeMaxBytes(uint64_t elems, uint64_t typeSize) {
  return elems * typeSize > TransposeMinBytes(typeSize) ? elems * typeSize : TransposeMinBytes(typeSize);
}

// TransData over NCDHW [n, c, d, h, w] (16-bit types): one (n) slice of D x C1 x 16 channels of
// the 32-byte aligned H*W plane at a time; the maximum all n at once.
constexpr uint64_t TransDataMinBytes(uint64_t c, uint64_t d, uint64_t h, uint64_t w, uint64_t typeSize) {
  return d * ((c + kFractal - 1) / kFractal * kFractal) * ((h * w + kFractal - 1) / kFractal * kFractal) * typeSize;
}
constexpr uint64_t TransDataMaxBytes(uint64_t n, uint64_t c, uint64_t d, uint64_t h, uint64_t w, uint64_t typeSize) {
  return ((n + kFractal - 1) / kFractal * kFractal) * TransDataMinBytes(c, d, h, w, typeSize);
}

}  // namespace layout_tmp
}  // namespace tiling
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TMP_SIZE_H_
