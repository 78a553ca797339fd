// Transpose(dst, src[, sharedTmpBuffer], TransposeType, ConfusionTransposeTiling&): the
// ConfusionTranspose scenarios 1-7 (layout plus reshape, CANN's TransposeType values 1-7).
// The shape comes from the tiling (GetTransposeTilingInfo): [B, N, S, H/N] for 1-6, [H, W] for
// 7. NZ means 16 x 16 fractals: element (r, c) of an R x C matrix (R, C padded to 16) is at
// (c / 16) * R * 16 + r * 16 + c % 16. With hn = H/N and hnP, HP those rounded up to 16:
//   1 NZ2ND_0213:          (b, n) NZ [S, hn]  -> ND [B, S, N, hn]
//   2 NZ2NZ_0213:          (b, n) NZ [S, hn]  -> (b, s) NZ [N, hn]
//   3 NZ2NZ_012_WITH_N:    b NZ [S, H]        -> (b, n) NZ [S, hnP]
//   4 NZ2ND_012_WITH_N:    b NZ [S, H]        -> ND [B, N, S, hn] with rows hnP apart
//   5 NZ2ND_012_WITHOUT_N: (b, n) NZ [S, hnP] -> ND [B, S, H] with rows HP apart
//   6 NZ2NZ_012_WITHOUT_N: (b, n) NZ [S, hnP] -> b NZ [S, HP]
//   7 ND2ND_ONLY:          ND [H, W]          -> ND [W, H]
// Padding columns of the destination are not written.
#ifndef ASC_TWIN_ADV_API_TRANSPOSE_CONFUSION_TRANSPOSE_H_
#define ASC_TWIN_ADV_API_TRANSPOSE_CONFUSION_TRANSPOSE_H_

#include <cstdint>
#include <vector>

#include "adv_api/pad/pad.h"
#include "kernel_operator_vec_transpose_intf.h"
#include "kernel_tiling/data_layout_tmp_size.h"

namespace AscendC {
namespace twin {
namespace adv {

constexpr uint64_t Up16(uint64_t v) { return (v + 15) / 16 * 16; }

// The offset of (r, c) in an NZ matrix of rowsP (a multiple of 16) rows.
constexpr uint64_t NzAt(uint64_t rowsP, uint64_t r, uint64_t c) { return (c / 16) * rowsP * 16 + r * 16 + c % 16; }

template <typename T>
inline void ConfusionTransposeRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                                  TransposeType type, const tiling::ConfusionTransposeTiling& t) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Transpose (ConfusionTranspose) takes 16 or 32-bit types");
  constexpr const char* api = "Transpose";
  const uint32_t scenario = static_cast<uint32_t>(type);
  if (scenario < 1 || scenario > 7)
    RaiseTrap("%s: TransposeType %u is not a ConfusionTranspose scenario (1-7)", api, scenario);
  if (t.param0 != scenario) {
    RaiseTrap(
        "%s: the tiling was made for scenario %u, the call asks for %u (GetTransposeTilingInfo's transposeTypeIn)", api,
        t.param0, scenario);
  }
  if (t.param6 != sizeof(T)) {
    RaiseTrap("%s: the tiling was made for typeSize %u, the tensors hold %u-byte elements", api, t.param6,
              static_cast<unsigned>(sizeof(T)));
  }
  if (tmp != nullptr) {
    CheckLayoutTmp(api, *tmp, AscendC::tiling::layout_tmp::TransposeMinBytes(sizeof(T)), "GetTransposeMaxMinTmpSize");
  }
  const uint64_t B = t.param1, N = t.param2, S = t.param3, hn = t.param4;
  uint64_t srcElems = 0, dstElems = 0;
  const uint64_t H = N * hn, hnP = Up16(hn), HP = Up16(H);
  switch (scenario) {
    case 1:
    case 2:
      srcElems = dstElems = B * N * S * hn;
      break;
    case 3:
      srcElems = B * S * H;
      dstElems = B * N * S * hnP;
      break;
    case 4:
      srcElems = B * S * H;
      dstElems = B * N * S * hnP;
      break;
    case 5:
    case 6:
      srcElems = B * N * S * hnP;
      dstElems = B * S * HP;
      break;
    default:
      srcElems = dstElems = B * N;
      break;  // scenario 7: param1 = H, param2 = W
  }
  if (srcElems == 0) RaiseTrap("%s: the tiling holds an empty shape (was GetTransposeTilingInfo called?)", api);
  CheckUbOperand(api, "src", src, srcElems);
  CheckUbOperand(api, "dst", dst, dstElems);
  LevelTwoDone();
  std::vector<T> copy;
  const T* s = StableSource(dst, src, dstElems, srcElems, &copy);
  T* d = dst.TwinData();
  if (scenario == 7) {
    const uint64_t rows = B, cols = N;
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t c = 0; c < cols; ++c) d[c * rows + r] = s[r * cols + c];
    }
    return;
  }
  for (uint64_t b = 0; b < B; ++b) {
    for (uint64_t n = 0; n < N; ++n) {
      for (uint64_t i = 0; i < S; ++i) {
        for (uint64_t j = 0; j < hn; ++j) {
          const uint64_t h = n * hn + j;
          uint64_t from = 0, to = 0;
          switch (scenario) {
            case 1:
              from = (b * N + n) * S * hn + NzAt(S, i, j);
              to = ((b * S + i) * N + n) * hn + j;
              break;
            case 2:
              from = (b * N + n) * S * hn + NzAt(S, i, j);
              to = (b * S + i) * N * hn + NzAt(N, n, j);
              break;
            case 3:
              from = b * S * H + NzAt(S, i, h);
              to = (b * N + n) * S * hnP + NzAt(S, i, j);
              break;
            case 4:
              from = b * S * H + NzAt(S, i, h);
              to = ((b * N + n) * S + i) * hnP + j;
              break;
            case 5:
              from = (b * N + n) * S * hnP + NzAt(S, i, j);
              to = (b * S + i) * HP + h;
              break;
            default:  // 6
              from = (b * N + n) * S * hnP + NzAt(S, i, j);
              to = b * S * HP + NzAt(S, i, h);
              break;
          }
          d[to] = s[from];
        }
      }
    }
  }
}

}  // namespace adv
}  // namespace twin

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling) {
  twin::adv::ConfusionTransposeRun(dst, src, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling) {
  twin::adv::ConfusionTransposeRun<T>(dst, src, nullptr, transposeType, tiling);
}
// CANN's older name of the same API.
template <typename T>
__aicore__ inline void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                          ConfusionTransposeTiling& tiling) {
  twin::adv::ConfusionTransposeRun(dst, src, &sharedTmpBuffer, transposeType, tiling);
}
template <typename T>
__aicore__ inline void ConfusionTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          TransposeType transposeType, ConfusionTransposeTiling& tiling) {
  twin::adv::ConfusionTransposeRun<T>(dst, src, nullptr, transposeType, tiling);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_TRANSPOSE_CONFUSION_TRANSPOSE_H_
