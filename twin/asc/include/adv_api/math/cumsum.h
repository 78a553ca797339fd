// CumSum over a 2-D [outter, inner] source: isLastAxis sums along each row (column j is the
// sum of columns 0..j), otherwise down the first axis (row i is the sum of rows 0..i).
// outputLastRow also writes the last row of the result (inner elements) to lastRowTensor; in
// last-axis mode that is the result's last row too. inner * sizeof(T) must be a multiple of
// 32 bytes (CANN's constraint). The running sum is kept in fp32 for half, each output rounded.
#ifndef ASC_TWIN_ADV_API_MATH_CUMSUM_H_
#define ASC_TWIN_ADV_API_MATH_CUMSUM_H_

#include "adv_api/math/math_common_impl.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};  // inner * sizeof(T) a multiple of 32 bytes
};

namespace twin {
namespace adv {
template <typename T, const CumSumConfig& config>
inline void CumSumImpl(const LocalTensor<T>& dst, const LocalTensor<T>& lastRow, const LocalTensor<T>& src,
                       const CumSumInfo& info) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "CumSum takes half or float");
  if ((static_cast<uint64_t>(info.inner) * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("CumSum: cumSumInfo.inner %u * sizeof(T) is not a multiple of 32 bytes", info.inner);
  }
  const uint64_t n = static_cast<uint64_t>(info.outter) * info.inner;
  CheckUbOperand("CumSum", "dstTensor", dst, n);
  CheckUbOperand("CumSum", "srcTensor", src, n);
  if (config.outputLastRow) CheckUbOperand("CumSum", "lastRowTensor", lastRow, info.inner);
  LevelTwoDone();
  T* d = dst.TwinData();
  const T* s = src.TwinData();
  if (config.isLastAxis) {
    for (uint32_t r = 0; r < info.outter; ++r) {
      float acc = 0.0f;
      for (uint32_t c = 0; c < info.inner; ++c) {
        acc += static_cast<float>(s[r * info.inner + c]);
        d[r * info.inner + c] = static_cast<T>(acc);
      }
    }
  } else {
    for (uint32_t c = 0; c < info.inner; ++c) {
      float acc = 0.0f;
      for (uint32_t r = 0; r < info.outter; ++r) {
        acc += static_cast<float>(s[r * info.inner + c]);
        d[r * info.inner + c] = static_cast<T>(acc);
      }
    }
  }
  if (config.outputLastRow && info.outter > 0) {
    T* l = lastRow.TwinData();
    for (uint32_t c = 0; c < info.inner; ++c) l[c] = d[(info.outter - 1) * info.inner + c];
  }
}
}  // namespace adv
}  // namespace twin

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
  const uint32_t n = cumSumInfo.outter * cumSumInfo.inner;
  twin::CheckUbOperand("CumSum", "sharedTmpBuffer", sharedTmpBuffer, 0);
  const uint64_t need = asc_twin_tmp::MinTmpBytes(asc_twin_tmp::FloatNodes(sizeof(T), 1), n, sizeof(T));
  if (sharedTmpBuffer.GetSize() < need) {
    twin::RaiseTrap(
        "CumSum: sharedTmpBuffer holds %u bytes, less than the %llu bytes %u x %u elements need (the "
        "minimum of GetCumSumMaxMinTmpSize)",
        sharedTmpBuffer.GetSize(), static_cast<unsigned long long>(need), cumSumInfo.outter, cumSumInfo.inner);
  }
  twin::adv::CumSumImpl<T, config>(dstTensor, lastRowTensor, srcTensor, cumSumInfo);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo) {
  twin::adv::CumSumImpl<T, config>(dstTensor, lastRowTensor, srcTensor, cumSumInfo);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATH_CUMSUM_H_
