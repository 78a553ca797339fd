// The data-layout high-level APIs' host tiling: Pad / UnPad ([height, width]), Broadcast (rank 1
// or 2), the ConfusionTranspose scenarios of Transpose and TransData. Temporary sizes follow
// kernel_tiling/data_layout_tmp_size.h, the rule the kernels check; the pass fields describe
// what a stack buffer of the given size allows (the twin's kernels read the shape fields).
#include <cstdint>
#include <vector>

#include "kernel_tiling/data_layout_tmp_size.h"
#include "tiling/pad/broadcast_tiling.h"
#include "tiling/pad/pad_tiling.h"
#include "tiling/transpose/confusion_transpose_tiling.h"
#include "tiling/transpose/transdata_tiling.h"
#include "tiling_log.h"

namespace {

namespace lt = AscendC::tiling::layout_tmp;

bool CheckTypeSize(const char* api, uint32_t typeSize, bool allowByte) {
  if (typeSize == 2 || typeSize == 4 || (allowByte && typeSize == 1)) return true;
  ASC_TWIN_TILING_ERROR("%s: typeSize %u is not %s", api, typeSize, allowByte ? "1, 2 or 4" : "2 or 4");
  return false;
}

// The dims of shape, each in [1, 2^32), and their product below 2^32; false with one error line.
bool ParseDims(const char* api, const char* role, const ge::Shape& shape, size_t rank, std::vector<uint32_t>* out) {
  const std::vector<int64_t> d = shape.GetDims();
  if (d.size() != rank) {
    ASC_TWIN_TILING_ERROR("%s: %s has %zu dims; expected %zu", api, role, d.size(), rank);
    return false;
  }
  uint64_t elems = 1;
  out->clear();
  for (int64_t v : d) {
    if (v <= 0 || v > 0xFFFFFFFFll) {
      ASC_TWIN_TILING_ERROR("%s: %s has a dim %lld outside [1, 2^32)", api, role, static_cast<long long>(v));
      return false;
    }
    elems *= static_cast<uint64_t>(v);
    if (elems > 0xFFFFFFFFull) {
      ASC_TWIN_TILING_ERROR("%s: %s has more elements than a 32-bit count holds", api, role);
      return false;
    }
    out->push_back(static_cast<uint32_t>(v));
  }
  return true;
}

uint32_t Clamp32(uint64_t v) { return v > 0xFFFFFFFFull ? 0xFFFFFFFFu : static_cast<uint32_t>(v); }

// Rows of rowBytes that fit stackBytes (at least 1 when it holds one row; 0 logs).
uint32_t RowsPerPass(const char* api, uint32_t rows, uint64_t rowBytes, uint32_t stackBytes) {
  if (rowBytes == 0) return rows;
  const uint64_t fit = stackBytes / rowBytes;
  if (fit == 0) {
    ASC_TWIN_TILING_ERROR(
        "%s: stackBufferSize %u is below one row of %llu bytes (the minimum of the MaxMinTmpSize "
        "function)",
        api, stackBytes, static_cast<unsigned long long>(rowBytes));
    return 0;
  }
  return fit < rows ? static_cast<uint32_t>(fit) : rows;
}

}  // namespace

