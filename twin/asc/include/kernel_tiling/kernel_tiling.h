// kernel_tiling/kernel_tiling.h: the tiling structs of Ascend C's high-level API, as a kernel
// reads them (plain structs, CANN's names and field order), filled on the host by the
// functions of tiling/tiling_api.h (twin/tiling). Host code includes this header too.
#ifndef ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_
#define ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_

#include <cstdint>

// ---- activation and normalisation (SoftMaxTiling, LayerNormTiling, RmsNormTiling, ...) ----
// The field lists (type, name) in CANN's order, written once: the kernel structs below and the
// host classes of tiling/tiling_api.h (optiling::, BEGIN_TILING_DATA_DEF) expand the same list,
// so the bytes SaveToBuffer writes are the struct the kernel reads.
// (X-macro lists laid out by hand: the formatter never settles on them.)
// clang-format off
#define ASC_TWIN_SOFTMAX_TILING_FIELDS(F) \
  F(uint32_t, srcM) F(uint32_t, srcK) F(uint32_t, srcSize) F(uint32_t, outMaxM) F(uint32_t, outMaxK) \
  F(uint32_t, outMaxSize) F(uint32_t, splitM) F(uint32_t, splitK) F(uint32_t, splitSize) \
  F(uint32_t, reduceM) F(uint32_t, reduceK) F(uint32_t, reduceSize) F(uint32_t, rangeM) \
  F(uint32_t, tailM) F(uint32_t, tailSplitSize) F(uint32_t, tailReduceSize)
#define ASC_TWIN_LOGSOFTMAX_TILING_FIELDS(F) \
  F(uint32_t, srcM) F(uint32_t, srcK) F(uint32_t, srcSize) F(uint32_t, outMaxM) F(uint32_t, outMaxK) \
  F(uint32_t, outMaxSize) F(uint32_t, splitM) F(uint32_t, splitK) F(uint32_t, splitSize) \
  F(uint32_t, reduceM) F(uint32_t, reduceK) F(uint32_t, reduceSize) F(uint32_t, rangeM) \
  F(uint32_t, tailM) F(uint32_t, tailSplitSize) F(uint32_t, tailReduceSize)
#define ASC_TWIN_LAYERNORM_TILING_FIELDS(F) \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength) \
  F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf) \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos) \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) \
  F(uint32_t, inputTailPos) F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) \
  F(float, lastDimValueBack)
#define ASC_TWIN_LAYERNORM_SEPARATE_TILING_FIELDS(F) \
  F(uint32_t, aLength) F(uint32_t, rLength) F(uint32_t, halfAddRepeatTimes) F(uint32_t, rHeadLength) \
  F(float, k2Rec) F(float, k2RRec) F(uint32_t, inputXSize) F(uint32_t, meanVarSize) \
  F(uint32_t, numberOfTmpBuf) F(uint32_t, varianceTmpTensorPos) F(uint32_t, varianceTmpTensorSize) \
  F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) F(uint32_t, firstTmpStartPos) \
  F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) F(uint32_t, loopRound) \
  F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) \
  F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos) \
  F(uint32_t, arCurLength) F(uint32_t, aCurLength) F(float, rValueBack)
#define ASC_TWIN_LAYERNORM_GRAD_TILING_FIELDS(F) \
  F(uint32_t, stackBufferSize) F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) \
  F(uint32_t, originalHLength) F(uint32_t, oneCalSize) F(uint32_t, nohCalSize) F(uint32_t, loopNum) \
  F(uint32_t, tailSize) F(uint32_t, nohTailSize) F(uint32_t, tmpTensorBSHPos) \
  F(uint32_t, tmpTensorBSHSize) F(uint32_t, pdVarTensorPos) F(uint32_t, pdVarTensorSize) \
  F(uint32_t, pdMeanTensorPos) F(uint32_t, pdMeanTensorSize) F(uint32_t, x1TensorPos) \
  F(uint32_t, x1TensorSize) F(uint32_t, x2TensorPos) F(uint32_t, x2TensorSize) \
  F(uint32_t, x3TensorPos) F(uint32_t, x3TensorSize) F(uint32_t, tmpTensorPos) \
  F(uint32_t, tmpTensorSize) F(uint32_t, tmpTensor1Pos) F(uint32_t, tmpTensor1Size) \
  F(uint32_t, tmpTensor2Pos) F(uint32_t, tmpTensor2Size) F(uint32_t, lastDimValueBack) \
  F(uint32_t, lastDimValueBackMulTwo)
