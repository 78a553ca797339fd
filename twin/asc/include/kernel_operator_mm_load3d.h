// Load3D v2 (img2col) L1 -> L0A/L0B: LoadData with LoadData3DParamsV2 and the registers it
// shares with the other Load3D forms (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary,
// SetLoadDataRepeat), NpuArch 2201. The transform: asc_twin/cube_load3d.h. As in CANN, the V2
// call writes the fmatrix (l1H, l1W, padList) and the padding value from its params unless the
// IsResetLoad3dConfig template argument says otherwise; the V2 Pro form (LoadData3DParamsV2Pro)
// reads them from the registers only. SetLoadDataBoundary wraps reads past it to L1's start.
#ifndef ASC_TWIN_KERNEL_OPERATOR_MM_LOAD3D_H_
#define ASC_TWIN_KERNEL_OPERATOR_MM_LOAD3D_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/block_state.h"
#include "asc_twin/cube_checks.h"
#include "asc_twin/cube_load3d.h"
#include "kernel_struct_mm.h"
#include "kernel_tensor.h"

namespace AscendC {

struct IsResetLoad3dConfig {
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

__aicore__ inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4],
                                  const FmatrixMode& fmatrixMode) {
  twin::CubeRegs& r = twin::Block().vec.cube;
  const int i = fmatrixMode == FmatrixMode::FMATRIX_RIGHT ? 1 : 0;
  r.fmatrixH[i] = l1H;
  r.fmatrixW[i] = l1W;
  for (int j = 0; j < 4; ++j) r.fmatrixPad[i][j] = padList[j];
  r.fmatrixSet[i] = true;
}

template <typename T>
__aicore__ inline void SetLoadDataPaddingValue(const T padValue) {
  static_assert(sizeof(T) <= 8, "SetLoadDataPaddingValue: element types of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, &padValue, sizeof(T));
  twin::Block().vec.cube.load3dPadBits = bits;
}

__aicore__ inline void SetLoadDataBoundary(uint32_t boundaryValue) {
  twin::Block().vec.cube.load3dBoundary = boundaryValue;
}

__aicore__ inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams) {
  twin::CubeRegs& r = twin::Block().vec.cube;
  r.load3dRepeatStride = repeatParams.repeatStride;
  r.load3dRepeatTime = repeatParams.repeatTime;
  r.load3dRepeatMode = repeatParams.repeatMode;
}

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p) {
  constexpr const char* api = "LoadData(Load3Dv2)";
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
      "LoadData with LoadData3DParamsV2: int4b_t, int8_t, uint8_t, half, bfloat16_t, float, int32_t, uint32_t");
  twin::CubeRegs& regs = twin::Block().vec.cube;
  if (defaultConfig.isSetFMatrix) SetFmatrix(p.l1H, p.l1W, p.padList, FmatrixMode::FMATRIX_LEFT);
  if (defaultConfig.isSetPadding) SetLoadDataPaddingValue(p.padValue);
  if (p.mExtension == 0 || p.kExtension == 0) return;
  twin::RequireTensor(api, "dst", dst);
  twin::RequireTensor(api, "src", src);
  const TPosition sp = twin::PosOf(src), dp = twin::PosOf(dst);
  if (!twin::InL1(sp)) twin::RaiseTrap("%s: src position %s is not in L1 (A1, B1, C1)", api, twin::PositionName(sp));
  twin::RequireL0Dst(api, dp);
  twin::RequireAligned(api, "dst", dst, twin::kFractalBytes);
  twin::RequireAligned(api, "src", src, ONE_BLK_SIZE);
  if (regs.load3dRepeatTime > 1) {
    twin::RaiseTrap("%s: SetLoadDataRepeat repeatTime %u: repeated Load3D is not modelled by the twin (use 1)", api,
                    regs.load3dRepeatTime);
  }
  if (p.strideW == 0 || p.strideH == 0 || p.filterW == 0 || p.filterH == 0 || p.dilationFilterW == 0 ||
      p.dilationFilterH == 0) {
    twin::RaiseTrap("%s: strideW %u, strideH %u, filterW %u, filterH %u and the dilations must all be at least 1", api,
                    p.strideW, p.strideH, p.filterW, p.filterH);
  }
  const int fi = 0;  // the left fmatrix: the one the V2 call sets
  if (!regs.fmatrixSet[fi]) twin::RaiseTrap("%s: no fmatrix set (SetFmatrix, or the default config)", api);
  constexpr uint32_t c0 = twin::C0Elems<T>();
  twin::cube::Img2ColShape s{};
  s.h = regs.fmatrixH[fi];
  s.w = regs.fmatrixW[fi];
  s.channels = p.channelSize;
  s.padLeft = regs.fmatrixPad[fi][0];
  s.padRight = regs.fmatrixPad[fi][1];
  s.padTop = regs.fmatrixPad[fi][2];
  s.padBottom = regs.fmatrixPad[fi][3];
  s.kw = p.filterW + (p.filterSizeW ? 256u : 0u);
  s.kh = p.filterH + (p.filterSizeH ? 256u : 0u);
  s.strideW = p.strideW;
  s.strideH = p.strideH;
  s.dilW = p.dilationFilterW;
  s.dilH = p.dilationFilterH;
  s.mStart = p.mStartPt;
  s.kStart = p.kStartPt;
  s.mExt = p.mExtension;
  s.kExt = p.kExtension;
  s.transpose = p.enTranspose;
  s.intoL0B = dp == TPosition::B2;
  const uint64_t c1 = twin::CeilDivU(p.channelSize, c0);
  twin::RequireElems(api, "src", src, c1 * s.h * s.w * c0, "C1 x l1H x l1W x C0 of the feature map");
  const uint32_t rows = s.transpose ? s.kExt : s.mExt, cols = s.transpose ? s.mExt : s.kExt;
  twin::RequireElems(
      api, "dst", dst,
      uint64_t{twin::CeilDivU(rows, twin::kCubeBlock)} * twin::CeilDivU(cols, c0) * twin::FractalElems<T>(),
      "mExtension x kExtension in 16 x C0 fractals");
  if (regs.load3dBoundary != 0) {
    if constexpr (twin::kIsInt4<T>) {
      twin::RaiseTrap("%s: SetLoadDataBoundary with int4b_t is not modelled by the twin", api);
    } else {
      const uint64_t at = static_cast<uint64_t>(src.Bytes() - twin::MemoryHolding(src).base);
      if (at >= regs.load3dBoundary) {
        twin::RaiseTrap("%s: src L1 address %llu is not inside the SetLoadDataBoundary boundary (%u B)", api,
                        static_cast<unsigned long long>(at), regs.load3dBoundary);
      }
      s.fmAt = at / sizeof(T);
      s.boundary = regs.load3dBoundary / sizeof(T);
    }
  }
  T pad;
  std::memcpy(&pad, &regs.load3dPadBits, sizeof(T));
  twin::cube::RunImg2Col<T>(dst.TwinData(), src.TwinData(), s, pad);
}

