// The normalisation APIs' host tiling: temporary sizes (kernel_tiling/softmax_norm_tmp_size.h,
// the rule the kernels check) and the tiling struct fills. Shapes: LayerNorm / LayerNormGrad /
// LayerNormGradBeta [B, S, H] or [B, S, H, originalH]; RmsNorm / DeepNorm [B, S, H] with the
// original H in originSrcShape; the separate LayerNorm and Normalize [A, R]. The pass fields
// (rows per pass, loop rounds, tails) describe what a stack buffer of the given size allows; the
// twin's kernels read the lengths.
#include "tiling/normalization/deepnorm_tiling.h"
#include "tiling/normalization/layernorm_grad_beta_tiling.h"
#include "tiling/normalization/layernorm_grad_tiling.h"
#include "tiling/normalization/layernorm_tiling.h"
#include "tiling/normalization/normalize_tiling.h"
#include "tiling/normalization/rmsnorm_tiling.h"
#include "tiling/normalization/welfordfinalize_tiling.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel_tiling/softmax_norm_tmp_size.h"
#include "tiling_log.h"

namespace {

using AscendC::tiling::twin_tmp::RowBytes;
using AscendC::tiling::twin_tmp::TileBytes;

struct Bsh {
  uint32_t b = 0, s = 0, h = 0, oriH = 0;
  uint32_t rows() const { return b * s; }
};

// [B, S, H] (or, with allowOriginal, [B, S, H, originalH]); false with one error line.
bool ParseBsh(const char* api, const ge::Shape& shape, uint32_t typeSize, bool allowOriginal, Bsh* out) {
  const std::vector<int64_t> d = shape.GetDims();
  if (d.size() != 3 && !(allowOriginal && d.size() == 4)) {
    ASC_TWIN_TILING_ERROR("%s: srcShape has %zu dims; expected [B, S, H]%s", api, d.size(),
                          allowOriginal ? " or [B, S, H, originalH]" : "");
    return false;
  }
  for (int64_t v : d) {
    if (v < 0 || v > 0xFFFFFFFFll) {
      ASC_TWIN_TILING_ERROR("%s: srcShape has a dim %lld outside [0, 2^32)", api, static_cast<long long>(v));
      return false;
    }
  }
  if (typeSize != 2 && typeSize != 4) {
    ASC_TWIN_TILING_ERROR("%s: typeSize %u is not 2 (half) or 4 (float)", api, typeSize);
    return false;
  }
  out->b = static_cast<uint32_t>(d[0]);
  out->s = static_cast<uint32_t>(d[1]);
  out->h = static_cast<uint32_t>(d[2]);
  out->oriH = d.size() == 4 ? static_cast<uint32_t>(d[3]) : out->h;
  if (uint64_t{out->b} * out->s * out->h > 0xFFFFFFFFull) {
    ASC_TWIN_TILING_ERROR("%s: srcShape has more elements than a 32-bit count holds", api);
    return false;
  }
  if ((uint64_t{out->h} * typeSize) % 32 != 0) {
    ASC_TWIN_TILING_ERROR("%s: H = %u is not 32-byte aligned (%u bytes); pad it to a multiple of %u", api, out->h,
                          out->h * typeSize, 32 / typeSize);
    return false;
  }
  if (out->oriH == 0 || out->oriH > out->h) {
    ASC_TWIN_TILING_ERROR("%s: originalH = %u is 0 or exceeds H = %u", api, out->oriH, out->h);
    return false;
  }
  return true;
}

// [A, R]: R is the padded row.
bool ParseAr(const char* api, const ge::Shape& shape, uint32_t typeSize, uint32_t* a, uint32_t* r) {
  const std::vector<int64_t> d = shape.GetDims();
  if (d.size() != 2 || d[0] < 0 || d[1] < 0 || d[0] > 0xFFFFFFFFll || d[1] > 0xFFFFFFFFll) {
    ASC_TWIN_TILING_ERROR("%s: srcShape must be [A, R] with dims in [0, 2^32) (%zu dims given)", api, d.size());
    return false;
  }
  if (typeSize != 2 && typeSize != 4) {
    ASC_TWIN_TILING_ERROR("%s: typeSize %u is not 2 (half) or 4 (float)", api, typeSize);
    return false;
  }
  *a = static_cast<uint32_t>(d[0]);
  *r = static_cast<uint32_t>(d[1]);
  return true;
}

// Rows one pass takes from a stack buffer of `bytes`: 0 (with an error line) if not even one.
uint32_t RowsPerPass(const char* api, uint32_t rows, uint32_t h, uint32_t bytes, uint32_t floatRows) {
  const uint32_t row = RowBytes(h, floatRows);
  if (rows == 0) return 0;
  if (bytes < row) {
    ASC_TWIN_TILING_ERROR("%s: stackBufferSize %u is below the minimum of %u bytes for H = %u", api, bytes, row, h);
    return 0;
  }
  return std::min(rows, bytes / row);
}

constexpr uint32_t kNorm = AscendC::tiling::twin_tmp::kNormFloatRows;
constexpr uint32_t kGrad = AscendC::tiling::twin_tmp::kGradFloatRows;

// The LayerNorm / DeepNorm layout (the same fields).
template <typename Tiling>
bool FillLayerNormLike(const char* api, const Bsh& x, uint32_t stackBytes, Tiling* t) {
  *t = Tiling{};
  const uint32_t rows = x.rows();
  const uint32_t pass = RowsPerPass(api, rows, x.h, stackBytes, kNorm);
  if (rows != 0 && pass == 0) return false;
  t->bLength = x.b;
  t->sLength = x.s;
  t->hLength = x.h;
  t->originalHLength = x.oriH;
  t->inputXSize = rows * x.h;
  t->meanVarSize = rows;
  t->numberOfTmpBuf = kNorm;
  t->meanTmpTensorPos = 0;
  t->meanTmpTensorSize = pass;
  t->varianceTmpTensorPos = pass;
  t->varianceTmpTensorSize = pass;
  t->tmpBufSize = stackBytes / 4;
  t->oneTmpSize = pass * x.h;
  t->firstTmpStartPos = 2 * pass;
  t->secondTmpStartPos = t->firstTmpStartPos + t->oneTmpSize;
  t->thirdTmpStartPos = t->secondTmpStartPos + t->oneTmpSize;
  t->loopRound = pass == 0 ? 0 : rows / pass;
  t->inputRoundSize = pass * x.h;
  t->inputTailSize = pass == 0 ? 0 : (rows % pass) * x.h;
  t->inputTailPos = t->loopRound * t->inputRoundSize;
  t->meanVarRoundSize = pass;
  t->meanVarTailSize = pass == 0 ? 0 : rows % pass;
  t->meanVarTailPos = t->loopRound * pass;
  t->bshCurLength = pass * x.h;
  t->bsCurLength = pass;
  t->lastDimValueBack = 1.0f / static_cast<float>(x.oriH);
  return true;
}

}  // namespace