#define ASC_TWIN_LAYERNORM_GRAD_BETA_TILING_FIELDS(F) \
  F(uint32_t, stackBufferSize) F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) \
  F(uint32_t, originalHLength) F(uint32_t, bshLength) F(uint32_t, bsLength) F(uint32_t, oneCalSize) \
  F(uint32_t, numberOfTmpBuf) F(uint32_t, loopRound) F(uint32_t, inputTailSize) \
  F(uint32_t, inputTailPos) F(uint32_t, bsTailSize) F(uint32_t, bshCurLength) \
  F(uint32_t, bsCurLength) F(uint32_t, gammaTempTensorPos) F(uint32_t, betaTempTensorPos) \
  F(uint32_t, inputDyTmpTensorPos) F(uint32_t, resForGammaTmpTensorPos) F(uint32_t, reserved)
#define ASC_TWIN_RMSNORM_TILING_FIELDS(F) \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength) \
  F(float, reciprocalOfHLength) F(uint32_t, mainBshLength) F(uint32_t, mainBsLength) \
  F(uint32_t, mainBsLengthAlign) F(uint32_t, loopRound) F(uint32_t, inputTailPos) \
  F(uint32_t, tailBshLength) F(uint32_t, tailBsLength)
#define ASC_TWIN_DEEPNORM_TILING_FIELDS(F) \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength) \
  F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf) \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos) \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) \
  F(uint32_t, inputTailPos) F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) \
  F(float, lastDimValueBack)
#define ASC_TWIN_BATCHNORM_TILING_FIELDS(F) \
  F(uint32_t, originalBLength) F(uint32_t, meanVarSize) F(uint32_t, meanTmpTensorPos) \
  F(uint32_t, varianceTmpTensorPos) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) \
  F(uint32_t, loopRound) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) \
  F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) \
  F(uint32_t, shCurLength) F(float, firstDimValueBack) F(uint32_t, castHalfRepStride) \
  F(uint32_t, shCurLengthBlockNum) F(uint32_t, castHalfOutRepStride)
#define ASC_TWIN_GROUPNORM_TILING_FIELDS(F) \
  F(uint32_t, n) F(uint32_t, c) F(uint32_t, hw) F(uint32_t, g) F(uint32_t, d) \
  F(uint32_t, hwAlignSize) F(uint32_t, dhwAlignSize) F(uint32_t, inputXSize) \
  F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf) F(uint32_t, meanTmpTensorPos) \
  F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos) \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) \
  F(uint32_t, inputTailPos) F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) F(float, factor) \
  F(bool, smallShape)
// clang-format on

