// DataCopy with Nd2NzParams: ND (GM, or UB) -> NZ (L1), the cube's input format (cube_fractal.h),
// and DataCopy into the bias table (L1 C1 -> C2, DataCopyParams in 64-byte units on NpuArch 2201).
// int4b_t moves as bytes, as CANN's samples use it: dValue, srcDValue and the strides count
// int8_t (two int4b_t each), C0 = 32 bytes.
#ifndef ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_ND2NZ_H_
#define ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_ND2NZ_H_

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "asc_twin/block_state.h"
#include "asc_twin/cube_checks.h"
#include "asc_twin/cube_fractal.h"
#include "kernel_struct_data_copy.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

// Bytes of the unit the Nd2Nz fields count (int4b_t: a byte holding two).
template <typename T>
constexpr uint64_t Nd2NzUnit() {
  return kIsInt4<T> ? 1 : sizeof(T);
}

inline void CheckNd2NzParams(const char* api, const Nd2NzParams& p) {
  if (p.ndNum > 4095) RaiseTrap("%s: ndNum %u is outside [0, 4095]", api, p.ndNum);
  if (p.nValue > 16384) RaiseTrap("%s: nValue %u is outside [0, 16384]", api, p.nValue);
  if (p.srcDValue == 0) RaiseTrap("%s: srcDValue is 0 (valid range [1, 65535])", api);
  if (p.dstNzC0Stride == 0 || p.dstNzC0Stride > 16384) {
    RaiseTrap("%s: dstNzC0Stride %u is outside [1, 16384]", api, p.dstNzC0Stride);
  }
  if (p.dstNzNStride == 0 || p.dstNzNStride > 16384) {
    RaiseTrap("%s: dstNzNStride %u is outside [1, 16384]", api, p.dstNzNStride);
  }
  if (p.dstNzMatrixStride > 16384)
    RaiseTrap("%s: dstNzMatrixStride %u is outside [0, 16384]", api, p.dstNzMatrixStride);
}

// Units of the destination the move reaches (the last row's last block whole, padding included),
// and of the source it reads.
inline uint64_t Nd2NzDstUnits(const Nd2NzParams& p, uint64_t c0) {
  const uint64_t d1 = (p.dValue + c0 - 1) / c0;
  return uint64_t{p.ndNum - 1u} * p.dstNzMatrixStride + (d1 - 1) * p.dstNzC0Stride * c0 +
         uint64_t{p.nValue - 1u} * p.dstNzNStride * c0 + c0;
}
inline uint64_t Nd2NzSrcUnits(const Nd2NzParams& p) {
  return uint64_t{p.ndNum - 1u} * p.srcNdMatrixStride + uint64_t{p.nValue - 1u} * p.srcDValue + p.dValue;
}

inline void RunNd2Nz(uint8_t* dst, const uint8_t* src, const Nd2NzParams& p, uint64_t unit) {
  const uint64_t c0 = ONE_BLK_SIZE / unit;
  const uint64_t d1 = (p.dValue + c0 - 1) / c0;
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const uint8_t* sm = src + uint64_t{i} * p.srcNdMatrixStride * unit;
    uint8_t* dm = dst + uint64_t{i} * p.dstNzMatrixStride * unit;
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const uint8_t* row = sm + uint64_t{r} * p.srcDValue * unit;
      for (uint64_t b = 0; b < d1; ++b) {
        uint8_t* block = dm + (b * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * ONE_BLK_SIZE;
        const uint64_t have = (p.dValue - b * c0) < c0 ? p.dValue - b * c0 : c0;
        std::memcpy(block, row + b * c0 * unit, have * unit);
        if (have < c0) std::memset(block + have * unit, 0, (c0 - have) * unit);  // "补0对齐到32字节"
      }
    }
  }
}

// RunNd2Nz with each source row checked on its own: a row outside device memory reads as zeros.
inline void RunNd2NzCheckedRows(const char* api, uint8_t* dst, const uint8_t* src, const Nd2NzParams& p,
                                uint64_t unit) {
  Nd2NzParams row = p;
  row.ndNum = 1;
  row.nValue = 1;
  const uint64_t c0 = ONE_BLK_SIZE / unit;
  const uint64_t d1 = (p.dValue + c0 - 1) / c0;
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const uint8_t* s = src + (uint64_t{i} * p.srcNdMatrixStride + uint64_t{r} * p.srcDValue) * unit;
      uint8_t* d = dst + uint64_t{i} * p.dstNzMatrixStride * unit + uint64_t{r} * p.dstNzNStride * ONE_BLK_SIZE;
      bool inside = true;
      try {
        CheckGm(api, s, uint64_t{p.dValue} * unit);
      } catch (const Trap&) {
        inside = false;
      }
      if (inside) {
        RunNd2Nz(d, s, row, unit);
      } else {
        for (uint64_t b = 0; b < d1; ++b) std::memset(d + b * p.dstNzC0Stride * ONE_BLK_SIZE, 0, ONE_BLK_SIZE);
      }
    }
  }
}

