// adv_api/normalization/rmsnorm.h: RmsNorm over the last axis of [B, S, H]:
//   y = x / sqrt(mean(x^2) + epsilon) * gamma   (mean over originalHLength data columns)
// isBasicBlock needs H a multiple of 64 and B * S a multiple of 8 (CANN's constraint).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_RMSNORM_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_RMSNORM_H_

#include "adv_api/normalization/norm_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
inline void RmsNormTile(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                        const LocalTensor<uint8_t>* tmp, T epsilon, const RmsNormTiling& tiling, bool isBasicBlock) {
  const char* api = "RmsNorm";
  NormTile t{tiling.bLength * tiling.sLength, tiling.hLength, tiling.originalHLength};
  if (t.oriK == 0) t.oriK = t.k;
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  if (isBasicBlock && (t.k % 64 != 0 || t.rows % 8 != 0)) {
    RaiseTrap("%s: isBasicBlock = true needs H a multiple of 64 and B * S a multiple of 8 (got %u x %u)", api, t.rows,
              t.k);
  }
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "dstLocal", dst, n);
  NeedOperand(api, "srcLocal", src, n);
  NeedOperand(api, "gammaLocal", gamma, t.k);
  if (tmp != nullptr) {
    NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, ::AscendC::tiling::twin_tmp::kNormFloatRows));
  }
  NormIo<T, T, float> io;
  io.dst = dst.TwinData();
  io.x = src.TwinData();
  io.gamma = gamma.TwinData();
  io.epsilon = static_cast<float>(epsilon);
  io.rms = true;
  NormRows(t, io, tmp);
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling) {
  twin::adv::RmsNormTile(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling, isBasicBlock);
}

template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
  twin::adv::RmsNormTile(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling, isBasicBlock);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_RMSNORM_H_
