// Fixpipe: L0C (CO1) -> GM or L1 with FixpipeParamsV220 (NpuArch 2201), NZ -> ND (CFG_ROW_MAJOR,
// the default) or NZ -> NZ (CFG_NZ), with the quantisation and ReLU of cube_fixpipe.h; the
// per-channel modes (VDEQF16, VREQ8, VQF322B8_PRE) read one uint64_t per column from an L1
// cbufWorkspace. SetFixpipeNz2ndFlag / SetFixpipePreQuantFlag / SetFixPipeConfig set the
// registers the older form, DataCopy from L0C with DataCopyCO12DstParams, reads; the V220
// Fixpipe takes its params.
#ifndef ASC_TWIN_KERNEL_OPERATOR_FIXPIPE_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_FIXPIPE_INTF_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "asc_twin/atomic_gm.h"
#include "asc_twin/block_state.h"
#include "asc_twin/cube_checks.h"
#include "asc_twin/cube_fixpipe.h"
#include "asc_twin/cube_mmad.h"
#include "kernel_struct_data_copy.h"
#include "kernel_struct_fixpipe.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

// The (dst, src) pairs and the quantPre each one takes (A2/A3); a wrong pair does not compile.
template <typename T, typename U>
constexpr bool kFixpipeCombo =
    (std::is_same<U, float>::value &&
     (std::is_same<T, float>::value || std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
      std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value)) ||
    (std::is_same<U, int32_t>::value && (std::is_same<T, int32_t>::value || std::is_same<T, half>::value ||
                                         std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value));

inline const char* QuantName(QuantMode_t q) {
  switch (q) {
    case NoQuant:
      return "NoQuant";
    case F322F16:
      return "F322F16";
    case F322BF16:
      return "F322BF16";
    case DEQF16:
      return "DEQF16";
    case VDEQF16:
      return "VDEQF16";
    case QF322B8_PRE:
      return "QF322B8_PRE";
    case VQF322B8_PRE:
      return "VQF322B8_PRE";
    case REQ8:
      return "REQ8";
    case VREQ8:
      return "VREQ8";
    default:
      return "an unknown QuantMode_t";
  }
}

template <typename T, typename U>
inline void CheckQuantPre(const char* api, QuantMode_t q) {
  const char* need = nullptr;
  bool ok = false;
  if constexpr (std::is_same<T, U>::value) {
    ok = q == NoQuant, need = "NoQuant";
  } else if constexpr (std::is_same<T, half>::value && std::is_same<U, float>::value) {
    ok = q == F322F16, need = "F322F16";
  } else if constexpr (std::is_same<T, bfloat16_t>::value) {
    ok = q == F322BF16, need = "F322BF16";
  } else if constexpr (std::is_same<T, half>::value) {
    ok = q == DEQF16 || q == VDEQF16, need = "DEQF16 or VDEQF16";
  } else if constexpr (std::is_same<U, int32_t>::value) {
    ok = q == REQ8 || q == VREQ8, need = "REQ8 or VREQ8";
  } else {
    ok = q == QF322B8_PRE || q == VQF322B8_PRE, need = "QF322B8_PRE or VQF322B8_PRE";
  }
  if (!ok) {
    RaiseTrap("%s: quantPre %s does not convert %s to %s (use %s)", api, QuantName(q), CubeTypeName<U>(),
              CubeTypeName<T>(), need);
  }
}

inline bool PerColumnQuant(QuantMode_t q) { return q == VDEQF16 || q == VREQ8 || q == VQF322B8_PRE; }

