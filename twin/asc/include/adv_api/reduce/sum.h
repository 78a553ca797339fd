// Sum: dst[i] = the sum of the first n elements of row i (outter rows, inner elements apart,
// inner = n rounded up to 32 bytes). half is accumulated in fp32 and rounded once.
#ifndef ASC_TWIN_ADV_API_REDUCE_SUM_H_
#define ASC_TWIN_ADV_API_REDUCE_SUM_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;  // n rounded up to 32 bytes of T
  uint32_t n;      // the elements of a row that count
};

namespace twin {
namespace adv {

template <typename T, typename Acc>
inline void RowReduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t outter,
                      uint32_t inner, uint32_t n, bool mean) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "Sum/Mean take half or float");
  if (n == 0 || n > inner) RaiseTrap("%s: n %u must be in [1, inner %u]", api, n, inner);
  if ((static_cast<uint64_t>(inner) * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: inner %u * sizeof(T) is not a multiple of 32 bytes", api, inner);
  }
  CheckUbOperand(api, "srcTensor", src, static_cast<uint64_t>(outter) * inner);
  CheckUbOperand(api, "dstTensor", dst, outter);
  LevelTwoDone();
  const T* s = src.TwinData();
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < outter; ++r) {
    float acc = 0.0f;
    for (uint32_t c = 0; c < n; ++c) acc += static_cast<float>(s[static_cast<uint64_t>(r) * inner + c]);
    d[r] = static_cast<T>(mean ? acc / static_cast<float>(n) : acc);
  }
}

template <typename T>
inline void CheckRowTmp(const char* api, const LocalTensor<uint8_t>& tmp, uint32_t n) {
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
  const uint64_t need = asc_twin_tmp::SumTmpBytes(n, sizeof(T));
  if (tmp.GetSize() < need) {
    RaiseTrap(
        "%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes rows of %u elements need (the minimum "
        "of Get%sMaxMinTmpSize)",
        api, tmp.GetSize(), static_cast<unsigned long long>(need), n, api);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
  twin::adv::CheckRowTmp<T>("Sum", sharedTmpBuffer, sumParams.n);
  twin::adv::RowReduce<T, float>("Sum", dstTensor, srcTensor, sumParams.outter, sumParams.inner, sumParams.n, false);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const SumParams& sumParams) {
  twin::adv::RowReduce<T, float>("Sum", dstTensor, srcTensor, sumParams.outter, sumParams.inner, sumParams.n, false);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_REDUCE_SUM_H_
