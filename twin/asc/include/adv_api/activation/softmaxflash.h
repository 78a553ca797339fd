// adv_api/activation/softmaxflash.h: SoftmaxFlash, the first (deprecated) flash form: as
// SoftmaxFlashV2 but dst is normalized by the updated sum, and expMax = exp(inMax - max) *
// inSum / sum. isUpdate is a run-time argument here.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASH_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASH_H_

#include "adv_api/activation/softmaxflashv2.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                    const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                                    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<T, T>("SoftmaxFlash", isUpdate, true, dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                             inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG,
                             isBasicBlock, false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                    const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                                    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<half, float>("SoftmaxFlash", isUpdate, true, dstTensor, sumTensor, maxTensor, srcTensor,
                                    expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo,
                                    SOFTMAX_DEFAULT_CFG, isBasicBlock, false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                    const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                    const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const SoftMaxTiling& tiling, bool isUpdate = false,
                                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<T, T>("SoftmaxFlash", isUpdate, true, dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor,
                             inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG,
                             isBasicBlock, false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                    const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const SoftMaxTiling& tiling, bool isUpdate = false,
                                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::FlashTile<half, float>("SoftmaxFlash", isUpdate, true, dstTensor, sumTensor, maxTensor, srcTensor,
                                    expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                                    SOFTMAX_DEFAULT_CFG, isBasicBlock, false);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXFLASH_H_
