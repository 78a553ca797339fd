// TransData<config>(dst, src[, sharedTmpBuffer], TransDataParams{srcLayout, dstLayout}): the
// four format changes of 16-bit data CANN documents, C split into C1 x 16 and N into N1 x 16
// (the padded channels written as 0). The NCDHW shape [N, C, D, H, W] is the NCDHW side's layout
// shape; an NCDHW tensor in UB has each (n, c, d) plane of H*W elements padded to 32 bytes
// (hwP = H*W rounded up to 16), as input (the caller pads it) and as output (written as 0).
//   NCDHW -> NDC1HWC0      [N, D, C1, H*W, 16]
//   NDC1HWC0 -> NCDHW
//   NCDHW -> FRACTAL_Z_3D  [D, C1, H*W, N1, 16 (n), 16 (c)]
//   FRACTAL_Z_3D -> NCDHW
#ifndef ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_H_
#define ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_H_

#include <cstdint>
#include <type_traits>

#include "adv_api/pad/pad.h"
#include "adv_api/transpose/transdata_layout.h"
#include "kernel_tiling/data_layout_tmp_size.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

namespace twin {
namespace adv {

template <const TransDataConfig& config, typename T, typename U, typename S>
inline void TransDataRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                         const TransDataParams<U, S>& params) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
                    std::is_same<T, uint16_t>::value || std::is_same<T, int16_t>::value,
                "TransData takes half, bfloat16_t, uint16_t or int16_t");
  static_assert(is_layout_v<U> && is_layout_v<S>, "TransData: srcLayout and dstLayout must be layouts");
  constexpr DataFormat from = config.srcFormat, to = config.dstFormat;
  constexpr bool toNdc = from == DataFormat::NCDHW && to == DataFormat::NDC1HWC0;
  constexpr bool fromNdc = from == DataFormat::NDC1HWC0 && to == DataFormat::NCDHW;
  constexpr bool toFz = from == DataFormat::NCDHW && to == DataFormat::FRACTAL_Z_3D;
  constexpr bool fromFz = from == DataFormat::FRACTAL_Z_3D && to == DataFormat::NCDHW;
  static_assert(toNdc || fromNdc || toFz || fromFz,
                "TransData converts NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D only");
  using SrcShape = std::remove_cv_t<std::remove_reference_t<decltype(params.srcLayout.GetShape())>>;
  using DstShape = std::remove_cv_t<std::remove_reference_t<decltype(params.dstLayout.GetShape())>>;
  constexpr size_t srcDims = Std::tuple_size<SrcShape>::value, dstDims = Std::tuple_size<DstShape>::value;
  constexpr size_t otherDims = (toNdc || fromNdc) ? 6 : 7;
  static_assert((from == DataFormat::NCDHW ? srcDims : dstDims) == 5, "TransData: the NCDHW layout has 5 dims");
  static_assert((from == DataFormat::NCDHW ? dstDims : srcDims) == otherDims,
                "TransData: the NDC1HWC0 layout has 6 dims, the FRACTAL_Z_3D one 7");
  constexpr const char* api = "TransData";
  const auto& ncdhw = [&]() -> const auto& {
    if constexpr (from == DataFormat::NCDHW)
      return params.srcLayout.GetShape();
    else
      return params.dstLayout.GetShape();
  }();
  const int64_t n = Std::get<0>(ncdhw), c = Std::get<1>(ncdhw), d = Std::get<2>(ncdhw), h = Std::get<3>(ncdhw),
                w = Std::get<4>(ncdhw);
  if (n <= 0 || c <= 0 || d <= 0 || h <= 0 || w <= 0) {
    RaiseTrap("%s: the NCDHW shape [%lld, %lld, %lld, %lld, %lld] has a dim below 1", api, static_cast<long long>(n),
              static_cast<long long>(c), static_cast<long long>(d), static_cast<long long>(h),
              static_cast<long long>(w));
  }
  const uint64_t hw = static_cast<uint64_t>(h * w), hwP = (hw + 15) / 16 * 16;
  const uint64_t c1 = (static_cast<uint64_t>(c) + 15) / 16, n1 = (static_cast<uint64_t>(n) + 15) / 16;
  const uint64_t N = static_cast<uint64_t>(n), C = static_cast<uint64_t>(c), D = static_cast<uint64_t>(d);
  const uint64_t ncdhwElems = N * C * D * hwP;
  const uint64_t otherElems = (toNdc || fromNdc) ? N * D * c1 * hw * 16 : D * c1 * hw * n1 * 256;
  if (tmp != nullptr) {
    CheckLayoutTmp(api, *tmp, AscendC::tiling::layout_tmp::TransDataMinBytes(C, D, h, w, sizeof(T)),
                   "GetTransDataMaxMinTmpSize");
  }
  constexpr bool intoNcdhw = fromNdc || fromFz;
  CheckUbOperand(api, "srcTensor", src, intoNcdhw ? otherElems : ncdhwElems);
  CheckUbOperand(api, "dstTensor", dst, intoNcdhw ? ncdhwElems : otherElems);
  const T* s = src.TwinData();
  T* o = dst.TwinData();
  if (s < o + (intoNcdhw ? ncdhwElems : otherElems) && o < s + (intoNcdhw ? otherElems : ncdhwElems)) {
    RaiseTrap("%s: srcTensor and dstTensor overlap (CANN does not support it)", api);
  }
  LevelTwoDone();
  // the other format's offset of (n, c, d, p); the padded channels and batches are zero-filled first
  auto other = [&](uint64_t ni, uint64_t ci, uint64_t di, uint64_t p) -> uint64_t {
    if constexpr (toNdc || fromNdc) {
      return (((ni * D + di) * c1 + ci / 16) * hw + p) * 16 + ci % 16;
    } else {
      return ((((di * c1 + ci / 16) * hw + p) * n1 + ni / 16) * 16 + ni % 16) * 16 + ci % 16;
    }
  };
  const T zero = static_cast<T>(0);
  if constexpr (!intoNcdhw) {
    for (uint64_t i = 0; i < otherElems; ++i) o[i] = zero;
  }
  for (uint64_t ni = 0; ni < N; ++ni) {
    for (uint64_t ci = 0; ci < C; ++ci) {
      for (uint64_t di = 0; di < D; ++di) {
        const uint64_t plane = ((ni * C + ci) * D + di) * hwP;
        for (uint64_t p = 0; p < hw; ++p) {
          if constexpr (intoNcdhw) {
            o[plane + p] = s[other(ni, ci, di, p)];
          } else {
            o[other(ni, ci, di, p)] = s[plane + p];
          }
        }
        if constexpr (intoNcdhw) {
          for (uint64_t p = hw; p < hwP; ++p) o[plane + p] = zero;
        }
      }
    }
  }
}

}  // namespace adv
}  // namespace twin

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params) {
  twin::adv::TransDataRun<config, T, U, S>(dstTensor, srcTensor, &sharedTmpBuffer, params);
}
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params) {
  twin::adv::TransDataRun<config, T, U, S>(dstTensor, srcTensor, nullptr, params);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_H_
