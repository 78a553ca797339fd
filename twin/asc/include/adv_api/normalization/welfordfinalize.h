// adv_api/normalization/welfordfinalize.h: WelfordFinalize, the merge of abLength partial Welford
// results (mean_i, M2_i over c_i samples each) into one mean and variance:
//   mean = sum(c_i mean_i) / sum(c_i),  variance = (sum(M2_i) + sum(c_i (mean_i - mean)^2)) * rRec
// (rRecWithCorrection instead of rRec when the config asks for Bessel's correction). The counts
// come from the counts tensor, or else are headCount for the first headCountLength entries and
// tailCount for the next tailCountLength. Element 0 of each output receives the result.
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_H_

#include "adv_api/normalization/norm_rows.h"
#include "adv_api/normalization/welfordfinalize_utils.h"

namespace AscendC {
namespace twin {
namespace adv {

inline void WelfordFinalizeTile(const LocalTensor<float>& outMean, const LocalTensor<float>& outVar,
                                const LocalTensor<float>& inMean, const LocalTensor<float>& inVar,
                                const LocalTensor<int32_t>* counts, const LocalTensor<uint8_t>* tmp,
                                const WelfordFinalizePara& para, bool isCorrection) {
  const char* api = "WelfordFinalize";
  if (para.abLength == 0) return;
  if (para.abLength % 8 != 0) RaiseTrap("%s: abLength %u is not 32-byte aligned (a multiple of 8)", api, para.abLength);
  if (counts == nullptr && uint64_t{para.headCountLength} + para.tailCountLength > para.abLength) {
    RaiseTrap("%s: headCountLength %u + tailCountLength %u exceed abLength %u", api, para.headCountLength,
              para.tailCountLength, para.abLength);
  }
  NeedOperand(api, "inputMean", inMean, para.abLength);
  NeedOperand(api, "inputVariance", inVar, para.abLength);
  NeedOperand(api, "outputMean", outMean, 1);
  NeedOperand(api, "outputVariance", outVar, 1);
  if (counts != nullptr) NeedOperand(api, "counts", *counts, para.abLength);
  if (tmp != nullptr && tmp->TwinData() == nullptr) RaiseTrap("%s: sharedTmpBuffer is an unallocated LocalTensor", api);
  auto countOf = [&](uint32_t i) -> float {
    if (counts != nullptr) return static_cast<float>(counts->TwinData()[i]);
    if (i < para.headCountLength) return static_cast<float>(para.headCount);
    if (i < para.headCountLength + para.tailCountLength) return static_cast<float>(para.tailCount);
    return 0.0f;
  };
  float total = 0.0f, weighted = 0.0f;
  for (uint32_t i = 0; i < para.abLength; ++i) {
    total += countOf(i);
    weighted += countOf(i) * inMean.TwinData()[i];
  }
  const float mean = total > 0.0f ? weighted / total : 0.0f;
  float m2 = 0.0f;
  for (uint32_t i = 0; i < para.abLength; ++i) {
    const float d = inMean.TwinData()[i] - mean;
    m2 += inVar.TwinData()[i] + countOf(i) * d * d;
  }
  float rec = para.rRec;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
  if (isCorrection) rec = para.rRecWithCorrection;
#else
  (void)isCorrection;
#endif
  outMean.TwinData()[0] = mean;
  outVar.TwinData()[0] = m2 * rec;
}

}  // namespace adv
}  // namespace twin

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  twin::adv::WelfordFinalizeTile(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para,
                                 config.isCorrection);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para) {
  twin::adv::WelfordFinalizeTile(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para,
                                 config.isCorrection);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para) {
  twin::adv::WelfordFinalizeTile(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para,
                                 config.isCorrection);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
  twin::adv::WelfordFinalizeTile(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para,
                                 config.isCorrection);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_WELFORDFINALIZE_H_
