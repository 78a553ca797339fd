// Pad and UnPad: a [height, width] tensor padded in width to 32 bytes, or trimmed.
//   Pad, scenario 1 (width not 32-byte aligned): src is height rows of width elements back to
//     back; dst rows are alignedWidth = width rounded up to 32 bytes apart, each
//     [leftPad x padValue][the row][rightPad x padValue], leftPad + width + rightPad <= alignedWidth
//     (columns past that are not written).
//   Pad, scenario 2 (width aligned, the valid oriWidth < width): dst = src with columns
//     [oriWidth, oriWidth + rightPad) set to padValue; leftPad must be 0.
//   UnPad (width aligned): dst is height rows of width - leftPad - rightPad elements back to back.
// height, width and oriWidth come from the tiling (PadTilingFunc / UnPadTilingFunc).
#ifndef ASC_TWIN_ADV_API_PAD_PAD_H_
#define ASC_TWIN_ADV_API_PAD_PAD_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "asc_twin/elementwise.h"
#include "kernel_tensor.h"
#include "kernel_tiling/data_layout_tmp_size.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

struct PadParams {
  __aicore__ PadParams() = default;
  __aicore__ PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
      : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  __aicore__ UnPadParams() = default;
  __aicore__ UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn)
      : leftPad(leftPadIn), rightPad(rightPadIn) {}
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