namespace AscendC {

// ---- LayerNorm (classic) ----

void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                               uint32_t& minValue) {
  Bsh x;
  maxValue = minValue = 0;
  if (!ParseBsh("GetLayerNormMaxMinTmpSize", srcShape, typeSize, true, &x)) return;
  minValue = RowBytes(x.h, kNorm);
  maxValue = TileBytes(x.rows(), x.h, kNorm);
}

void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool, AscendC::tiling::LayerNormTiling& tiling) {
  Bsh x;
  tiling = AscendC::tiling::LayerNormTiling{};
  if (!ParseBsh("GetLayerNormNDTilingInfo", srcShape, typeSize, true, &x)) return;
  FillLayerNormLike("GetLayerNormNDTilingInfo", x, stackBufferSize, &tiling);
}

void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool isReuseSource, optiling::LayerNormTiling& tiling) {
  AscendC::tiling::LayerNormTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_LAYERNORM_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

void GetLayerNormNDTillingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                               const bool isReuseSource, optiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

// ---- LayerNorm (separate: mean / rstd outputs) ----

void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, const bool, const bool,
                               uint32_t& maxValue, uint32_t& minValue) {
  uint32_t a = 0, r = 0;
  maxValue = minValue = 0;
  if (!ParseAr("GetLayerNormMaxMinTmpSize", srcShape, typeSize, &a, &r)) return;
  minValue = RowBytes(r, kNorm);
  maxValue = TileBytes(a, r, kNorm);
}

