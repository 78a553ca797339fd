// tiling/matmul/matmul_tilingdata.h: optiling::TCubeTiling, the host tiling class of the Matmul
// high-level API (BEGIN_TILING_DATA_DEF): CANN's fields in CANN's order, so SaveToBuffer writes
// exactly the bytes of the kernel struct TCubeTiling (kernel_tiling/kernel_tiling.h), and a user's
// tiling class may nest it with TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData).
#ifndef ASC_TWIN_TILING_MATMUL_MATMUL_TILINGDATA_H_
#define ASC_TWIN_TILING_MATMUL_MATMUL_TILINGDATA_H_

// bisheng's device pass sees a .asc file's host code too, but never runs it: there the class is
// a self-contained stand-in with the same members (all inline), so the device binary references
// no graph library (register/tilingdata_base.h's ABI marker would need libgraph_base.so).
#if defined(ASC_TWIN_TILING_LIBRARY_BUILD)
// libtiling_api's own sources: only the name (the optiling forms are inline in the headers, so
// the archive references no graph library whatever a program links).
namespace optiling {
class TCubeTiling;
}  // namespace optiling
#elif defined(__ASC_TWIN_DEVICE_PASS__)
#include <cstddef>
#include <cstring>

#include "kernel_tiling/kernel_tiling.h"

