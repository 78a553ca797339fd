// Load3D v2 (img2col) L1 -> L0A/L0B. The feature map in L1 is C1 x H x W x C0 (C0 = 32 B of
// elements, C1 = ceil(channelSize / C0)); the img2col matrix X has one row per output position
// m = ho * Wo + wo and one column per k = ((c1 * Kh + kh) * Kw + kw) * C0 + c0, where
//   Wo = (W + padLeft + padRight - dilationW * (Kw - 1) - 1) / strideW + 1,
//   X(m, k) = fm[c1][ho * strideH - padTop + kh * dilationH][wo * strideW - padLeft + kw * dilationW][c0]
// (padValue outside the map and for channels >= channelSize). The call takes rows
// mStartPt .. + mExtension and columns kStartPt .. + kExtension; Y = X, or X transposed with
// enTranspose, is written in 16 x C0 fractals, row blocks first into L0A (Zz) and column blocks
// first into L0B (Zn), matching the layouts Mmad reads (cube_fractal.h). With a boundary
// (SetLoadDataBoundary, bytes from L1's start), a read at or past it wraps to L1's start.
#ifndef ASC_TWIN_CUBE_LOAD3D_H_
#define ASC_TWIN_CUBE_LOAD3D_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/cube_fractal.h"

namespace AscendC {
namespace twin {
namespace cube {

struct Img2ColShape {
  uint32_t h, w, channels;
  uint32_t padLeft, padRight, padTop, padBottom;
  uint32_t kh, kw, strideH, strideW, dilH, dilW;
  uint32_t mStart, kStart, mExt, kExt;
  bool transpose, intoL0B;
  uint64_t fmAt = 0;      // the feature map's offset in L1, in elements
  uint64_t boundary = 0;  // SetLoadDataBoundary in elements; 0: none
};

inline uint32_t Img2ColWo(const Img2ColShape& s) {
  const int64_t span = int64_t{s.w} + s.padLeft + s.padRight - int64_t{s.dilW} * (s.kw - 1) - 1;
  return span < 0 ? 0 : static_cast<uint32_t>(span / s.strideW + 1);
}

template <typename T>
inline void RunImg2Col(T* dst, const T* fm, const Img2ColShape& s, T pad) {
  constexpr uint32_t c0 = C0Elems<T>();
  const uint32_t wo = Img2ColWo(s);
  const uint32_t rows = s.transpose ? s.kExt : s.mExt;  // Y's shape
  const uint32_t cols = s.transpose ? s.mExt : s.kExt;
  const uint32_t rowBlocks = CeilDivU(rows, kCubeBlock), colBlocks = CeilDivU(cols, c0);
  for (uint32_t mi = 0; mi < s.mExt; ++mi) {
    const uint32_t m = s.mStart + mi;
    const uint32_t ho = wo == 0 ? 0 : m / wo, wOut = wo == 0 ? 0 : m % wo;
    for (uint32_t ki = 0; ki < s.kExt; ++ki) {
      const uint32_t k = s.kStart + ki;
      const uint32_t cc = k % c0, rest = k / c0;
      const uint32_t kwi = rest % s.kw, khi = (rest / s.kw) % s.kh, c1 = rest / (s.kw * s.kh);
      const int64_t hi = int64_t{ho} * s.strideH - s.padTop + int64_t{khi} * s.dilH;
      const int64_t wi = int64_t{wOut} * s.strideW - s.padLeft + int64_t{kwi} * s.dilW;
      T v = pad;
      if (hi >= 0 && hi < s.h && wi >= 0 && wi < s.w && c1 * c0 + cc < s.channels) {
        const uint64_t at =
            ((uint64_t{c1} * s.h + static_cast<uint64_t>(hi)) * s.w + static_cast<uint64_t>(wi)) * c0 + cc;
        if (s.boundary != 0 && s.fmAt + at >= s.boundary) {
          v = LoadElem(fm - s.fmAt, (s.fmAt + at) % s.boundary);  // wrapped to L1's start
        } else {
          v = LoadElem(fm, at);
        }
      }
      const uint32_t r = s.transpose ? ki : mi, c = s.transpose ? mi : ki;
      const uint64_t frac =
          s.intoL0B ? uint64_t{c / c0} * rowBlocks + r / kCubeBlock : uint64_t{r / kCubeBlock} * colBlocks + c / c0;
      StoreElem(dst, frac * kCubeBlock * c0 + (r % kCubeBlock) * c0 + c % c0, v);  // int4b_t: nibbles
    }
  }
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_LOAD3D_H_
