// ReduceSum / ReduceMax / ReduceMin / ReduceProd / ReduceMean / ReduceAll / ReduceAny over the R
// axes of srcShape (pattern: Pattern::Reduce::AR, RA, ARA, ...). The source is row-major with
// its last axis padded to 32 bytes when srcInnerPad (CANN: the samples' layout); the result is
// the kept (A) axes, row-major, its last axis padded the same way when the last source axis is
// kept. Floats accumulate in fp32 and round once; nan propagates through Max/Min.
#ifndef ASC_TWIN_ADV_API_REDUCE_REDUCE_H_
#define ASC_TWIN_ADV_API_REDUCE_REDUCE_H_

#include <cstring>

#include "adv_api/math/math_common_impl.h"
#include "adv_api/reduce/reduce_common.h"

namespace AscendC {
namespace twin {
namespace adv {

enum class ReduceOp { kSum, kMax, kMin, kProd, kMean, kAll, kAny };

template <typename T, class pattern, ReduceOp op>
inline void ReduceImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const LocalTensor<uint8_t>* tmp, const uint32_t srcShape[], bool srcInnerPad) {
  constexpr const char* axes = pattern::kAxes;
  const uint32_t dims = static_cast<uint32_t>(std::strlen(axes));
  const uint32_t align = ONE_BLK_SIZE / sizeof(T);
  uint64_t stride[9] = {};
  uint64_t outStride[9] = {};
  uint64_t srcCount = 1, outCount = 1, reduced = 1;
  // strides of the source (last axis padded when srcInnerPad) and of the kept axes in dst
  for (int32_t d = static_cast<int32_t>(dims) - 1; d >= 0; --d) {
    if (srcShape[d] == 0) RaiseTrap("%s: srcShape[%d] is 0", api, d);
    const uint64_t len =
        (d == static_cast<int32_t>(dims) - 1 && srcInnerPad) ? (srcShape[d] + align - 1) / align * align : srcShape[d];
    stride[d] = srcCount;
    srcCount *= len;
    if (axes[d] == 'A') {
      const uint64_t olen = (d == static_cast<int32_t>(dims) - 1 && srcInnerPad)
                                ? (srcShape[d] + align - 1) / align * align
                                : srcShape[d];
      outStride[d] = outCount;
      outCount *= olen;
    } else {
      reduced *= srcShape[d];
    }
  }
  CheckUbOperand(api, "srcTensor", src, srcCount);
  CheckUbOperand(api, "dstTensor", dst, outCount);
  if (tmp != nullptr) {
    CheckUbOperand(api, "sharedTmpBuffer", *tmp, 0);
    const uint64_t need = asc_twin_tmp::ReduceTmpBytes(outCount);
    if (tmp->GetSize() < need) {
      RaiseTrap(
          "%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes its %llu results need (the minimum "
          "of Get%sMaxMinTmpSize)",
          api, tmp->GetSize(), static_cast<unsigned long long>(need), static_cast<unsigned long long>(outCount), api);
    }
  }
  LevelTwoDone();
  using Acc = std::conditional_t<std::is_floating_point<Wide<T>>::value, float, Wide<T>>;
  uint32_t keptDim[9], redDim[9];
  uint32_t nKept = 0, nRed = 0;
  for (uint32_t d = 0; d < dims; ++d) (axes[d] == 'A' ? keptDim[nKept++] : redDim[nRed++]) = d;
  const T* s = src.TwinData();
  T* out = dst.TwinData();
  uint32_t kIdx[9] = {};
  for (;;) {  // every kept index (padding slots of dst are left as they were)
    uint64_t base = 0, oo = 0;
    for (uint32_t i = 0; i < nKept; ++i) {
      base += kIdx[i] * stride[keptDim[i]];
      oo += kIdx[i] * outStride[keptDim[i]];
    }
    uint32_t rIdx[9] = {};
    bool first = true;
    Acc a = Acc(0);
    for (;;) {  // every reduced index, in source order
      uint64_t so = base;
      for (uint32_t i = 0; i < nRed; ++i) so += rIdx[i] * stride[redDim[i]];
      const Acc v = static_cast<Acc>(static_cast<Wide<T>>(s[so]));
      if (first) {
        if constexpr (op == ReduceOp::kAll || op == ReduceOp::kAny)
          a = static_cast<Acc>(v != Acc(0));
        else
          a = v;
        first = false;
      } else if constexpr (op == ReduceOp::kSum || op == ReduceOp::kMean) {
        a += v;
      } else if constexpr (op == ReduceOp::kProd) {
        a *= v;
      } else if constexpr (op == ReduceOp::kMax) {
        a = (v != v || v > a) ? v : a;
      } else if constexpr (op == ReduceOp::kMin) {
        a = (v != v || v < a) ? v : a;
      } else if constexpr (op == ReduceOp::kAll) {
        a = static_cast<Acc>(a != Acc(0) && v != Acc(0));
      } else {
        a = static_cast<Acc>(a != Acc(0) || v != Acc(0));
      }
      int32_t i = static_cast<int32_t>(nRed) - 1;
      for (; i >= 0; --i) {
        if (++rIdx[i] < srcShape[redDim[i]]) break;
        rIdx[i] = 0;
      }
      if (i < 0) break;
    }
    if constexpr (op == ReduceOp::kMean) a = a / static_cast<Acc>(reduced);
    out[oo] = static_cast<T>(a);
    int32_t i = static_cast<int32_t>(nKept) - 1;
    for (; i >= 0; --i) {
      if (++kIdx[i] < srcShape[keptDim[i]]) break;
      kIdx[i] = 0;
    }
    if (i < 0) break;
  }
}

}  // namespace adv
}  // namespace twin

#define ASC_TWIN_REDUCE_API(Name, OP)                                                                          \
  template <class T, class pattern, bool isReuseSource = false>                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                \
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],          \
                              bool srcInnerPad) {                                                              \
    twin::adv::ReduceImpl<T, pattern, twin::adv::ReduceOp::OP>(#Name, dstTensor, srcTensor, &sharedTmpBuffer,  \
                                                               srcShape, srcInnerPad);                         \
  }                                                                                                            \
  template <class T, class pattern, bool isReuseSource = false>                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                \
                              const uint32_t srcShape[], bool srcInnerPad) {                                   \
    twin::adv::ReduceImpl<T, pattern, twin::adv::ReduceOp::OP>(#Name, dstTensor, srcTensor, nullptr, srcShape, \
                                                               srcInnerPad);                                   \
  }

ASC_TWIN_REDUCE_API(ReduceSum, kSum)
ASC_TWIN_REDUCE_API(ReduceMax, kMax)
ASC_TWIN_REDUCE_API(ReduceMin, kMin)
ASC_TWIN_REDUCE_API(ReduceProd, kProd)
ASC_TWIN_REDUCE_API(ReduceMean, kMean)
ASC_TWIN_REDUCE_API(ReduceAll, kAll)
ASC_TWIN_REDUCE_API(ReduceAny, kAny)
#undef ASC_TWIN_REDUCE_API

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_REDUCE_REDUCE_H_
