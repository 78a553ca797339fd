// Parameter structs of the cube unit's data movement and Mmad (LoadData, LoadDataWithTranspose,
// Load3D, Mmad, InitConstValue): field names, types, order, defaults and constructors as in
// CANN's kernel_struct_mm.h for NpuArch 2201 (Atlas A2/A3).
#ifndef ASC_TWIN_KERNEL_STRUCT_MM_H_
#define ASC_TWIN_KERNEL_STRUCT_MM_H_

#include <cstdint>

#include "kernel_macros.h"

namespace AscendC {

constexpr int32_t PAD_SIZE = 4;

// L1 -> L0A/L0B in 512-byte fractals: repeat i copies fractal startIndex + i * srcStride
// (addrMode 1: minus) to fractal i * (dstGap + 1); ifTranspose transposes each 16x16 (b16) one.
struct LoadData2DParams {
  __aicore__ LoadData2DParams() {}
  __aicore__ LoadData2DParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint8_t sidIn, const uint16_t dstGapIn, const bool ifTransposeIn,
                              const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        dstGap(dstGapIn),
        srcStride(srcStrideIn),
        ifTranspose(ifTransposeIn),
        repeatTimes(repeatTimesIn),
        sid(sidIn),
        addrMode(addrModeIn) {}
  uint16_t startIndex = 0;
  uint16_t dstGap = 0;
  uint16_t srcStride = 0;
  bool ifTranspose = 0;
  uint8_t repeatTimes = 0;
  uint8_t sid = 0;
  uint8_t addrMode = 0;
};
using LoadData2dParams = LoadData2DParams;

// The 3510 (Ascend 950) form: a window of mStep x kStep fractals of an NZ matrix in L1.
struct LoadData2DParamsV2 {
  __aicore__ LoadData2DParamsV2() {}
  __aicore__ LoadData2DParamsV2(const uint32_t mStartPositionIn, const uint32_t kStartPositionIn,
                                const uint16_t mStepIn, const uint16_t kStepIn, const int32_t srcStrideIn,
                                const uint16_t dstStrideIn, const bool ifTransposeIn, const uint8_t sidIn)
      : mStartPosition(mStartPositionIn),
        kStartPosition(kStartPositionIn),
        mStep(mStepIn),
        kStep(kStepIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        ifTranspose(ifTransposeIn),
        sid(sidIn) {}
  uint32_t mStartPosition = 0;
  uint32_t kStartPosition = 0;
  uint16_t mStep = 0;
  uint16_t kStep = 0;
  int32_t srcStride = 0;
  uint16_t dstStride = 0;
  bool ifTranspose = false;
  uint8_t sid = 0;
};

// LoadDataWithTranspose: repeat i transposes the square (16x16 b16/b32, 32x32 b8, 64x64 b4)
// at square startIndex + i * srcStride into fractals at i * (dstGap + 1), (dstFracGap + 1) apart.
struct LoadData2dTransposeParams {
  __aicore__ LoadData2dTransposeParams() {}
  __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                       const uint16_t srcStrideIn, const uint16_t dstGapIn, const uint16_t dstfracGapIn,
                                       const uint8_t addrModeIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn),
        addrMode(addrModeIn) {}
  __aicore__ LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn,
                                       const uint16_t srcStrideIn, const uint16_t dstGapIn, const uint16_t dstfracGapIn)
      : startIndex(startIndexIn),
        repeatTimes(repeatTimesIn),
        srcStride(srcStrideIn),
        dstGap(dstGapIn),
        dstFracGap(dstfracGapIn) {}
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
};