namespace AscendC {

// ---- Pad ----

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  std::vector<uint32_t> d;
  if (!CheckTypeSize("GetPadMaxMinTmpSize", typeSize, false)) return;
  if (!ParseDims("GetPadMaxMinTmpSize", "srcShape", srcShape, 2, &d)) return;
  minValue = Clamp32(lt::PadMinBytes(d[1], typeSize));
  maxValue = Clamp32(lt::PadMaxBytes(d[0], d[1], typeSize));
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
  constexpr const char* api = "PadTilingFunc";
  tiling = AscendC::tiling::PadTiling{};
  std::vector<uint32_t> d, o;
  if (!CheckTypeSize(api, typeSize, false)) return;
  if (!ParseDims(api, "srcShape", srcShape, 2, &d) || !ParseDims(api, "oriSrcShape", oriSrcShape, 2, &o)) return;
  if (o[0] != d[0] || o[1] > d[1]) {
    ASC_TWIN_TILING_ERROR("%s: oriSrcShape [%u, %u] does not fit srcShape [%u, %u] (same height, width at most)", api,
                          o[0], o[1], d[0], d[1]);
    return;
  }
  const uint32_t perBlock = 32 / typeSize;
  const bool aligned = (d[1] % perBlock) == 0;
  if (aligned && o[1] == d[1]) {
    ASC_TWIN_TILING_ERROR("%s: width %u is 32-byte aligned and all valid: nothing to pad", api, d[1]);
    return;
  }
  const uint64_t rowBytes = lt::AlignedRowBytes(d[1], typeSize);
  const uint32_t pass = RowsPerPass(api, d[0], rowBytes, stackBufferSize);
  if (pass == 0) return;
  tiling.srcHeight = d[0];
  tiling.srcWidth = d[1];
  tiling.srcOriWidth = o[1];
  tiling.blocksPerRow = static_cast<uint32_t>(rowBytes / 32);
  tiling.widthWithoutLastBlock = aligned ? d[1] - perBlock : d[1] / perBlock * perBlock;
  tiling.heightTiling = pass;
  tiling.heightFractal = d[0] / pass;
  tiling.heightFractalTail = d[0] % pass;
  tiling.mainLoopOffset = pass * d[1];
  tiling.tailBlockOffset = tiling.widthWithoutLastBlock;
  tiling.tmpBuffer1BlockNum = static_cast<uint32_t>(stackBufferSize / 32);
  tiling.tmpBuffer1RowNum = pass;
  tiling.tmpBuffer2Offset = static_cast<uint32_t>(pass * rowBytes);
  tiling.widthTiling = pass;
  tiling.widthFractal = d[0] / pass;
  tiling.widthFractalTail = d[0] % pass;
  tiling.widthFractalTailAlingned = (d[0] % pass + 7) / 8 * 8;
  tiling.maxRepeatTimes = 255;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, optiling::PadTiling& tiling) {
  AscendC::tiling::PadTiling t;
  PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_PAD_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

// ---- UnPad ----

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape, const uint32_t typeSize,
                           uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  std::vector<uint32_t> d;
  if (!CheckTypeSize("GetUnPadMaxMinTmpSize", typeSize, false)) return;
  if (!ParseDims("GetUnPadMaxMinTmpSize", "srcShape", srcShape, 2, &d)) return;
  minValue = Clamp32(lt::PadMinBytes(d[1], typeSize));
  maxValue = Clamp32(lt::PadMaxBytes(d[0], d[1], typeSize));
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling) {
  constexpr const char* api = "UnPadTilingFunc";
  tiling = AscendC::tiling::UnPadTiling{};
  std::vector<uint32_t> d;
  if (!CheckTypeSize(api, typeSize, false)) return;
  if (!ParseDims(api, "srcShape", srcShape, 2, &d)) return;
  if ((uint64_t{d[1]} * typeSize) % 32 != 0) {
    ASC_TWIN_TILING_ERROR("%s: width %u is not 32-byte aligned (%llu bytes); UnPad takes an aligned width", api, d[1],
                          static_cast<unsigned long long>(uint64_t{d[1]} * typeSize));
    return;
  }
  const uint64_t rowBytes = lt::AlignedRowBytes(d[1], typeSize);
  const uint32_t pass = RowsPerPass(api, d[0], rowBytes, stackBufferSize);
  if (pass == 0) return;
  tiling.srcHeight = d[0];
  tiling.srcWidth = d[1];
  tiling.tmpBuffer1BlockNum = static_cast<uint32_t>(stackBufferSize / 32);
  tiling.tmpBuffer1RowNum = pass;
  tiling.tmpBuffer2Offset = static_cast<uint32_t>(pass * rowBytes);
  tiling.widthTiling = pass;
  tiling.widthFractal = d[0] / pass;
  tiling.widthFractalTail = d[0] % pass;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     optiling::UnPadTiling& tiling) {
  AscendC::tiling::UnPadTiling t;
  UnPadTilingFunc(srcShape, stackBufferSize, typeSize, t);
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_UNPAD_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

// ---- Broadcast ----

void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                               const ge::Shape& dstShape, uint32_t typeSize, const bool, uint32_t& maxValue,
                               uint32_t& minValue) {
  constexpr const char* api = "GetBroadCastMaxMinTmpSize";
  maxValue = minValue = 0;
  std::vector<uint32_t> s, d;
  if (!CheckTypeSize(api, typeSize, true)) return;
  const size_t rank = srcShape.GetDimNum();
  if (rank != 1 && rank != 2) {
    ASC_TWIN_TILING_ERROR("%s: srcShape has %zu dims; Broadcast takes 1 or 2", api, rank);
    return;
  }
  if (!ParseDims(api, "srcShape", srcShape, rank, &s) || !ParseDims(api, "dstShape", dstShape, rank, &d)) return;
  uint64_t srcElems = 1, dstElems = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (s[i] != d[i] && s[i] != 1) {
      ASC_TWIN_TILING_ERROR("%s: srcShape dim %zu is %u; a broadcast dim must be 1 or equal dstShape's %u", api, i,
                            s[i], d[i]);
      return;
    }
    srcElems *= s[i];
    dstElems *= d[i];
  }
  minValue = Clamp32(lt::BroadcastMinBytes(srcElems, dstElems));
  maxValue = Clamp32(lt::BroadcastMaxBytes(srcElems, dstElems, typeSize));
}