namespace optiling {
#define ASC_TWIN_TCUBE_ACCESSORS(f)                \
  void set_##f(int32_t value) { data_.f = value; } \
  int32_t get_##f() const { return data_.f; }
class TCubeTiling {
 public:
  size_t GetDataSize() const { return sizeof(data_); }
  void SaveToBuffer(void* pdata, size_t capacity) {
    if (pdata != nullptr && capacity >= sizeof(data_)) std::memcpy(pdata, &data_, sizeof(data_));
  }
  ASC_TWIN_TCUBE_ACCESSORS(usedCoreNum)
  ASC_TWIN_TCUBE_ACCESSORS(M)
  ASC_TWIN_TCUBE_ACCESSORS(N)
  ASC_TWIN_TCUBE_ACCESSORS(Ka)
  ASC_TWIN_TCUBE_ACCESSORS(Kb)
  ASC_TWIN_TCUBE_ACCESSORS(singleCoreM)
  ASC_TWIN_TCUBE_ACCESSORS(singleCoreN)
  ASC_TWIN_TCUBE_ACCESSORS(singleCoreK)
  ASC_TWIN_TCUBE_ACCESSORS(baseM)
  ASC_TWIN_TCUBE_ACCESSORS(baseN)
  ASC_TWIN_TCUBE_ACCESSORS(baseK)
  ASC_TWIN_TCUBE_ACCESSORS(depthA1)
  ASC_TWIN_TCUBE_ACCESSORS(depthB1)
  ASC_TWIN_TCUBE_ACCESSORS(stepM)
  ASC_TWIN_TCUBE_ACCESSORS(stepN)
  ASC_TWIN_TCUBE_ACCESSORS(isBias)
  ASC_TWIN_TCUBE_ACCESSORS(transLength)
  ASC_TWIN_TCUBE_ACCESSORS(iterateOrder)
  ASC_TWIN_TCUBE_ACCESSORS(shareMode)
  ASC_TWIN_TCUBE_ACCESSORS(shareL1Size)
  ASC_TWIN_TCUBE_ACCESSORS(shareL0CSize)
  ASC_TWIN_TCUBE_ACCESSORS(shareUbSize)
  ASC_TWIN_TCUBE_ACCESSORS(batchM)
  ASC_TWIN_TCUBE_ACCESSORS(batchN)
  ASC_TWIN_TCUBE_ACCESSORS(singleBatchM)
  ASC_TWIN_TCUBE_ACCESSORS(singleBatchN)
  ASC_TWIN_TCUBE_ACCESSORS(stepKa)
  ASC_TWIN_TCUBE_ACCESSORS(stepKb)
  ASC_TWIN_TCUBE_ACCESSORS(depthAL1CacheUB)
  ASC_TWIN_TCUBE_ACCESSORS(depthBL1CacheUB)
  ASC_TWIN_TCUBE_ACCESSORS(dbL0A)
  ASC_TWIN_TCUBE_ACCESSORS(dbL0B)
  ASC_TWIN_TCUBE_ACCESSORS(dbL0C)
  ASC_TWIN_TCUBE_ACCESSORS(ALayoutInfoB)
  ASC_TWIN_TCUBE_ACCESSORS(ALayoutInfoS)
  ASC_TWIN_TCUBE_ACCESSORS(ALayoutInfoN)
  ASC_TWIN_TCUBE_ACCESSORS(ALayoutInfoG)
  ASC_TWIN_TCUBE_ACCESSORS(ALayoutInfoD)
  ASC_TWIN_TCUBE_ACCESSORS(BLayoutInfoB)
  ASC_TWIN_TCUBE_ACCESSORS(BLayoutInfoS)
  ASC_TWIN_TCUBE_ACCESSORS(BLayoutInfoN)
  ASC_TWIN_TCUBE_ACCESSORS(BLayoutInfoG)
  ASC_TWIN_TCUBE_ACCESSORS(BLayoutInfoD)
  ASC_TWIN_TCUBE_ACCESSORS(CLayoutInfoB)
  ASC_TWIN_TCUBE_ACCESSORS(CLayoutInfoS1)
  ASC_TWIN_TCUBE_ACCESSORS(CLayoutInfoN)
  ASC_TWIN_TCUBE_ACCESSORS(CLayoutInfoG)
  ASC_TWIN_TCUBE_ACCESSORS(CLayoutInfoS2)
  ASC_TWIN_TCUBE_ACCESSORS(BatchNum)
  ASC_TWIN_TCUBE_ACCESSORS(mxTypePara)
 private:
  ::TCubeTiling data_;
};
#undef ASC_TWIN_TCUBE_ACCESSORS
}  // namespace optiling
#else
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
TILING_DATA_FIELD_DEF(int32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(int32_t, M);
TILING_DATA_FIELD_DEF(int32_t, N);
TILING_DATA_FIELD_DEF(int32_t, Ka);
TILING_DATA_FIELD_DEF(int32_t, Kb);
TILING_DATA_FIELD_DEF(int32_t, singleCoreM);
TILING_DATA_FIELD_DEF(int32_t, singleCoreN);
TILING_DATA_FIELD_DEF(int32_t, singleCoreK);
TILING_DATA_FIELD_DEF(int32_t, baseM);
TILING_DATA_FIELD_DEF(int32_t, baseN);
TILING_DATA_FIELD_DEF(int32_t, baseK);
TILING_DATA_FIELD_DEF(int32_t, depthA1);
TILING_DATA_FIELD_DEF(int32_t, depthB1);
TILING_DATA_FIELD_DEF(int32_t, stepM);
TILING_DATA_FIELD_DEF(int32_t, stepN);
TILING_DATA_FIELD_DEF(int32_t, isBias);
TILING_DATA_FIELD_DEF(int32_t, transLength);
TILING_DATA_FIELD_DEF(int32_t, iterateOrder);
TILING_DATA_FIELD_DEF(int32_t, shareMode);
TILING_DATA_FIELD_DEF(int32_t, shareL1Size);
TILING_DATA_FIELD_DEF(int32_t, shareL0CSize);
TILING_DATA_FIELD_DEF(int32_t, shareUbSize);
TILING_DATA_FIELD_DEF(int32_t, batchM);
TILING_DATA_FIELD_DEF(int32_t, batchN);
TILING_DATA_FIELD_DEF(int32_t, singleBatchM);
TILING_DATA_FIELD_DEF(int32_t, singleBatchN);
TILING_DATA_FIELD_DEF(int32_t, stepKa);
TILING_DATA_FIELD_DEF(int32_t, stepKb);
TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, dbL0A);
TILING_DATA_FIELD_DEF(int32_t, dbL0B);
TILING_DATA_FIELD_DEF(int32_t, dbL0C);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2);
TILING_DATA_FIELD_DEF(int32_t, BatchNum);
TILING_DATA_FIELD_DEF(int32_t, mxTypePara);
END_TILING_DATA_DEF;
}  // namespace optiling
#endif  // ASC_TWIN_TILING_LIBRARY_BUILD / __ASC_TWIN_DEVICE_PASS__

#endif  // ASC_TWIN_TILING_MATMUL_MATMUL_TILINGDATA_H_