// img2col (Load3D v2) from an NC1HWC0 feature map in L1; the fmatrix (l1H, l1W, padList) comes
// from SetFmatrix, repeats from SetLoadDataRepeat.
template <typename T>
struct LoadData3DParamsV2 {
  __aicore__ LoadData3DParamsV2() {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = 0;
  }
  __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                                const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                                const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                                const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                                const bool enTransposeIn, const bool enSmallKIn, const T padValueIn)
      : l1H(l1HIn),
        l1W(l1WIn),
        channelSize(channelSizeIn),
        kExtension(kExtensionIn),
        mExtension(mExtensionIn),
        kStartPt(kStartPtIn),
        mStartPt(mStartPtIn),
        strideW(strideWIn),
        strideH(strideHIn),
        filterW(filterWIn),
        filterH(filterHIn),
        dilationFilterW(dilationFilterWIn),
        dilationFilterH(dilationFilterHIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        padValue(padValueIn) {
    for (int32_t i = 0; i < PAD_SIZE; ++i) padList[i] = padListIn[i];
  }
  __aicore__ LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], const uint16_t l1HIn, const uint16_t l1WIn,
                                const uint16_t channelSizeIn, const uint16_t kExtensionIn, const uint16_t mExtensionIn,
                                const uint16_t kStartPtIn, const uint16_t mStartPtIn, const uint8_t strideWIn,
                                const uint8_t strideHIn, const uint8_t filterWIn, const uint8_t filterHIn,
                                const uint8_t dilationFilterWIn, const uint8_t dilationFilterHIn,
                                const bool enTransposeIn, const bool enSmallKIn, const T padValueIn,
                                const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn)
      : LoadData3DParamsV2(padListIn, l1HIn, l1WIn, channelSizeIn, kExtensionIn, mExtensionIn, kStartPtIn, mStartPtIn,
                           strideWIn, strideHIn, filterWIn, filterHIn, dilationFilterWIn, dilationFilterHIn,
                           enTransposeIn, enSmallKIn, padValueIn) {
    filterSizeW = filterSizeWIn;
    filterSizeH = filterSizeHIn;
    fMatrixCtrl = fMatrixCtrlIn;
  }
  uint8_t padList[PAD_SIZE] = {0};
  uint16_t l1H = 0;
  uint16_t l1W = 0;
  uint16_t channelSize = 0;
  uint16_t kExtension = 0;
  uint16_t mExtension = 0;
  uint16_t kStartPt = 0;
  uint16_t mStartPt = 0;
  uint8_t strideW = 1;
  uint8_t strideH = 1;
  uint8_t filterW = 1;
  uint8_t filterH = 1;
  uint8_t dilationFilterW = 1;
  uint8_t dilationFilterH = 1;
  bool enTranspose = false;
  bool enSmallK = false;
  T padValue = 0;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
};

// Load3D v2 with its fields packed into two words (see kernel_operator_mm_load3d.h).
struct LoadData3DParamsV2Pro {
  __aicore__ LoadData3DParamsV2Pro() {}
  __aicore__ LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                                   const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                                   const uint64_t extConfigIn, const uint64_t filterConfigIn)
      : channelSize(channelSizeIn),
        enTranspose(enTransposeIn),
        enSmallK(enSmallKIn),
        filterSizeW(filterSizeWIn),
        filterSizeH(filterSizeHIn),
        fMatrixCtrl(fMatrixCtrlIn),
        extConfig(extConfigIn),
        filterConfig(filterConfigIn) {}
  uint16_t channelSize = 0;
  bool enTranspose = false;
  bool enSmallK = false;
  bool filterSizeW = false;
  bool filterSizeH = false;
  bool fMatrixCtrl = false;
  uint64_t extConfig = 0;
  uint64_t filterConfig = 0X10101010101;  // strides, filter sizes and dilations 1
};

struct MmadParams {
  __aicore__ MmadParams() {}
  __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const bool isBiasIn,
                        const int32_t fmOffsetIn, const bool enSsparseIn, const bool enWinogradAIn,
                        const bool enWinogradBIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        isBias(isBiasIn),
        fmOffset(fmOffsetIn),
        enSsparse(enSsparseIn),
        enWinogradA(enWinogradAIn),
        enWinogradB(enWinogradBIn) {}
  __aicore__ MmadParams(const uint16_t mIn, const uint16_t nIn, const uint16_t kIn, const uint8_t unitFlagIn,
                        const bool cmatrixSourceIn, const bool cmatrixInitValIn)
      : m(mIn),
        n(nIn),
        k(kIn),
        unitFlag(unitFlagIn),
        cmatrixSource(cmatrixSourceIn),
        cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: true accumulates onto L0C (C += A x B)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;  // float: L0A/L0B K aligned to 16 instead of 8
  bool cmatrixSource = false;    // true: C starts from the bias table (C2), false: from L0C
  bool cmatrixInitVal = true;    // true: C starts from 0
};

template <typename T>
struct InitConstValueParams {
  __aicore__ InitConstValueParams() {}
  __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                                  const T initValueIn)
      : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
  __aicore__ InitConstValueParams(const uint16_t repeatTimesIn, const T initValueIn)
      : repeatTimes(repeatTimesIn), initValue(initValueIn) {}
  uint16_t repeatTimes = 0;
  uint16_t blockNum = 0;
  uint16_t dstGap = 0;
  T initValue = 0;
};

enum class FmatrixMode : uint8_t {
  FMATRIX_LEFT = 0,
  FMATRIX_RIGHT = 1,
};

struct LoadDataRepeatParam {
  __aicore__ LoadDataRepeatParam() {}
  __aicore__ LoadDataRepeatParam(const uint16_t repeatStrideIn, const uint8_t repeatTimeIn, const uint8_t repeatModeIn)
      : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
  uint16_t repeatStride = 0;
  uint8_t repeatTime = 1;
  uint8_t repeatMode = 0;
  uint8_t reserved = 0;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_STRUCT_MM_H_
