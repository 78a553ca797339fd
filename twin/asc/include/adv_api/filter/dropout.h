// DropOut: dst = mask ? src * (1 / keepProb) : 0 over [firstAxis, srcLastAxis] (CANN computes
// divValue = 1.0f / keepProb in fp32 and multiplies). Byte mode: one mask byte per element,
// rows maskLastAxis long (>= srcLastAxis); bit mode: one bit per element, least significant bit
// first (CANN's samples), rows maskLastAxis bytes (maskLastAxis * 8 >= srcLastAxis).
// dropOutMode 0 infers the mode from the shapes (maskLastAxis >= srcLastAxis: bytes), 1/2 force
// bytes, 3/4 force bits. keepProb must be in (0, 1).
#ifndef ASC_TWIN_ADV_API_FILTER_DROPOUT_H_
#define ASC_TWIN_ADV_API_FILTER_DROPOUT_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

struct DropOutShapeInfo {
  __aicore__ DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

namespace twin {
namespace adv {

template <typename T, uint32_t dropOutMode>
inline void DropOutImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& mask,
                        const LocalTensor<uint8_t>* tmp, float keepProb, const DropOutShapeInfo& info) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "DropOut takes half or float");
  static_assert(dropOutMode <= 4, "DropOut: dropOutMode is 0 to 4");
  const char* api = "DropOut";
  if (!(keepProb > 0.0f && keepProb < 1.0f)) {
    RaiseTrap("%s: keepProb should be larger than 0 and smaller than 1, current keepProb is %f", api,
              static_cast<double>(keepProb));
  }
  const uint32_t m = info.firstAxis, k = info.srcLastAxis, km = info.maskLastAxis;
  const bool byteMode = dropOutMode == 1 || dropOutMode == 2 || (dropOutMode == 0 && km >= k);
  if (byteMode ? km < k : static_cast<uint64_t>(km) * 8 < k) {
    RaiseTrap("%s: maskLastAxis %u is too short for srcLastAxis %u in %s mode", api, km, k, byteMode ? "byte" : "bit");
  }
  const uint64_t n = static_cast<uint64_t>(m) * k;
  CheckUbOperand(api, "dstLocal", dst, n);
  CheckUbOperand(api, "srcLocal", src, n);
  CheckUbOperand(api, "maskLocal", mask, static_cast<uint64_t>(m) * km);
  if (tmp != nullptr) {
    CheckUbOperand(api, "sharedTmpBuffer", *tmp, 0);
    const uint64_t need = asc_twin_tmp::DropOutTmpBytes(n);
    if (tmp->GetSize() < need) {
      RaiseTrap(
          "%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes a [%u, %u] source needs (the minimum "
          "of GetDropOutMaxMinTmpSize)",
          api, tmp->GetSize(), static_cast<unsigned long long>(need), m, k);
    }
  }
  LevelTwoDone();
  const float divValue = 1.0f / keepProb;
  T* d = dst.TwinData();
  const T* s = src.TwinData();
  const uint8_t* mk = mask.TwinData();
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const uint8_t* row = mk + static_cast<uint64_t>(r) * km;
      const bool keep = byteMode ? row[c] != 0 : ((row[c / 8] >> (c % 8)) & 1) != 0;
      const uint64_t i = static_cast<uint64_t>(r) * k + c;
      d[i] = static_cast<T>(keep ? static_cast<float>(s[i]) * divValue : 0.0f);
    }
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info) {
  twin::adv::DropOutImpl<T, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info) {
  twin::adv::DropOutImpl<T, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_FILTER_DROPOUT_H_