template <typename T>
inline void CheckNd2NzDst(const char* api, const LocalTensor<T>& dst, const Nd2NzParams& p) {
  RequireTensor(api, "dst", dst);
  if (!InL1(PosOf(dst)))
    RaiseTrap("%s: dst position %s is not in L1 (A1, B1, C1, TSCM)", api, PositionName(PosOf(dst)));
  RequireAligned(api, "dst", dst, ONE_BLK_SIZE);
  const uint64_t units = Nd2NzDstUnits(p, ONE_BLK_SIZE / Nd2NzUnit<T>());
  char what[112];
  std::snprintf(what, sizeof what,
                "ndNum %u, nValue %u, dValue %u, dstNzC0Stride %u, dstNzNStride %u, dstNzMatrixStride %u", p.ndNum,
                p.nValue, p.dValue, p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride);
  RequireBytes(api, "the NZ result", dst, units * Nd2NzUnit<T>(), what);
}

}  // namespace twin

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  constexpr const char* api = "DataCopy(GM->L1, Nd2NzParams)";
  static_assert(sizeof(T) <= 4, "DataCopy with Nd2NzParams: element types of 1, 2 or 4 bytes (or int4b_t)");
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  twin::CheckNd2NzParams(api, p);
  twin::CheckNd2NzDst(api, dst, p);
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  const uint64_t unit = twin::Nd2NzUnit<T>();
  try {
    twin::CheckGm(api, s, twin::Nd2NzSrcUnits(p) * unit);
  } catch (const twin::Trap&) {
    // CANN's samples move whole 16-row chunks past a matrix's last row (load_data_l12l0: k = 70 as
    // ndNum = 5 chunks of 16), which the NPU reads from whatever GM follows. The twin reads the
    // rows that lie inside device memory and fills the rest with zeros; the first row must be valid.
    twin::CheckGm(api, s, uint64_t{p.dValue} * unit);
    twin::RunNd2NzCheckedRows(api, dst.Bytes(), s, p, unit);
    return;
  }
  twin::RunNd2Nz(dst.Bytes(), s, p, unit);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& p) {
  constexpr const char* api = "DataCopy(UB->L1, Nd2NzParams)";
  static_assert(sizeof(T) <= 4, "DataCopy with Nd2NzParams: element types of 1, 2 or 4 bytes (or int4b_t)");
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  twin::CheckNd2NzParams(api, p);
  twin::CheckNd2NzDst(api, dst, p);
  twin::RequireTensor(api, "src", src);
  if (!twin::InUb(twin::PosOf(src))) {
    twin::RaiseTrap("%s: src position %s is not in the UB (VECIN, VECOUT, VECCALC)", api,
                    twin::PositionName(twin::PosOf(src)));
  }
  twin::RequireAligned(api, "src", src, ONE_BLK_SIZE);
  twin::RequireBytes(api, "the ND source", src, twin::Nd2NzSrcUnits(p) * twin::Nd2NzUnit<T>(), "ndNum x nValue rows");
  twin::RunNd2Nz(dst.Bytes(), src.Bytes(), p, twin::Nd2NzUnit<T>());
}

// L1 (C1) -> bias table (C2) with another element type: half -> float (exact), each source block
// of blockLen x 32 B widening into blockLen x 64 B of the table.
template <typename T, typename U, typename std::enable_if<!std::is_same<T, U>::value, bool>::type = true>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) {
  constexpr const char* api = "DataCopy(C1->C2)";
  static_assert(std::is_same<T, float>::value && std::is_same<U, half>::value,
                "DataCopy between different element types: only L1 (C1) half -> bias table (C2) float");
  if (p.blockCount == 0 || p.blockLen == 0) return;
  twin::RequireTensor(api, "dst", dst);
  twin::RequireTensor(api, "src", src);
  if (twin::PosOf(dst) != TPosition::C2 || twin::PosOf(src) != TPosition::C1) {
    twin::RaiseTrap("%s: src must be C1 and dst C2, not %s and %s", api, twin::PositionName(twin::PosOf(src)),
                    twin::PositionName(twin::PosOf(dst)));
  }
  twin::RequireAligned(api, "dst", dst, 64);
  twin::RequireAligned(api, "src", src, ONE_BLK_SIZE);
  const uint64_t rowElems = uint64_t{p.blockLen} * 16;  // blockLen x 64 B of float
  const uint64_t srcPitch = rowElems + uint64_t{p.srcStride} * 16;
  const uint64_t dstPitch = rowElems + uint64_t{p.dstStride} * 16;
  twin::RequireElems(api, "src", src, (p.blockCount - 1) * srcPitch + rowElems, "blockCount x blockLen blocks");
  twin::RequireElems(api, "dst", dst, (p.blockCount - 1) * dstPitch + rowElems, "blockCount x blockLen blocks");
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    for (uint64_t e = 0; e < rowElems; ++e) {
      dst.TwinData()[i * dstPitch + e] = twin::CubeToFloat(src.TwinData()[i * srcPitch + e]);
    }
  }
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_ND2NZ_H_