// Checks the params and the source, fills the engine's shape; false for a NOP.
template <typename T, typename U, CO2Layout format>
inline bool PrepareFixpipe(const char* api, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                           const uint64_t* perColumn, cube::FixpipeShape* s) {
  const bool nz = format == CO2Layout::NZ;
  if (p.isChannelSplit) {
    if (!(std::is_same<T, float>::value && std::is_same<U, float>::value)) {
      RaiseTrap("%s: isChannelSplit needs float src and dst", api);
    }
    if (!nz) RaiseTrap("%s: isChannelSplit and NZ2ND (CFG_ROW_MAJOR) cannot be enabled together", api);
    if (p.nSize > 4095 || p.nSize % 8 != 0) {
      RaiseTrap("%s: nSize %u must be in [0, 4095] and a multiple of 8 with isChannelSplit", api, p.nSize);
    }
  } else if (nz && (p.nSize > 4095 || p.nSize % 16 != 0)) {
    RaiseTrap("%s: nSize %u must be in [0, 4095] and a multiple of 16 for an NZ result", api, p.nSize);
  } else if (p.nSize > 4095) {
    RaiseTrap("%s: nSize %u is outside [0, 4095]", api, p.nSize);
  }
  if (!nz && p.mSize > 8192) RaiseTrap("%s: mSize %u is outside [0, 8192] with NZ2ND", api, p.mSize);
  if (p.dstStride == 0) RaiseTrap("%s: dstStride is 0 (valid range [1, 4294967295])", api);
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3)
    RaiseTrap("%s: unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  const uint32_t ndNum = nz ? 1u : p.ndNum;
  if (ndNum > 1 && (p.srcNdStride < 1 || p.srcNdStride > 512)) {
    RaiseTrap("%s: srcNdStride %u is outside [1, 512] with ndNum %u", api, p.srcNdStride, p.ndNum);
  }
  if (ndNum > 1 && p.dstNdStride < 1) RaiseTrap("%s: dstNdStride is 0 with ndNum %u", api, p.ndNum);
  CheckQuantPre<T, U>(api, p.quantPre);
  if (PerColumnQuant(p.quantPre) && perColumn == nullptr) {
    RaiseTrap("%s: quantPre %s needs the cbufWorkspace (per-column parameters in L1) form", api, QuantName(p.quantPre));
  }
  if (p.nSize == 0 || p.mSize == 0 || ndNum == 0) return false;
  RequireTensor(api, "src", src);
  if (PosOf(src) != TPosition::CO1) RaiseTrap("%s: src position %s is not CO1 (L0C)", api, PositionName(PosOf(src)));
  if (p.srcStride < CeilDivU(p.mSize, 16) * 16 && p.nSize > 16) {
    RaiseTrap("%s: srcStride %u is below mSize %u rounded up to 16: the n-blocks of the NZ source would overlap", api,
              p.srcStride, p.mSize);
  }
  const uint64_t need = uint64_t{ndNum - 1u} * p.srcNdStride * 256 + uint64_t{(p.nSize - 1u) / 16} * p.srcStride * 16 +
                        uint64_t{p.mSize} * 16;
  char what[64];
  std::snprintf(what, sizeof what, "mSize %u x nSize %u, srcStride %u", p.mSize, p.nSize, p.srcStride);
  RequireElems(api, "src", src, need, what);
  // The NPU loads the per-column parameters into the fixpipe buffer before it moves any data, so
  // a result written over them in L1 (CANN's fixpipe_l0c2l1 sample does that) still sees them all.
  if (perColumn != nullptr) {
    uint64_t* table = static_cast<uint64_t*>(cube::ScratchOf(3, p.nSize * sizeof(uint64_t)));
    std::memcpy(table, perColumn, p.nSize * sizeof(uint64_t));
    perColumn = table;
  }
  *s = cube::FixpipeShape{p.nSize, p.mSize,  p.srcStride,      ndNum,      p.srcNdStride, p.dstNdStride, p.dstStride,
                          nz,      p.reluEn, p.isChannelSplit, p.quantPre, p.deqScalar,   perColumn};
  return true;
}

// Bytes from the destination's start the result reaches.
template <typename T>
inline uint64_t FixpipeDstSpan(const cube::FixpipeShape& s) {
  if (!s.nz) {
    return ((uint64_t{s.ndNum} - 1) * s.dstNdStride + (uint64_t{s.mSize} - 1) * s.dstStride + s.nSize) * sizeof(T);
  }
  const uint32_t c0 = cube::NzOutC0<T>(s.channelSplit);
  const uint64_t nb = CeilDivU(s.nSize, c0);
  return (nb - 1) * s.dstStride * 32u + (uint64_t{s.mSize} - 1) * c0 * sizeof(T) + c0 * sizeof(T);
}

template <typename T, typename U, CO2Layout format>
inline void FixpipeToGm(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                        const uint64_t* perColumn) {
  constexpr const char* api = "Fixpipe(L0C->GM)";
  cube::FixpipeShape s;
  if (!PrepareFixpipe<T, U, format>(api, src, p, perColumn, &s)) return;
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  CheckGm(api, d, FixpipeDstSpan<T>(s));
  const bool atomic = Block().vec.atomicOp != kAtomicNone;
  cube::RunFixpipe<T, U>(src.TwinData(), s, [&](uint64_t off, const T* row, uint64_t bytes) {
    if (atomic) {
      AtomicWriteGm<T>(d + off, row, bytes);
    } else {
      std::memcpy(d + off, row, bytes);
    }
  });
}

