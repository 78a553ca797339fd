// adv_api/activation/simplesoftmax.h: SimpleSoftMax, softmax with the row max and sum given
// (no reduction): dst = exp(x - inMax) / inSum, inMax/inSum one 32-byte block per row.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SIMPLESOFTMAX_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SIMPLESOFTMAX_H_

#include "adv_api/activation/softmax_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T, typename U>
inline void SimpleSoftmaxTile(const LocalTensor<T>& dst, const LocalTensor<U>& inSum, const LocalTensor<U>& inMax,
                              const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                              const SoftMaxShapeInfo& shape, const SoftmaxConfig& config, bool isBasicBlock,
                              bool isNZ) {
  const char* api = "SimpleSoftMax";
  const RowTile t = ResolveRowTile<T>(api, tiling.srcM, tiling.srcK, shape, config, isBasicBlock, isNZ);
  if (t.m == 0) return;
  const uint64_t n = uint64_t{t.m} * t.k;
  NeedOperand(api, "dstTensor", dst, n);
  NeedOperand(api, "srcTensor", src, n);
  const uint32_t us = StatStride<U>(config);
  NeedStats(api, "inSumTensor", inSum, t.m, us);
  NeedStats(api, "inMaxTensor", inMax, t.m, us);
  NeedSoftmaxTmp(api, tmp, t, ::AscendC::tiling::twin_tmp::kSoftMaxFloatRows);
  float* scratch = ScratchFloats(tmp, t.k);
  for (uint32_t r = 0; r < t.m; ++r) {
    T* d = dst.TwinData() + size_t{r} * t.k;
    const float* xf = WidenRow(src.TwinData() + size_t{r} * t.k, t.oriK, scratch);
    float* e = std::is_same<T, float>::value ? reinterpret_cast<float*>(d) : scratch;
    RowExpSub(e, xf, t.oriK, LoadStat(inMax.TwinData(), us, r));
    RowAffine(e, e, t.oriK, 0.0f, 1.0f / LoadStat(inSum.TwinData(), us, r), nullptr, nullptr);
    NarrowRow(d, e, t.oriK);
    ZeroPad(d, t);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SimpleSoftmaxTile<T, T>(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo,
                                     config, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SimpleSoftmaxTile<half, float>(dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling,
                                            softmaxShapeInfo, config, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                                     const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SimpleSoftmaxTile<T, T>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                     softmaxShapeInfo, config, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                                     const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                                     const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SimpleSoftmaxTile<half, float>(dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                            softmaxShapeInfo, config, isBasicBlock, isDataFormatNZ);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SIMPLESOFTMAX_H_