#define ASC_TWIN_TILING_STRUCT_FIELD(type, name) type name;
namespace AscendC {
namespace tiling {
struct SoftMaxTiling {
  ASC_TWIN_SOFTMAX_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct LogSoftMaxTiling {
  ASC_TWIN_LOGSOFTMAX_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct LayerNormTiling {
  ASC_TWIN_LAYERNORM_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct LayerNormSeparateTiling {
  ASC_TWIN_LAYERNORM_SEPARATE_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct LayerNormGradTiling {
  ASC_TWIN_LAYERNORM_GRAD_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct LayerNormGradBetaTiling {
  ASC_TWIN_LAYERNORM_GRAD_BETA_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct RmsNormTiling {
  ASC_TWIN_RMSNORM_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct DeepNormTiling {
  ASC_TWIN_DEEPNORM_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct BatchNormTiling {
  ASC_TWIN_BATCHNORM_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
struct GroupNormTiling {
  ASC_TWIN_GROUPNORM_TILING_FIELDS(ASC_TWIN_TILING_STRUCT_FIELD)
};
}  // namespace tiling
}  // namespace AscendC

// Kernels name them without a namespace (`SoftMaxTiling tiling;`), as CANN's kernel_tiling.h allows.
using SoftMaxTiling = AscendC::tiling::SoftMaxTiling;
using LogSoftMaxTiling = AscendC::tiling::LogSoftMaxTiling;
using LayerNormTiling = AscendC::tiling::LayerNormTiling;
using LayerNormSeparateTiling = AscendC::tiling::LayerNormSeparateTiling;
using LayerNormGradTiling = AscendC::tiling::LayerNormGradTiling;
using LayerNormGradBetaTiling = AscendC::tiling::LayerNormGradBetaTiling;
using RmsNormTiling = AscendC::tiling::RmsNormTiling;
using DeepNormTiling = AscendC::tiling::DeepNormTiling;
using BatchNormTiling = AscendC::tiling::BatchNormTiling;
using GroupNormTiling = AscendC::tiling::GroupNormTiling;

// ---- math, reductions, quantisation, sort, transpose, pad, select ----
#include "kernel_tiling/topk_tiling.h"  // TopkTiling (wp/hlquant)

// ---- data layout: PadTiling, UnPadTiling, ConfusionTransposeTiling ----
#include "kernel_tiling/data_layout_tiling.h"

// ---- cube: TCubeTiling (the Matmul high-level API) ----

// The Matmul high-level API's tiling (CANN's field order: the bytes optiling::TCubeTiling's
// SaveToBuffer writes, all int32_t, so the kernel may copy it word by word).
#pragma pack(push, 8)
struct TCubeTiling {
  int32_t usedCoreNum = 0;
  int32_t M = 0;
  int32_t N = 0;
  int32_t Ka = 0;
  int32_t Kb = 0;
  int32_t singleCoreM = 0;
  int32_t singleCoreN = 0;
  int32_t singleCoreK = 0;
  int32_t baseM = 0;
  int32_t baseN = 0;
  int32_t baseK = 0;
  int32_t depthA1 = 0;
  int32_t depthB1 = 0;
  int32_t stepM = 0;
  int32_t stepN = 0;
  int32_t isBias = 0;
  int32_t transLength = 0;
  int32_t iterateOrder = 0;
  int32_t shareMode = 0;
  int32_t shareL1Size = 0;
  int32_t shareL0CSize = 0;
  int32_t shareUbSize = 0;
  int32_t batchM = 0;
  int32_t batchN = 0;
  int32_t singleBatchM = 0;
  int32_t singleBatchN = 0;
  int32_t stepKa = 0;
  int32_t stepKb = 0;
  int32_t depthAL1CacheUB = 0;
  int32_t depthBL1CacheUB = 0;
  int32_t dbL0A = 0;
  int32_t dbL0B = 0;
  int32_t dbL0C = 0;
  int32_t ALayoutInfoB = 0;
  int32_t ALayoutInfoS = 0;
  int32_t ALayoutInfoN = 0;
  int32_t ALayoutInfoG = 0;
  int32_t ALayoutInfoD = 0;
  int32_t BLayoutInfoB = 0;
  int32_t BLayoutInfoS = 0;
  int32_t BLayoutInfoN = 0;
  int32_t BLayoutInfoG = 0;
  int32_t BLayoutInfoD = 0;
  int32_t CLayoutInfoB = 0;
  int32_t CLayoutInfoS1 = 0;
  int32_t CLayoutInfoN = 0;
  int32_t CLayoutInfoG = 0;
  int32_t CLayoutInfoS2 = 0;
  int32_t BatchNum = 0;
  int32_t mxTypePara = 0;
};
#pragma pack(pop)
namespace AscendC {
namespace tiling {
using TCubeTiling = ::TCubeTiling;  // CANN's newer spelling of the same struct
}  // namespace tiling
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TILING_KERNEL_TILING_H_
