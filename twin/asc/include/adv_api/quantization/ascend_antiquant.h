// AscendAntiQuant: int8_t / int4b_t -> half / bfloat16_t, dst = scale * (src + offset), per
// channel (offset/scale tensors, grouped along K) or per tensor (scalars), with or without
// offset, with CANN's template head <InputDataType, OutputDataType, isTranspose> and six call
// forms. src is [K, N] (isTranspose = false: offset/scale are [K / groupSize, N],
// dst[i][j] = scale[i / groupSize][j] * (src[i][j] + offset[i / groupSize][j])) or [N, K]
// (isTranspose = true: offset/scale are [N, K / groupSize], indexed [i][j / groupSize]); N is
// src.GetSize() / k. The offset/scale shape comes from AntiQuantShapeInfo, else from the
// tensors' ShapeInfo (LocalTensor::SetShapeInfo), else [1, size] (transposed: [size, 1]).
// The A2/A3 sequences: half output casts src to half (exact) and adds, then multiplies, in
// half (each step rounded to half); bfloat16 output goes through fp32 (src -> half -> fp32,
// offset and scale cast to fp32, add, multiply) and rounds once to bfloat16 (ties to even).
#ifndef ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_ANTIQUANT_H_
#define ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_ANTIQUANT_H_

#include "adv_api/quantization/quant_common.h"
#include "kernel_int4.h"

namespace AscendC {

struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

namespace twin {
namespace quant {

struct ParamShape {
  uint32_t height;
  uint32_t width;
};

template <typename O>
inline ParamShape ParamShapeOf(const LocalTensor<O>& t, uint32_t h, uint32_t w, bool isTranspose) {
  if (h != 0 && w != 0) return {h, w};
  const ShapeInfo s = t.GetShapeInfo();
  if (s.shapeDim == 2) return {s.shape[0], s.shape[1]};
  if (s.shapeDim == 1) return isTranspose ? ParamShape{s.shape[0], 1} : ParamShape{1, s.shape[0]};
  return isTranspose ? ParamShape{t.GetSize(), 1} : ParamShape{1, t.GetSize()};
}

template <typename I, typename O, bool isTranspose>
inline void AntiQuantRun(const LocalTensor<O>& dst, const LocalTensor<I>& src, const LocalTensor<O>* offset,
                         const LocalTensor<O>* scale, O offsetScalar, O scaleScalar, const LocalTensor<uint8_t>* tmp,
                         uint32_t k, const AntiQuantShapeInfo& info) {
  static_assert(std::is_same<I, int8_t>::value || std::is_same<I, int4b_t>::value,
                "AscendAntiQuant: InputDataType is int8_t or int4b_t");
  static_assert(std::is_same<O, half>::value || std::is_same<O, bfloat16_t>::value,
                "AscendAntiQuant: OutputDataType is half or bfloat16_t");
  constexpr const char* api = "AscendAntiQuant";
  const uint32_t count = src.GetSize();
  if (k == 0 || count % k != 0) RaiseTrap("%s: k %u does not divide the source's %u elements", api, k, count);
  const uint32_t n = count / k;
  if (isTranspose && k * sizeof(I) % ONE_BLK_SIZE != 0 && !kIsInt4<I>) {
    RaiseTrap("%s: with isTranspose, k %u must be 32-byte aligned", api, k);
  }
  if (isTranspose && kIsInt4<I> && k % 64 != 0) RaiseTrap("%s: with isTranspose, k %u must be 32-byte aligned", api, k);
  ParamShape ps{1, 1};
  uint32_t group = 1;
  if (scale != nullptr) {
    ps = ParamShapeOf(offset != nullptr ? *offset : *scale, offset != nullptr ? info.offsetHeight : info.scaleHeight,
                      offset != nullptr ? info.offsetWidth : info.scaleWidth, isTranspose);
    const ParamShape ss = ParamShapeOf(*scale, info.scaleHeight, info.scaleWidth, isTranspose);
    if (ss.height != ps.height || ss.width != ps.width) {
      RaiseTrap("%s: offset shape [%u, %u] differs from scale shape [%u, %u]", api, ps.height, ps.width, ss.height,
                ss.width);
    }
    const uint32_t rows = isTranspose ? n : k, cols = isTranspose ? k : n;
    const uint32_t outer = isTranspose ? ps.height : ps.width;    // must equal N
    const uint32_t grouped = isTranspose ? ps.width : ps.height;  // K / groupSize
    if (outer != (isTranspose ? rows : cols) || grouped == 0 || k % grouped != 0) {
      RaiseTrap("%s: offset/scale shape [%u, %u] does not fit the source [%u, %u] (k %u, isTranspose %d)", api,
                ps.height, ps.width, rows, cols, k, isTranspose ? 1 : 0);
    }
    group = k / grouped;
    if (offset != nullptr) CheckUbOperand(api, "offset", *offset, uint64_t{ps.height} * ps.width);
    CheckUbOperand(api, "scale", *scale, uint64_t{ps.height} * ps.width);
  }
  CheckUbOperand(api, "dst", dst, count);
  CheckUbOperand(api, "src", src, count);
  if (tmp != nullptr) {
    CheckTmp(api, *tmp, asc_twin_tmp::AntiQuantTmpBytes(count, uint64_t{ps.height} * ps.width).min,
             "GetAscendAntiQuantMaxMinTmpSize");
  }
  LevelTwoDone();
  const O* of = offset != nullptr ? offset->TwinData() : nullptr;
  const O* sc = scale != nullptr ? scale->TwinData() : nullptr;
  O* d = dst.TwinData();
  for (uint32_t e = 0; e < count; ++e) {
    const uint32_t i = e / (isTranspose ? k : n), j = e % (isTranspose ? k : n);
    O o = offsetScalar, s = scaleScalar;
    if (sc != nullptr) {
      const uint64_t p = isTranspose ? uint64_t{i} * ps.width + j / group : uint64_t{i / group} * ps.width + j;
      s = sc[p];
      o = of != nullptr ? of[p] : O(0.0f);
    }
    const int8_t q = static_cast<int8_t>(LoadElem(src.TwinData(), e));
    if constexpr (std::is_same<O, half>::value) {
      d[e] = HalfMul(HalfAdd(static_cast<half>(static_cast<float>(q)), o), s);
    } else {
      d[e] = static_cast<O>((static_cast<float>(q) + static_cast<float>(o)) * static_cast<float>(s));
    }
  }
}

}  // namespace quant
}  // namespace twin

template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(
      dst, src, &offset, &scale, OutputDataType(0.0f), OutputDataType(1.0f), &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(
      dst, src, nullptr, &scale, OutputDataType(0.0f), OutputDataType(1.0f), &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                        &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(
      dst, src, nullptr, nullptr, OutputDataType(0.0f), scale, &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, &scale, OutputDataType(0.0f),
                                                                        OutputDataType(1.0f), nullptr, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  twin::quant::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, nullptr, offset, scale,
                                                                        nullptr, k, shapeInfo);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_QUANTIZATION_ASCEND_ANTIQUANT_H_