// ---- ConfusionTranspose (Transpose's scenarios 1-7) ----

namespace {

// Scenario 1-6: [B, N, S, H/N]; 7: [H, W]. Fills the twin's params; false with one error line.
bool FillTranspose(const char* api, const ge::Shape& srcShape, uint32_t stackBytes, uint32_t typeSize,
                   uint32_t scenario, bool checkStack, AscendC::tiling::ConfusionTransposeTiling* t) {
  *t = AscendC::tiling::ConfusionTransposeTiling{};
  if (!CheckTypeSize(api, typeSize, false)) return false;
  if (scenario < 1 || scenario > 7) {
    ASC_TWIN_TILING_ERROR("%s: transposeTypeIn %u is not a scenario of this SoC (1-7)", api, scenario);
    return false;
  }
  std::vector<uint32_t> d;
  uint64_t elems = 1;
  if (scenario == 7) {
    if (!ParseDims(api, "srcShape", srcShape, 2, &d)) return false;
    if (d[0] % 16 != 0 || d[1] % 16 != 0) {
      ASC_TWIN_TILING_ERROR("%s: scenario 7 needs H and W multiples of 16 (got [%u, %u])", api, d[0], d[1]);
      return false;
    }
    elems = uint64_t{d[0]} * d[1];
  } else {
    if (!ParseDims(api, "srcShape", srcShape, 4, &d)) return false;
    const uint32_t n = d[1], s = d[2], hn = d[3];
    if (s % 16 != 0) {
      ASC_TWIN_TILING_ERROR("%s: S = %u is not a multiple of 16 (the NZ fractal)", api, s);
      return false;
    }
    if ((scenario == 1 || scenario == 2) && hn % 16 != 0) {
      ASC_TWIN_TILING_ERROR("%s: scenario %u needs H/N = %u to be a multiple of 16", api, scenario, hn);
      return false;
    }
    if (scenario == 2 && n % 16 != 0) {
      ASC_TWIN_TILING_ERROR("%s: scenario 2 needs N = %u to be a multiple of 16 (its output is NZ over N)", api, n);
      return false;
    }
    if ((scenario == 3 || scenario == 4) && (uint64_t{n} * hn) % 16 != 0) {
      ASC_TWIN_TILING_ERROR("%s: scenario %u needs H = N * H/N = %llu to be a multiple of 16", api, scenario,
                            static_cast<unsigned long long>(uint64_t{n} * hn));
      return false;
    }
    elems = uint64_t{d[0]} * n * s * ((hn + 15) / 16 * 16);
  }
  const uint64_t minBytes = lt::TransposeMinBytes(typeSize);
  if (checkStack && stackBytes < minBytes) {
    ASC_TWIN_TILING_ERROR("%s: stackBufferSize %u is below the minimum %llu of GetTransposeMaxMinTmpSize", api,
                          stackBytes, static_cast<unsigned long long>(minBytes));
    return false;
  }
  t->param0 = scenario;
  for (size_t i = 0; i < d.size(); ++i) (&t->param1)[i] = d[i];
  t->param5 = static_cast<uint32_t>(minBytes);
  t->param6 = typeSize;
  t->param7 = Clamp32(elems);
  t->param8 = stackBytes;
  return true;
}

void MaxMinTranspose(const char* api, const ge::Shape& srcShape, uint32_t typeSize, uint32_t scenario,
                     uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  AscendC::tiling::ConfusionTransposeTiling t;
  if (!FillTranspose(api, srcShape, 0, typeSize, scenario, false, &t)) return;
  minValue = t.param5;
  maxValue = Clamp32(lt::TransposeMaxBytes(t.param7, typeSize));
}

void ToHost(const AscendC::tiling::ConfusionTransposeTiling& t, optiling::ConfusionTransposeTiling& tiling) {
#define ASC_TWIN_SET_FIELD(type, name) tiling.set_##name(t.name);
  ASC_TWIN_CONFUSION_TRANSPOSE_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

}  // namespace

void GetTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const uint32_t transposeTypeIn,
                               uint32_t& maxValue, uint32_t& minValue) {
  MaxMinTranspose("GetTransposeMaxMinTmpSize", srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}
void GetConfusionTransposeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                        const uint32_t transposeTypeIn, uint32_t& maxValue, uint32_t& minValue) {
  MaxMinTranspose("GetConfusionTransposeMaxMinTmpSize", srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            const uint32_t transposeTypeIn, AscendC::tiling::ConfusionTransposeTiling& tiling) {
  if (!FillTranspose("GetTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, true, &tiling)) {
    tiling = AscendC::tiling::ConfusionTransposeTiling{};
  }
}
void GetTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                            const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling t;
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, t);
  ToHost(t, tiling);
}
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const uint32_t transposeTypeIn,
                                     AscendC::tiling::ConfusionTransposeTiling& tiling) {
  if (!FillTranspose("GetConfusionTransposeTilingInfo", srcShape, stackBufferSize, typeSize, transposeTypeIn, true,
                     &tiling)) {
    tiling = AscendC::tiling::ConfusionTransposeTiling{};
  }
}
void GetConfusionTransposeTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const uint32_t transposeTypeIn, optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling t;
  GetConfusionTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, t);
  ToHost(t, tiling);
}
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, AscendC::tiling::ConfusionTransposeTiling& tiling) {
  if (!FillTranspose("GetConfusionTransposeOnlyTilingInfo", srcShape, stackBufferSize, typeSize, 7, true, &tiling)) {
    tiling = AscendC::tiling::ConfusionTransposeTiling{};
  }
}
void GetConfusionTransposeOnlyTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, optiling::ConfusionTransposeTiling& tiling) {
  AscendC::tiling::ConfusionTransposeTiling t;
  GetConfusionTransposeOnlyTilingInfo(srcShape, stackBufferSize, typeSize, t);
  ToHost(t, tiling);
}