// Load3D v2 Pro: the V2 fields packed (extConfig: mStartPt << 48 | kStartPt << 32 |
// mExtension << 16 | kExtension; filterConfig: dilationFilterH << 40 | dilationFilterW << 32 |
// filterH << 24 | filterW << 16 | strideH << 8 | strideW); the fmatrix and the padding value
// come from the registers only (SetFmatrix, SetLoadDataPaddingValue).
namespace twin {
constexpr IsResetLoad3dConfig kLoad3dFromRegisters = {false, false};
}  // namespace twin

template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2Pro& loadDataParams) {
  const LoadData3DParamsV2Pro& p = loadDataParams;
  LoadData3DParamsV2<T> v2;
  v2.channelSize = p.channelSize;
  v2.kExtension = static_cast<uint16_t>(p.extConfig);
  v2.mExtension = static_cast<uint16_t>(p.extConfig >> 16);
  v2.kStartPt = static_cast<uint16_t>(p.extConfig >> 32);
  v2.mStartPt = static_cast<uint16_t>(p.extConfig >> 48);
  v2.strideW = static_cast<uint8_t>(p.filterConfig);
  v2.strideH = static_cast<uint8_t>(p.filterConfig >> 8);
  v2.filterW = static_cast<uint8_t>(p.filterConfig >> 16);
  v2.filterH = static_cast<uint8_t>(p.filterConfig >> 24);
  v2.dilationFilterW = static_cast<uint8_t>(p.filterConfig >> 32);
  v2.dilationFilterH = static_cast<uint8_t>(p.filterConfig >> 40);
  v2.enTranspose = p.enTranspose;
  v2.enSmallK = p.enSmallK;
  v2.filterSizeW = p.filterSizeW;
  v2.filterSizeH = p.filterSizeH;
  v2.fMatrixCtrl = p.fMatrixCtrl;
  LoadData<T, twin::kLoad3dFromRegisters>(dst, src, v2);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_MM_LOAD3D_H_