template <typename T, typename U, CO2Layout format>
inline void FixpipeToLocal(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
                           const uint64_t* perColumn) {
  constexpr const char* api = "Fixpipe(L0C->L1)";
  cube::FixpipeShape s;
  if (!PrepareFixpipe<T, U, format>(api, src, p, perColumn, &s)) return;
  RequireTensor(api, "dst", dst);
  if (!InL1(PosOf(dst))) {
    RaiseTrap("%s: dst position %s is not in L1 (A1, B1, C1): L0C -> UB needs NpuArch 3510 (Ascend 950)", api,
              PositionName(PosOf(dst)));
  }
  RequireAligned(api, "dst", dst, ONE_BLK_SIZE);
  RequireBytes(api, "the result", dst, FixpipeDstSpan<T>(s), "mSize rows of nSize, dstStride apart");
  uint8_t* d = dst.Bytes();
  cube::RunFixpipe<T, U>(src.TwinData(), s,
                         [&](uint64_t off, const T* row, uint64_t bytes) { std::memcpy(d + off, row, bytes); });
}

template <typename S>
inline const uint64_t* QuantTable(const char* api, const LocalTensor<S>& cbufWorkspace, uint32_t nSize) {
  RequireTensor(api, "cbufWorkspace", cbufWorkspace);
  if (!InL1(PosOf(cbufWorkspace))) {
    RaiseTrap("%s: cbufWorkspace position %s is not in L1 (C1)", api, PositionName(PosOf(cbufWorkspace)));
  }
  RequireAligned(api, "cbufWorkspace", cbufWorkspace, ONE_BLK_SIZE);
  RequireElems(api, "cbufWorkspace", cbufWorkspace, nSize, "one uint64_t per column n");
  return reinterpret_cast<const uint64_t*>(cbufWorkspace.TwinData());
}

}  // namespace twin

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "Fixpipe: (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: CFG_COLUMN_MAJOR needs NpuArch 3510 (Ascend 950)");
  twin::FixpipeToGm<T, U, config.format>(dst, src, intriParams, nullptr);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "Fixpipe: (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: CFG_COLUMN_MAJOR needs NpuArch 3510 (Ascend 950)");
  const uint64_t* table = twin::QuantTable("Fixpipe(L0C->GM)", cbufWorkspace, intriParams.nSize);
  twin::FixpipeToGm<T, U, config.format>(dst, src, intriParams, table);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "Fixpipe: (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: CFG_COLUMN_MAJOR needs NpuArch 3510 (Ascend 950)");
  twin::FixpipeToLocal<T, U, config.format>(dst, src, intriParams, nullptr);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t,
          typename std::enable_if<std::is_same<S, uint64_t>::value, bool>::type = true>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<S>& cbufWorkspace, const FixpipeParamsV220& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "Fixpipe: (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: CFG_COLUMN_MAJOR needs NpuArch 3510 (Ascend 950)");
  const uint64_t* table = twin::QuantTable("Fixpipe(L0C->L1)", cbufWorkspace, intriParams.nSize);
  twin::FixpipeToLocal<T, U, config.format>(dst, src, intriParams, table);
}

// ---------------------------------------------------------------- registers

// One form per NpuArch, as CANN declares it (both at once would make a call with int
// arguments, SetFixpipeNz2ndFlag(1, 0, 0), ambiguous).
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint32_t dstNdStride) {
#else
__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
#endif
  twin::CubeRegs& r = twin::Block().vec.cube;
  r.nz2ndNum = ndNum;
  r.nz2ndSrcStride = srcNdStride;
  r.nz2ndDstStride = dstNdStride;
}
__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config) { twin::Block().vec.cube.preQuant = config; }

// The per-channel quantisation table of DataCopy(L0C->GM/L1) with DataCopyCO12DstParams: a
// tensor in the Fixpipe buffer (C2PIPE2GM), moved there from L1 with DataCopy. A tensor
// elsewhere sets no table (mmad_unitflag passes its L0C tensor only to clear the unit flags);
// a V* quantPre then traps naming it. setRelu: the tensor holds ReLU parameters, not a table.
namespace twin {
template <typename T>
inline void RecordFixpipeTable(const char* api, const LocalTensor<T>& table, bool isTable) {
  RequireTensor(api, "preData", table);
  CubeRegs& r = Block().vec.cube;
  const TPosition pos = PosOf(table);
  r.fixpipeTablePos = static_cast<uint8_t>(pos);
  r.fixpipeTable = nullptr;
  r.fixpipeTableLen = 0;
  if (isTable && pos == TPosition::C2PIPE2GM) {
    r.fixpipeTable = reinterpret_cast<const uint64_t*>(table.TwinData());
    r.fixpipeTableLen = static_cast<uint32_t>(ElemBytes<T>(table.GetSize()) / sizeof(uint64_t));
  }
}
}  // namespace twin