void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool, const bool, AscendC::tiling::LayerNormSeparateTiling& tiling) {
  const char* api = "GetLayerNormNDTilingInfo";
  tiling = AscendC::tiling::LayerNormSeparateTiling{};
  uint32_t a = 0, r = 0;
  if (!ParseAr(api, srcShape, typeSize, &a, &r)) return;
  const uint32_t pass = RowsPerPass(api, a, r, stackBufferSize, kNorm);
  if (a != 0 && pass == 0) return;
  tiling.aLength = a;
  tiling.rLength = r;
  tiling.rHeadLength = r;
  tiling.k2Rec = r == 0 ? 0.0f : 1.0f / static_cast<float>(r);
  tiling.k2RRec = tiling.k2Rec;
  tiling.inputXSize = a * r;
  tiling.meanVarSize = a;
  tiling.numberOfTmpBuf = kNorm;
  tiling.varianceTmpTensorPos = 0;
  tiling.varianceTmpTensorSize = pass;
  tiling.tmpBufSize = stackBufferSize / 4;
  tiling.oneTmpSize = pass * r;
  tiling.firstTmpStartPos = pass;
  tiling.secondTmpStartPos = tiling.firstTmpStartPos + tiling.oneTmpSize;
  tiling.thirdTmpStartPos = tiling.secondTmpStartPos + tiling.oneTmpSize;
  tiling.loopRound = pass == 0 ? 0 : a / pass;
  tiling.inputRoundSize = pass * r;
  tiling.inputTailSize = pass == 0 ? 0 : (a % pass) * r;
  tiling.inputTailPos = tiling.loopRound * tiling.inputRoundSize;
  tiling.meanVarRoundSize = pass;
  tiling.meanVarTailSize = pass == 0 ? 0 : a % pass;
  tiling.meanVarTailPos = tiling.loopRound * pass;
  tiling.arCurLength = pass * r;
  tiling.aCurLength = pass;
  tiling.rValueBack = tiling.k2Rec;
}

void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                              const bool isReuseSource, const bool isComputeRstd,
                              optiling::LayerNormSeparateTiling& tiling) {
  AscendC::tiling::LayerNormSeparateTiling t;
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_LAYERNORM_SEPARATE_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

// ---- WelfordUpdate / WelfordFinalize / Normalize: element-wise or row-wise in place ----

void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                   const bool, const bool, uint32_t& maxValue, uint32_t& minValue) {
  uint32_t rn = 0, ab = 0;
  maxValue = minValue = 0;
  if (!ParseAr("GetWelfordUpdateMaxMinTmpSize", srcShape, typeSizeT, &rn, &ab)) return;
  if (typeSizeU != 4) ASC_TWIN_TILING_ERROR("GetWelfordUpdateMaxMinTmpSize: typeSizeU %u is not 4 (float)", typeSizeU);
  // the twin updates each element in registers: no temporary space
}

void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                     uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  if (srcShape.GetDims().empty()) ASC_TWIN_TILING_ERROR("GetWelfordFinalizeMaxMinTmpSize: srcShape has no dims");
  if (typeSize != 4) ASC_TWIN_TILING_ERROR("GetWelfordFinalizeMaxMinTmpSize: typeSize %u is not 4 (float)", typeSize);
}

void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                               const bool, const bool, const bool, uint32_t& maxValue, uint32_t& minValue) {
  uint32_t a = 0, r = 0;
  maxValue = minValue = 0;
  if (!ParseAr("GetNormalizeMaxMinTmpSize", srcShape, typeSizeT, &a, &r)) return;
  if (typeSizeU != 2 && typeSizeU != 4) {
    ASC_TWIN_TILING_ERROR("GetNormalizeMaxMinTmpSize: typeSizeU %u is not 2 or 4", typeSizeU);
    return;
  }
  minValue = RowBytes(r, kNorm);
  maxValue = TileBytes(a, r, kNorm);
}

// ---- LayerNormGrad / LayerNormGradBeta ----

