// adv_api/activation/softmaxflashv2.h: SoftmaxFlashV2, the FlashAttention step. Per row:
//   isUpdate = false: max = rowmax(x), dst = exp(x - max), expSum = rowsum(dst)
//   isUpdate = true:  max = max(rowmax(x), inMax), dst = exp(x - max),
//                     expMax = exp(inMax - max), expSum = expMax * inExpSum + rowsum(dst)
// max/expSum/expMax (and the inputs) hold one 32-byte block per row. Also
// SoftMaxFlashV2TilingFunc's kernel-side constexpr form.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASHV2_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASHV2_H_

#include "adv_api/activation/softmax_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

// The flash step over a tile (T data, U statistics). V1 (normalized = true) divides by the
// updated sum and scales expMax by inSum / sum, as SoftmaxFlash documents.
template <typename T, typename U>
inline void FlashTile(const char* api, bool isUpdate, bool normalized, const LocalTensor<T>& dst,
                      const LocalTensor<U>& expSum, const LocalTensor<U>& maxT, const LocalTensor<T>& src,
                      const LocalTensor<T>& expMax, const LocalTensor<U>& inExpSum, const LocalTensor<U>& inMax,
                      const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape,
                      const SoftmaxConfig& config, bool isBasicBlock, bool isNZ) {
  const RowTile t = ResolveRowTile<T>(api, tiling.srcM, tiling.srcK, shape, config, isBasicBlock, isNZ);
  if (t.m == 0) return;
  const uint64_t n = uint64_t{t.m} * t.k;
  NeedOperand(api, "dstTensor", dst, n);
  NeedOperand(api, "srcTensor", src, n);
  const uint32_t us = StatStride<U>(config), ts = StatStride<T>(config);
  NeedStats(api, "expSumTensor", expSum, t.m, us);
  NeedStats(api, "maxTensor", maxT, t.m, us);
  if (isUpdate) {
    NeedStats(api, "expMaxTensor", expMax, t.m, ts);
    NeedStats(api, "inExpSumTensor", inExpSum, t.m, us);
    NeedStats(api, "inMaxTensor", inMax, t.m, us);
  }
  NeedSoftmaxTmp(api, tmp, t, ::AscendC::tiling::twin_tmp::kSoftMaxFloatRows);
  float* scratch = ScratchFloats(tmp, t.k);
  for (uint32_t r = 0; r < t.m; ++r) {
    T* d = dst.TwinData() + size_t{r} * t.k;
    const T* s = src.TwinData() + size_t{r} * t.k;
    float m = 0.0f, sum = 0.0f;
    if (!isUpdate) {
      SoftmaxRow(d, s, t, scratch, normalized ? ExpRowMode::kNormalize : ExpRowMode::kExpOnly, nullptr, &m, &sum);
    } else {
      const float im = LoadStat(inMax.TwinData(), us, r), is = LoadStat(inExpSum.TwinData(), us, r);
      // the new max first (the old one may win), then the exponentials against it
      const float* xf = WidenRow(s, t.oriK, scratch);
      m = RowMax(xf, t.oriK);
      if (im > m) m = im;
      const float em = ExpF(im - m);
      float* e = std::is_same<T, float>::value ? reinterpret_cast<float*>(d) : scratch;
      sum = RowExpSub(e, xf, t.oriK, m) + em * is;
      float emOut = em;
      if (normalized) {
        RowAffine(e, e, t.oriK, 0.0f, 1.0f / sum, nullptr, nullptr);
        emOut = em * is / sum;
      }
      NarrowRow(d, e, t.oriK);
      ZeroPad(d, t);
      StoreStat(expMax.TwinData(), ts, r, emOut);
    }
    StoreStat(expSum.TwinData(), us, r, sum);
    StoreStat(maxT.TwinData(), us, r, m);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<T, T>("SoftmaxFlashV2", isUpdate, false, dstTensor, expSumTensor, maxTensor, srcTensor,
                             expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, config,
                             isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<half, float>("SoftmaxFlashV2", isUpdate, false, dstTensor, expSumTensor, maxTensor, srcTensor,
                                    expMaxTensor, inExpSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo,
                                    config, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<T, T>("SoftmaxFlashV2", isUpdate, false, dstTensor, expSumTensor, maxTensor, srcTensor,
                             expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                             config, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<half, float>("SoftmaxFlashV2", isUpdate, false, dstTensor, expSumTensor, maxTensor, srcTensor,
                                    expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                                    softmaxShapeInfo, config, isBasicBlock, isDataFormatNZ);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASHV2_H_