namespace twin {
namespace adv {

template <typename T>
constexpr bool kIsPadType =
    std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value || std::is_same<T, half>::value ||
    std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value || std::is_same<T, float>::value;

inline void CheckLayoutTmp(const char* api, const LocalTensor<uint8_t>& tmp, uint64_t need, const char* host) {
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
  if (tmp.GetSize() < need) {
    RaiseTrap("%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes the shape needs (the minimum of %s)", api,
              tmp.GetSize(), static_cast<unsigned long long>(need), host);
  }
}

// src as it was before dst is written, when the two overlap (an in-place call).
template <typename T>
inline const T* StableSource(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t dstElems, uint64_t srcElems,
                             std::vector<T>* copy) {
  const T* s = src.TwinData();
  const T* d = dst.TwinData();
  if (s < d + dstElems && d < s + srcElems) {
    copy->assign(s, s + srcElems);
    return copy->data();
  }
  return s;
}

template <typename T>
inline void PadRows(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
                    const tiling::PadTiling& t) {
  static_assert(kIsPadType<T>, "Pad takes int16_t, uint16_t, half, int32_t, uint32_t or float");
  constexpr const char* api = "Pad";
  const uint32_t h = t.srcHeight, w = t.srcWidth, ori = t.srcOriWidth;
  if (h == 0 || w == 0) RaiseTrap("%s: the tiling has height %u, width %u (was PadTilingFunc called?)", api, h, w);
  constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(T);
  const uint32_t aligned = (w + perBlock - 1) / perBlock * perBlock;
  const uint64_t srcElems = uint64_t{h} * w;
  if ((srcElems * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: srcTensor holds %llu bytes (height %u x width %u), not a multiple of 32", api,
              static_cast<unsigned long long>(srcElems * sizeof(T)), h, w);
  }
  const T value = static_cast<T>(p.padValue);
  std::vector<T> copy;
  if (w != aligned) {  // scenario 1: rows of w become rows of aligned
    if (uint32_t{p.leftPad} + w + p.rightPad > aligned) {
      RaiseTrap("%s: leftPad %u + width %u + rightPad %u exceeds the 32-byte aligned width %u", api, p.leftPad, w,
                p.rightPad, aligned);
    }
    const uint64_t dstElems = uint64_t{h} * aligned;
    CheckUbOperand(api, "srcTensor", src, srcElems);
    CheckUbOperand(api, "dstTensor", dst, dstElems);
    LevelTwoDone();
    const T* s = StableSource(dst, src, dstElems, srcElems, &copy);
    T* d = dst.TwinData();
    for (uint32_t r = 0; r < h; ++r) {
      T* row = d + uint64_t{r} * aligned;
      for (uint32_t c = 0; c < p.leftPad; ++c) row[c] = value;
      std::memcpy(row + p.leftPad, s + uint64_t{r} * w, w * sizeof(T));
      for (uint32_t c = 0; c < p.rightPad; ++c) row[p.leftPad + w + c] = value;
    }
    return;
  }
  // scenario 2: aligned rows whose valid part is ori wide
  if (ori >= w) RaiseTrap("%s: width %u is 32-byte aligned and all valid (oriWidth %u): nothing to pad", api, w, ori);
  if (p.leftPad != 0) RaiseTrap("%s: leftPad %u: an aligned width pads on the right only", api, p.leftPad);
  if (uint32_t{ori} + p.rightPad > w) {
    RaiseTrap("%s: oriWidth %u + rightPad %u exceeds the width %u", api, ori, p.rightPad, w);
  }
  CheckUbOperand(api, "srcTensor", src, srcElems);
  CheckUbOperand(api, "dstTensor", dst, srcElems);
  LevelTwoDone();
  const T* s = StableSource(dst, src, srcElems, srcElems, &copy);
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < h; ++r) {
    T* row = d + uint64_t{r} * w;
    if (row != s + uint64_t{r} * w) std::memcpy(row, s + uint64_t{r} * w, w * sizeof(T));
    for (uint32_t c = 0; c < p.rightPad; ++c) row[ori + c] = value;
  }
}

template <typename T>
inline void UnPadRows(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& p,
                      const tiling::UnPadTiling& t) {
  static_assert(kIsPadType<T>, "UnPad takes int16_t, uint16_t, half, int32_t, uint32_t or float");
  constexpr const char* api = "UnPad";
  const uint32_t h = t.srcHeight, w = t.srcWidth;
  if (h == 0 || w == 0) RaiseTrap("%s: the tiling has height %u, width %u (was UnPadTilingFunc called?)", api, h, w);
  if ((uint64_t{w} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: width %u is not 32-byte aligned; UnPad takes an aligned width", api, w);
  }
  if (uint32_t{p.leftPad} + p.rightPad >= w) {
    RaiseTrap("%s: leftPad %u + rightPad %u leaves nothing of the width %u", api, p.leftPad, p.rightPad, w);
  }
  const uint32_t out = w - p.leftPad - p.rightPad;
  const uint64_t srcElems = uint64_t{h} * w, dstElems = uint64_t{h} * out;
  CheckUbOperand(api, "srcTensor", src, srcElems);
  CheckUbOperand(api, "dstTensor", dst, dstElems);
  LevelTwoDone();
  std::vector<T> copy;
  const T* s = StableSource(dst, src, dstElems, srcElems, &copy);
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < h; ++r)
    std::memmove(d + uint64_t{r} * out, s + uint64_t{r} * w + p.leftPad, out * sizeof(T));
}

}  // namespace adv
}  // namespace twin

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  twin::adv::CheckLayoutTmp("Pad", sharedTmpBuffer,
                            AscendC::tiling::layout_tmp::PadMinBytes(tiling.srcWidth, sizeof(T)),
                            "GetPadMaxMinTmpSize");
  twin::adv::PadRows(dstTensor, srcTensor, padParams, tiling);
}
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling) {
  twin::adv::PadRows(dstTensor, srcTensor, padParams, tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
  twin::adv::CheckLayoutTmp("UnPad", sharedTmpBuffer,
                            AscendC::tiling::layout_tmp::PadMinBytes(tiling.srcWidth, sizeof(T)),
                            "GetUnPadMaxMinTmpSize");
  twin::adv::UnPadRows(dstTensor, srcTensor, unPadParams, tiling);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             UnPadTiling& tiling) {
  twin::adv::UnPadRows(dstTensor, srcTensor, unPadParams, tiling);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_PAD_PAD_H_
