// AscendDequant: int32_t -> half / float / bfloat16_t, dst(x, y) = src(x, y) * deqScale(y) for
// y < calCount (the rest of a row is converted unscaled), with CANN's template head
// <dstT, scaleT, mode> and eight call forms (DequantParams {m, n, calCount}, a calCount, the whole
// tensor; a deqScale tensor or scalar; with or without sharedTmpBuffer).
// The A2/A3 sequence: src cast to fp32, deqScale cast to fp32 (uint64_t: its low 32 bits are the
// fp32 value), one fp32 multiply, the result cast to dstT (half: CAST_NONE, bfloat16_t:
// CAST_RINT, both ties to even). Each output row starts at a multiple of
// n rounded up to 32 bytes of dstT (a half/bfloat16 row of 8 int32 elements takes 16 slots).
// Supported (dstT, scaleT): tensor (half, uint64_t) (float, float) (float, bfloat16_t)
// (bfloat16_t, bfloat16_t) (bfloat16_t, float); scalar (bfloat16_t|float, bfloat16_t|float).
#ifndef ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_DEQUANT_H_
#define ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_DEQUANT_H_

#include <cstring>

#include "adv_api/quantization/quant_common.h"

namespace AscendC {

struct DequantParams {
  uint32_t m;         // rows
  uint32_t n;         // elements per row (a multiple of 8: 32 bytes of int32)
  uint32_t calCount;  // the first calCount elements of each row are scaled
};

enum class DeQuantMode : uint8_t {
  DEQUANT_WITH_SINGLE_ROW = 0,  // {1, m * n, n} is read as {m, n, n}
  DEQUANT_WITH_MULTI_ROW,       // {1, m * n, n} stays one row: only its first n elements are scaled
};

struct AscendDeQuantConfig {
  bool hasOffset;
  int32_t kDim = 1;
};

enum class AscendDeQuantPolicy : int32_t { PER_TOKEN, PER_GROUP, PER_CHANNEL_PER_GROUP, PER_TOKEN_PER_GROUP };

struct AscendDeQuantParam {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
  uint32_t groupSize = 0;
};

namespace twin {
namespace quant {

template <typename D, typename S, bool isTensor>
constexpr bool kDequantPair =
    isTensor
        ? ((std::is_same<S, uint64_t>::value && std::is_same<D, half>::value) ||
           (std::is_same<S, float>::value && (std::is_same<D, float>::value || std::is_same<D, bfloat16_t>::value)) ||
           (std::is_same<S, bfloat16_t>::value &&
            (std::is_same<D, float>::value || std::is_same<D, bfloat16_t>::value)))
        : ((std::is_same<S, float>::value || std::is_same<S, bfloat16_t>::value) &&
           (std::is_same<D, float>::value || std::is_same<D, bfloat16_t>::value));

template <typename S>
inline float ScaleToFloat(S s) {
  if constexpr (std::is_same<S, uint64_t>::value) {
    const uint32_t low = static_cast<uint32_t>(s);
    float f;
    std::memcpy(&f, &low, 4);
    return f;
  } else {
    return static_cast<float>(s);
  }
}

template <typename D, DeQuantMode mode>
inline void UpdateDequantParams(DequantParams& p) {
  constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount != 0 && p.calCount % perBlock == 0 &&
      p.n % p.calCount == 0) {
    p.m = p.n / p.calCount;
    p.n = p.calCount;
  }
}

inline void CheckDequantParams(const char* api, const LocalTensor<int32_t>& src, const DequantParams& p) {
  if (p.n == 0 || p.n % 8 != 0) RaiseTrap("%s: params.n %u must be a positive multiple of 8", api, p.n);
  if (uint64_t{p.m} * p.n > src.GetSize()) {
    RaiseTrap("%s: params.m %u * params.n %u exceed srcTensor (%u elements)", api, p.m, p.n, src.GetSize());
  }
  if (p.calCount == 0 || p.calCount > p.n) {
    RaiseTrap("%s: params.calCount %u is outside (0, params.n %u]", api, p.calCount, p.n);
  }
}

// Converts `count` elements of src laid out as rows of p.n (checked); scale(y) for y < p.calCount.
template <typename D, typename F>
inline void DequantRows(const char* api, const LocalTensor<D>& dst, const LocalTensor<int32_t>& src,
                        const LocalTensor<uint8_t>* tmp, const DequantParams& p, uint32_t count, F scaleAt) {
  constexpr uint32_t perBlock = ONE_BLK_SIZE / sizeof(D);
  const uint32_t dstInner = (p.n + perBlock - 1) / perBlock * perBlock;
  const uint64_t rows = (uint64_t{count} + p.n - 1) / p.n;
  const uint64_t dstNeed = count == 0 ? 0 : (rows - 1) * dstInner + (count - (rows - 1) * p.n);
  CheckUbOperand(api, "srcTensor", src, count);
  CheckUbOperand(api, "dstTensor", dst, dstNeed);
  if (tmp != nullptr) CheckTmp(api, *tmp, asc_twin_tmp::DequantTmpBytes(p.m, p.n).min, "GetAscendDequantMaxMinTmpSize");
  LevelTwoDone();
  const int32_t* s = src.TwinData();
  D* d = dst.TwinData();
  for (uint32_t e = 0; e < count; ++e) {
    const uint32_t r = e / p.n, y = e % p.n;
    float v = static_cast<float>(s[e]);  // int32 -> fp32, ties to even
    if (y < p.calCount) v *= scaleAt(y);
    d[uint64_t{r} * dstInner + y] = static_cast<D>(v);
  }
}

template <typename D, typename S, DeQuantMode mode>
inline void DequantTensor(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, const LocalTensor<S>& deqScale,
                          const LocalTensor<uint8_t>* tmp, DequantParams p, bool whole, uint32_t count) {
  static_assert(kDequantPair<D, S, true>,
                "AscendDequant: (dstT, scaleT) must be (half, uint64_t), (float, float), (float, bfloat16_t), "
                "(bfloat16_t, bfloat16_t) or (bfloat16_t, float)");
  constexpr const char* api = "AscendDequant";
  if (whole) {  // the calCount / whole-tensor forms: rows of deqScale.GetSize()
    const uint32_t k = deqScale.GetSize();
    if (k == 0 || src.GetSize() % k != 0) {
      RaiseTrap("%s: srcTensor.GetSize() %u is not a multiple of deqScale.GetSize() %u", api, src.GetSize(), k);
    }
    if (count == 0 || count > src.GetSize()) {
      RaiseTrap("%s: calCount %u is outside (0, srcTensor.GetSize() %u]", api, count, src.GetSize());
    }
    p = {src.GetSize() / k, k, k};
  }
  UpdateDequantParams<D, mode>(p);
  if (!whole) count = p.m * p.n;
  CheckDequantParams(api, src, p);
  if (p.calCount > deqScale.GetSize()) {
    RaiseTrap("%s: params.calCount %u exceeds deqScale (%u elements)", api, p.calCount, deqScale.GetSize());
  }
  CheckUbOperand(api, "deqScale", deqScale, p.calCount);
  const S* sc = deqScale.TwinData();
  DequantRows(api, dst, src, tmp, p, count, [sc](uint32_t y) { return ScaleToFloat(sc[y]); });
}

template <typename D, typename S, DeQuantMode mode>
inline void DequantScalar(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, S deqScale,
                          const LocalTensor<uint8_t>* tmp, DequantParams p) {
  static_assert(kDequantPair<D, S, false>,
                "AscendDequant (scalar deqScale): dstT and scaleT are each float or bfloat16_t");
  UpdateDequantParams<D, mode>(p);
  const float f = ScaleToFloat(deqScale);
  CheckDequantParams("AscendDequant", src, p);
  DequantRows("AscendDequant", dst, src, tmp, p, p.m * p.n, [f](uint32_t) { return f; });
}

}  // namespace quant
}  // namespace twin

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, params, false, 0);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, params, false, 0);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, {}, true, calCount);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, {}, true, calCount);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, {}, true,
                                                 srcTensor.GetSize());
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale) {
  twin::quant::DequantTensor<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, {}, true,
                                                 srcTensor.GetSize());
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
  twin::quant::DequantScalar<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params) {
  twin::quant::DequantScalar<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, params);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_DEQUANT_H_