// ---- TransData ----

bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                               const ge::Shape& dstShape, const ge::DataType dataType, const TransDataConfig& config,
                               uint32_t& maxValue, uint32_t& minValue) {
  constexpr const char* api = "GetTransDataMaxMinTmpSize";
  maxValue = minValue = 0;
  if (dataType != ge::DT_FLOAT16 && dataType != ge::DT_BF16 && dataType != ge::DT_INT16 && dataType != ge::DT_UINT16) {
    ASC_TWIN_TILING_ERROR("%s: dataType %d is not a 16-bit type (DT_FLOAT16, DT_BF16, DT_INT16, DT_UINT16)", api,
                          static_cast<int>(dataType));
    return false;
  }
  const bool fromNcdhw = config.srcFormat == DataFormat::NCDHW;
  const DataFormat other = fromNcdhw ? config.dstFormat : config.srcFormat;
  if ((!fromNcdhw && config.dstFormat != DataFormat::NCDHW) ||
      (other != DataFormat::NDC1HWC0 && other != DataFormat::FRACTAL_Z_3D)) {
    ASC_TWIN_TILING_ERROR(
        "%s: TransData converts NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D only (formats %d -> %d)", api,
        static_cast<int>(config.srcFormat), static_cast<int>(config.dstFormat));
    return false;
  }
  std::vector<uint32_t> ncdhw, o;
  const size_t otherRank = other == DataFormat::NDC1HWC0 ? 6 : 7;
  if (!ParseDims(api, fromNcdhw ? "srcShape" : "dstShape", fromNcdhw ? srcShape : dstShape, 5, &ncdhw) ||
      !ParseDims(api, fromNcdhw ? "dstShape" : "srcShape", fromNcdhw ? dstShape : srcShape, otherRank, &o)) {
    return false;
  }
  const uint32_t n = ncdhw[0], c = ncdhw[1], d = ncdhw[2], h = ncdhw[3], w = ncdhw[4];
  const uint32_t c1 = (c + 15) / 16, n1 = (n + 15) / 16;
  const std::vector<uint32_t> want = other == DataFormat::NDC1HWC0 ? std::vector<uint32_t>{n, d, c1, h, w, 16}
                                                                   : std::vector<uint32_t>{d, c1, h, w, n1, 16, 16};
  if (o != want) {
    ASC_TWIN_TILING_ERROR("%s: the %s shape does not match the NCDHW shape [%u, %u, %u, %u, %u]", api,
                          other == DataFormat::NDC1HWC0 ? "NDC1HWC0" : "FRACTAL_Z_3D", n, c, d, h, w);
    return false;
  }
  minValue = Clamp32(lt::TransDataMinBytes(c, d, h, w, 2));
  maxValue = Clamp32(lt::TransDataMaxBytes(n, c, d, h, w, 2));
  return true;
}

}  // namespace AscendC
