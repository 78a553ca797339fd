// Select with a byte mask (SelectWithBytesMask): dst[i][j] = mask[i][j] == 0 ? src0 : src1 over
// [firstAxis, srcLastAxis], one operand a tensor and the other a scalar; the mask rows are
// maskLastAxis long (>= srcLastAxis, the rest ignored). CANN's constraints trap: the source's
// last axis 32-byte aligned, the mask's 32-byte aligned and a multiple of 16 elements.
#ifndef ASC_TWIN_ADV_API_SELECT_SELECTWITHBYTESMASK_H_
#define ASC_TWIN_ADV_API_SELECT_SELECTWITHBYTESMASK_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct SelectWithBytesMaskShapeInfo {
  __aicore__ SelectWithBytesMaskShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace twin {
namespace adv {

template <typename T, typename U, bool scalarIsSrc1>
inline void SelectBytes(const LocalTensor<T>& dst, const LocalTensor<T>& src, T scalar, const LocalTensor<U>& mask,
                        const LocalTensor<uint8_t>& tmp, const SelectWithBytesMaskShapeInfo& info) {
  const char* api = "Select";
  const uint32_t m = info.firstAxis, k1 = info.srcLastAxis, k2 = info.maskLastAxis;
  if ((static_cast<uint64_t>(k1) * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: srcLastAxis %u * sizeof(T) is not a multiple of 32 bytes", api, k1);
  }
  if ((static_cast<uint64_t>(k2) * sizeof(U)) % ONE_BLK_SIZE != 0 || k2 % 16 != 0) {
    RaiseTrap("%s: maskLastAxis %u must be a multiple of 16 elements and of 32 bytes", api, k2);
  }
  if (k2 < k1) RaiseTrap("%s: maskLastAxis %u is less than srcLastAxis %u", api, k2, k1);
  const uint64_t n = static_cast<uint64_t>(m) * k1;
  CheckUbOperand(api, "dst", dst, n);
  CheckUbOperand(api, "src", src, n);
  CheckUbOperand(api, "mask", mask, static_cast<uint64_t>(m) * k2);
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
  const uint64_t need = asc_twin_tmp::SelectTmpBytes(m, k1);
  if (tmp.GetSize() < need) {
    RaiseTrap(
        "%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes a [%u, %u] source needs (the minimum of "
        "GetSelectMaxMinTmpSize)",
        api, tmp.GetSize(), static_cast<unsigned long long>(need), m, k1);
  }
  LevelTwoDone();
  T* d = dst.TwinData();
  const T* s = src.TwinData();
  const U* mk = mask.TwinData();
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k1; ++c) {
      const bool set = static_cast<float>(mk[static_cast<uint64_t>(r) * k2 + c]) != 0.0f;
      const T v = s[static_cast<uint64_t>(r) * k1 + c];
      d[static_cast<uint64_t>(r) * k1 + c] = (set == scalarIsSrc1) ? scalar : v;
    }
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
  twin::adv::SelectBytes<T, U, true>(dst, src0, src1, mask, sharedTmpBuffer, info);
}
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) {
  twin::adv::SelectBytes<T, U, false>(dst, src1, src0, mask, sharedTmpBuffer, info);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_SELECT_SELECTWITHBYTESMASK_H_
