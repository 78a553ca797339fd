// adv_api/activation/softmax.h: SoftMax (row-wise over the last axis, with or without the max
// and sum outputs, with or without a sharedTmpBuffer) and AdjustSoftMaxRes, with CANN's
// template parameters and overloads. The max/sum outputs hold each row's value broadcast over
// one 32-byte block (8 floats or 16 halves), as CANN documents, unless the config's mode is
// SOFTMAX_OUTPUT_WITHOUT_BRC.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_H_

#include <cstring>

#include "adv_api/activation/softmax_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

// SoftMax / LogSoftMax over a tile: dst per `mode`, the row max and sum into max/sum when given.
template <typename T, typename U>
inline void SoftmaxTile(const char* api, ExpRowMode mode, const LocalTensor<T>& dst, const LocalTensor<U>* sum,
                        const LocalTensor<U>* max, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                        uint32_t tilingM, uint32_t tilingK, const SoftMaxShapeInfo& shape, const SoftmaxConfig& config,
                        bool isBasicBlock, bool isNZ) {
  const RowTile t = ResolveRowTile<T>(api, tilingM, tilingK, shape, config, isBasicBlock, isNZ);
  if (t.m == 0) return;
  const uint64_t n = uint64_t{t.m} * t.k;
  NeedOperand(api, "dstTensor", dst, n);
  NeedOperand(api, "srcTensor", src, n);
  const uint32_t stride = StatStride<U>(config);
  if (sum != nullptr) NeedStats(api, "sumTensor", *sum, t.m, stride);
  if (max != nullptr) NeedStats(api, "maxTensor", *max, t.m, stride);
  NeedSoftmaxTmp(api, tmp, t, ::AscendC::tiling::twin_tmp::kSoftMaxFloatRows);
  float* scratch = ScratchFloats(tmp, t.k);
  for (uint32_t r = 0; r < t.m; ++r) {
    float m = 0.0f, s = 0.0f;
    SoftmaxRow(dst.TwinData() + size_t{r} * t.k, src.TwinData() + size_t{r} * t.k, t, scratch, mode, nullptr, &m, &s);
    if (sum != nullptr) StoreStat(sum->TwinData(), stride, r, s);
    if (max != nullptr) StoreStat(max->TwinData(), stride, r, m);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<T, T>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, &sumTensor, &maxTensor,
                               srcTensor, nullptr, tiling.srcM, tiling.srcK, softmaxShapeInfo, config, isBasicBlock,
                               isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<half, float>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, &sumTensor, &maxTensor,
                                      srcTensor, nullptr, tiling.srcM, tiling.srcK, softmaxShapeInfo, config,
                                      isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<T, T>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, nullptr, nullptr, srcTensor,
                               nullptr, tiling.srcM, tiling.srcK, softmaxShapeInfo, config, isBasicBlock, false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<T, T>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, nullptr, nullptr, srcTensor,
                               &sharedTmpBuffer, tiling.srcM, tiling.srcK, softmaxShapeInfo, config, isBasicBlock,
                               false);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<T, T>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, &sumTensor, &maxTensor,
                               srcTensor, &sharedTmpBuffer, tiling.srcM, tiling.srcK, softmaxShapeInfo, config,
                               isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxTile<half, float>("SoftMax", twin::adv::ExpRowMode::kNormalize, dstTensor, &sumTensor, &maxTensor,
                                      srcTensor, &sharedTmpBuffer, tiling.srcM, tiling.srcK, softmaxShapeInfo, config,
                                      isBasicBlock, isDataFormatNZ);
}

// Rows whose max holds the bit pattern `from` (e.g. 0xFF7FFFFF, -FLT_MAX: a row that was all
// masked) are set to `to`; true if any row was. CANN compares the max's bits.
template <typename T1, typename T2, bool isDataFormatNZ = false>
__aicore__ inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                                        const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
  const char* api = "AdjustSoftMaxRes";
  const twin::adv::RowTile t =
      twin::adv::ResolveRowTile<T1>(api, 0, 0, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, isDataFormatNZ);
  if (t.m == 0) return false;
  twin::adv::NeedOperand(api, "softMaxRes", softMaxRes, uint64_t{t.m} * t.k);
  constexpr uint32_t stride = twin::adv::BlockElems<T2>();
  twin::adv::NeedStats(api, "maxTensor", maxTensor, t.m, stride);
  bool adjusted = false;
  for (uint32_t r = 0; r < t.m; ++r) {
    uint32_t bits = 0;
    std::memcpy(&bits, maxTensor.TwinData() + size_t{r} * stride, sizeof(T2) < 4 ? sizeof(T2) : 4);
    const uint32_t mask = sizeof(T2) >= 4 ? 0xFFFFFFFFu : ((1u << (8 * sizeof(T2))) - 1);
    if (bits != (from & mask)) continue;
    adjusted = true;
    T1* row = softMaxRes.TwinData() + size_t{r} * t.k;
    for (uint32_t j = 0; j < t.oriK; ++j) row[j] = to;
  }
  return adjusted;
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_H_
