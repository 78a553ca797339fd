// AscendQuant: dst (int8_t) = round(src * scale + offset), per tensor (scalar scale and offset)
// or per channel (scale, and offset, a tensor of scaleCount elements repeated along calCount),
// with CANN's template head <T, isReuseSource, config> and its twelve call forms.
// T is half or float (A2/A3). The A2/A3 sequence: a float source is cast to half (RNE), then
// Muls/Mul by the scale in half, Adds/Add the offset in half, Cast half -> int8_t (CAST_NONE:
// ties to even, saturating); float scale/offset values are cast to half first.
#ifndef ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_QUANT_H_
#define ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_QUANT_H_

#include "adv_api/quantization/quant_common.h"

namespace AscendC {

struct AscendQuantConfig {
  __aicore__ constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn,
                                         const uint32_t scaleCountIn, const uint32_t workLocalSizeIn)
      : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn), workLocalSize(workLocalSizeIn) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class AscendQuantPolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP,
  PER_CHANNEL_PER_GROUP,
  PER_TOKEN_PER_GROUP
};

struct AscendQuantParam {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
  uint32_t groupSize = 0;
};

namespace twin {
namespace quant {

// Element i: scaleAt(i) / offsetAt(i) give the half scale and offset.
template <typename T, const AscendQuantConfig& config, typename S, typename O>
inline void QuantRun(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                     uint32_t calCount, S scaleAt, O offsetAt) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "AscendQuant: T is half or float");
  constexpr const char* api = "AscendQuant";
  if (config.calcCount != 0) calCount = config.calcCount;
  CheckUbOperand(api, "srcTensor", src, calCount);
  CheckUbOperand(api, "dstTensor", dst, calCount);
  if (tmp != nullptr) {
    const uint64_t need = config.workLocalSize != 0 ? config.workLocalSize : asc_twin_tmp::QuantTmpBytes(calCount).min;
    CheckTmp(api, *tmp, need, "GetAscendQuantMaxMinTmpSize");
  }
  LevelTwoDone();
  const T* s = src.TwinData();
  int8_t* d = dst.TwinData();
  for (uint32_t i = 0; i < calCount; ++i) {
    const half x = static_cast<half>(s[i]);  // float -> half RNE; half unchanged
    d[i] = HalfToInt8(HalfAdd(HalfMul(x, scaleAt(i)), offsetAt(i)));
  }
}

template <typename T, const AscendQuantConfig& config>
inline void QuantPerChannel(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                            const LocalTensor<T>& scale, const LocalTensor<T>* offset, T offsetScalar,
                            uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount) {
  constexpr const char* api = "AscendQuant";
  if (config.calcCount != 0) calCount = config.calcCount;
  if (config.scaleCount != 0) scaleCount = config.scaleCount;
  if (config.offsetCount != 0) offsetCount = config.offsetCount;
  CheckParamCount<T>(api, "scaleCount", scaleCount, calCount);
  CheckUbOperand(api, "scaleTensor", scale, scaleCount);
  if (offset != nullptr) {
    if (offsetCount != scaleCount)
      RaiseTrap("%s: offsetCount %u differs from scaleCount %u", api, offsetCount, scaleCount);
    CheckUbOperand(api, "offsetTensor", *offset, offsetCount);
  }
  const T* sc = scale.TwinData();
  const T* of = offset != nullptr ? offset->TwinData() : nullptr;
  const half off = static_cast<half>(offsetScalar);
  QuantRun<T, config>(
      dst, src, tmp, calCount, [&](uint32_t i) { return static_cast<half>(sc[i % scaleCount]); },
      [&](uint32_t i) { return of != nullptr ? static_cast<half>(of[i % scaleCount]) : off; });
}

}  // namespace quant
}  // namespace twin

// ---- per tensor ----
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount) {
  const half s = static_cast<half>(scale), o = static_cast<half>(offset);
  twin::quant::QuantRun<T, config>(
      dstTensor, srcTensor, &sharedTmpBuffer, calCount, [s](uint32_t) { return s; }, [o](uint32_t) { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount) {
  const half s = static_cast<half>(scale), o = static_cast<half>(offset);
  twin::quant::QuantRun<T, config>(
      dstTensor, srcTensor, nullptr, calCount, [s](uint32_t) { return s; }, [o](uint32_t) { return o; });
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scale, offset, srcTensor.GetSize());
}

// ---- per channel, scalar offset ----
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount) {
  twin::quant::QuantPerChannel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset,
                                          scaleCount, scaleCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount) {
  twin::quant::QuantPerChannel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset, scaleCount,
                                          scaleCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                        scaleTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offset, scaleTensor.GetSize(),
                                        srcTensor.GetSize());
}

// ---- per channel, offset tensor ----
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount) {
  twin::quant::QuantPerChannel<T, config>(dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T(0),
                                          scaleCount, offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
  twin::quant::QuantPerChannel<T, config>(dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T(0), scaleCount,
                                          offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offsetTensor,
                                        scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, scaleTensor, offsetTensor, scaleTensor.GetSize(),
                                        offsetTensor.GetSize(), srcTensor.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_QUANT_H_