template <typename T>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre,
                                        bool isUnitFlag = false) {
  (void)isUnitFlag;
  twin::RequireTensor("SetFixPipeConfig", "reluPre", reluPre);
  twin::RecordFixpipeTable("SetFixPipeConfig", quantPre, true);
}
template <typename T, bool setRelu = false>
__aicore__ inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
  (void)isUnitFlag;
  twin::RecordFixpipeTable("SetFixPipeConfig", preData, !setRelu);
}

// ---------------------------------------------------------------- DataCopy from L0C

namespace twin {

// DataCopyCO12DstParams and the registers as the V220 Fixpipe's params, then the same engine;
// the per-channel table is SetFixPipeConfig's.
inline const uint64_t* Co12Params(const char* api, const DataCopyCO12DstParams& p, FixpipeParamsV220* out) {
  const CubeRegs& r = Block().vec.cube;
  if (p.clipReluPre != 0 || p.eltWiseOp != 0) {
    RaiseTrap("%s: clipReluPre and eltWiseOp are for Atlas 200I/500 A2 only (NpuArch 2201 has neither)", api);
  }
  if (p.reluPre > 1) RaiseTrap("%s: reluPre %u is not 0 (off) or 1 (normal ReLU)", api, p.reluPre);
  FixpipeParamsV220 v;
  v.nSize = p.nSize;
  v.mSize = p.mSize;
  v.srcStride = p.srcStride;
  v.dstStride = p.dstStride;
  v.quantPre = p.quantPre;
  v.deqScalar = r.preQuant;
  v.reluEn = p.reluPre == 1;
  v.unitFlag = p.unitFlag;
  v.isChannelSplit = p.channelSplit;
  if (p.nz2ndEn) {
    v.ndNum = r.nz2ndNum;
    v.srcNdStride = r.nz2ndSrcStride;
    v.dstNdStride = static_cast<uint16_t>(r.nz2ndDstStride);
  }
  *out = v;
  if (!PerColumnQuant(p.quantPre) || p.nSize == 0 || p.mSize == 0) return nullptr;
  if (r.fixpipeTable == nullptr) {
    if (r.fixpipeTablePos == 0xFF) {
      RaiseTrap("%s: quantPre %s needs SetFixPipeConfig(tensor) with the per-channel table first", api,
                QuantName(p.quantPre));
    }
    RaiseTrap(
        "%s: quantPre %s needs the per-channel table in the Fixpipe buffer (C2PIPE2GM); SetFixPipeConfig got a "
        "tensor in %s",
        api, QuantName(p.quantPre), PositionName(static_cast<TPosition>(r.fixpipeTablePos)));
  }
  if (r.fixpipeTableLen < p.nSize) {
    RaiseTrap("%s: the SetFixPipeConfig table holds %u uint64_t, nSize %u needs one per column", api, r.fixpipeTableLen,
              p.nSize);
  }
  return r.fixpipeTable;
}

}  // namespace twin

template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyCO12DstParams& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "DataCopy(L0C->GM): (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  FixpipeParamsV220 p;
  const uint64_t* table = twin::Co12Params("DataCopy(L0C->GM)", intriParams, &p);
  if (intriParams.nz2ndEn) {
    twin::FixpipeToGm<T, U, CO2Layout::ROW_MAJOR>(dst, src, p, table);
  } else {
    twin::FixpipeToGm<T, U, CO2Layout::NZ>(dst, src, p, table);
  }
}

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                                const DataCopyCO12DstParams& intriParams) {
  static_assert(twin::kFixpipeCombo<T, U>,
                "DataCopy(L0C->L1): (dst, src) must be (float|half|bfloat16_t|int8_t|uint8_t, float) "
                "or (int32_t|half|int8_t|uint8_t, int32_t)");
  FixpipeParamsV220 p;
  const uint64_t* table = twin::Co12Params("DataCopy(L0C->L1)", intriParams, &p);
  if (intriParams.nz2ndEn) {
    twin::FixpipeToLocal<T, U, CO2Layout::ROW_MAJOR>(dst, src, p, table);
  } else {
    twin::FixpipeToLocal<T, U, CO2Layout::NZ>(dst, src, p, table);
  }
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_FIXPIPE_INTF_H_