void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                                   uint32_t& minValue) {
  Bsh x;
  maxValue = minValue = 0;
  if (!ParseBsh("GetLayerNormGradMaxMinTmpSize", srcShape, typeSize, true, &x)) return;
  minValue = RowBytes(x.h, kGrad);
  maxValue = TileBytes(x.rows(), x.h, kGrad);
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                  const bool, AscendC::tiling::LayerNormGradTiling& tiling) {
  const char* api = "GetLayerNormGradNDTilingInfo";
  tiling = AscendC::tiling::LayerNormGradTiling{};
  Bsh x;
  if (!ParseBsh(api, srcShape, typeSize, true, &x)) return;
  const uint32_t rows = x.rows();
  const uint32_t pass = RowsPerPass(api, rows, x.h, stackBufferSize, kGrad);
  if (rows != 0 && pass == 0) return;
  tiling.stackBufferSize = stackBufferSize;
  tiling.bLength = x.b;
  tiling.sLength = x.s;
  tiling.hLength = x.h;
  tiling.originalHLength = x.oriH;
  tiling.oneCalSize = pass * x.h;
  tiling.nohCalSize = pass;
  tiling.loopNum = pass == 0 ? 0 : rows / pass;
  tiling.tailSize = pass == 0 ? 0 : (rows % pass) * x.h;
  tiling.nohTailSize = pass == 0 ? 0 : rows % pass;
  tiling.tmpTensorBSHPos = 0;
  tiling.tmpTensorBSHSize = pass * x.h;
  tiling.pdVarTensorPos = tiling.tmpTensorBSHSize;
  tiling.pdVarTensorSize = pass;
  tiling.pdMeanTensorPos = tiling.pdVarTensorPos + pass;
  tiling.pdMeanTensorSize = pass;
  tiling.x1TensorPos = tiling.pdMeanTensorPos + pass;
  tiling.x1TensorSize = pass * x.h;
  // the twin's kernel holds two float rows per pass; the other CANN scratch slots stay empty
  tiling.lastDimValueBack = 0;  // CANN keeps 1/H here as the bits of a float, in a uint32_t field
  const float inv = 1.0f / static_cast<float>(x.oriH), inv2 = 2.0f * inv;
  static_assert(sizeof(float) == sizeof(uint32_t), "float bits in a uint32_t field");
  std::memcpy(&tiling.lastDimValueBack, &inv, sizeof(inv));
  std::memcpy(&tiling.lastDimValueBackMulTwo, &inv2, sizeof(inv2));
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                  const bool isReuseSource, optiling::LayerNormGradTiling& tiling) {
  AscendC::tiling::LayerNormGradTiling t;
  GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_LAYERNORM_GRAD_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool,
                                       uint32_t& maxValue, uint32_t& minValue) {
  Bsh x;
  maxValue = minValue = 0;
  if (!ParseBsh("GetLayerNormGradBetaMaxMinTmpSize", srcShape, typeSize, true, &x)) return;
  minValue = maxValue = RowBytes(x.h, kGrad);  // two float accumulators of H, whatever B * S
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool,
                                      AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  const char* api = "GetLayerNormGradBetaNDTilingInfo";
  tiling = AscendC::tiling::LayerNormGradBetaTiling{};
  Bsh x;
  if (!ParseBsh(api, srcShape, typeSize, true, &x)) return;
  const uint32_t rows = x.rows();
  if (rows != 0 && stackBufferSize < RowBytes(x.h, kGrad)) {
    ASC_TWIN_TILING_ERROR("%s: stackBufferSize %u is below the minimum of %u bytes for H = %u", api, stackBufferSize,
                          RowBytes(x.h, kGrad), x.h);
    return;
  }
  tiling.stackBufferSize = stackBufferSize;
  tiling.bLength = x.b;
  tiling.sLength = x.s;
  tiling.hLength = x.h;
  tiling.originalHLength = x.oriH;
  tiling.bshLength = rows * x.h;
  tiling.bsLength = rows;
  tiling.oneCalSize = rows * x.h;
  tiling.numberOfTmpBuf = kGrad;
  tiling.loopRound = rows == 0 ? 0 : 1;
  tiling.bshCurLength = rows * x.h;
  tiling.bsCurLength = rows;
  tiling.gammaTempTensorPos = 0;
  tiling.betaTempTensorPos = x.h;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      optiling::LayerNormGradBetaTiling& tiling) {
  AscendC::tiling::LayerNormGradBetaTiling t;
  GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_LAYERNORM_GRAD_BETA_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

// ---- RmsNorm ----

namespace {
bool BasicBlockOk(const char* api, const Bsh& x, bool isBasicBlock, uint32_t maxH) {
  if (!isBasicBlock) return true;
  if (x.h % 64 != 0 || x.h > maxH || x.rows() % 8 != 0) {
    ASC_TWIN_TILING_ERROR("%s: isBasicBlock needs H a multiple of 64 up to %u and B * S a multiple of 8 (got %u x %u)",
                          api, maxH, x.rows(), x.h);
    return false;
  }
  return true;
}

// srcShape's [B, S, H] with originSrcShape's H as the original.
bool ParseWithOrigin(const char* api, const ge::Shape& src, const ge::Shape& origin, uint32_t typeSize, Bsh* x) {
  Bsh o;
  if (!ParseBsh(api, src, typeSize, false, x)) return false;
  const std::vector<int64_t> d = origin.GetDims();
  if (d.size() != 3 || d[0] != x->b || d[1] != x->s || d[2] <= 0 || d[2] > x->h) {
    ASC_TWIN_TILING_ERROR("%s: originSrcShape must be [B, S, originalH] with B, S of srcShape and 0 < originalH <= %u",
                          api, x->h);
    return false;
  }
  x->oriH = static_cast<uint32_t>(d[2]);
  return true;
}
}  // namespace

bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                             uint32_t& minValue, const bool isBasicBlock) {
  const char* api = "GetRmsNormMaxMinTmpSize";
  Bsh x;
  maxValue = minValue = 0;
  if (!ParseBsh(api, srcShape, typeSize, false, &x) || !BasicBlockOk(api, x, isBasicBlock, 0xFFFFFFFFu)) return false;
  minValue = RowBytes(x.h, kNorm);
  maxValue = TileBytes(x.rows(), x.h, kNorm);
  return true;
}

bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock) {
  const char* api = "GetRmsNormTilingInfo";
  tiling = AscendC::tiling::RmsNormTiling{};
  Bsh x;
  if (!ParseWithOrigin(api, srcShape, originSrcShape, typeSize, &x)) return false;
  if (!BasicBlockOk(api, x, isBasicBlock, 0xFFFFFFFFu)) return false;
  const uint32_t rows = x.rows();
  const uint32_t pass = RowsPerPass(api, rows, x.h, stackBufferByteSize, kNorm);
  if (rows != 0 && pass == 0) return false;
  tiling.bLength = x.b;
  tiling.sLength = x.s;
  tiling.hLength = x.h;
  tiling.originalHLength = x.oriH;
  tiling.reciprocalOfHLength = 1.0f / static_cast<float>(x.oriH);
  tiling.mainBshLength = pass * x.h;
  tiling.mainBsLength = pass;
  tiling.mainBsLengthAlign = (pass + 7) / 8 * 8;
  tiling.loopRound = pass == 0 ? 0 : rows / pass;
  tiling.inputTailPos = tiling.loopRound * tiling.mainBshLength;
  tiling.tailBsLength = pass == 0 ? 0 : rows % pass;
  tiling.tailBshLength = tiling.tailBsLength * x.h;
  return true;
}

bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                          const uint32_t stackBufferByteSize, const uint32_t typeSize, optiling::RmsNormTiling& tiling,
                          const bool isBasicBlock) {
  AscendC::tiling::RmsNormTiling t;
  const bool ok = GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, t, isBasicBlock);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_RMSNORM_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
  return ok;
}

// ---- DeepNorm ----

bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, const bool isBasicBlock,
                              uint32_t& maxValue, uint32_t& minValue) {
  const char* api = "GetDeepNormMaxMinTmpSize";
  Bsh x;
  maxValue = minValue = 0;
  if (!ParseBsh(api, srcShape, typeSize, false, &x) || !BasicBlockOk(api, x, isBasicBlock, 2040)) return false;
  minValue = RowBytes(x.h, kNorm);
  maxValue = TileBytes(x.rows(), x.h, kNorm);
  return true;
}

bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize, const bool, const bool isBasicBlock,
                           AscendC::tiling::DeepNormTiling& tiling) {
  const char* api = "GetDeepNormTilingInfo";
  tiling = AscendC::tiling::DeepNormTiling{};
  Bsh x;
  if (!ParseWithOrigin(api, srcShape, originSrcShape, typeSize, &x)) return false;
  if (!BasicBlockOk(api, x, isBasicBlock, 2040)) return false;
  return FillLayerNormLike(api, x, stackBufferSize, &tiling);
}

bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                           const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
  AscendC::tiling::DeepNormTiling t;
  const bool ok =
      GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_DEEPNORM_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
  return ok;
}

}  // namespace AscendC
