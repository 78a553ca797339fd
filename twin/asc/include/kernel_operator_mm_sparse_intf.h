// The cube's sparse matrix multiply (NpuArch 2201, int8_t): LoadDataWithSparse (L1 -> L0B: the
// dense B fractals and their index, asc_twin/cube_sparse.h) and MmadWithSparse (C = A x the B
// the index expands, int32_t accumulate), CANN's names and parameters. The index travels with
// the L0B fractals as on the cube (an index buffer beside L0B): LoadDataWithSparse records each
// fractal's 128 index bytes under its L0B address, with the 512 bytes it put there;
// MmadWithSparse reads the index back and traps if a fractal of its B does not hold what
// LoadDataWithSparse put there (never loaded with an index, or overwritten since).
#ifndef ASC_TWIN_KERNEL_OPERATOR_MM_SPARSE_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_MM_SPARSE_INTF_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "asc_twin/block_state.h"
#include "asc_twin/cube_checks.h"
#include "asc_twin/cube_sparse.h"
#include "kernel_operator_mm_intf.h"

namespace AscendC {
namespace twin {

// The index buffer beside L0B: kIndexFractalBytes per 512-byte L0B fractal, and the fractal's
// bytes as LoadDataWithSparse left them (an index belongs to those bytes only). One per block
// thread.
struct SparseIndexBuffer {
  std::vector<uint8_t> bytes;
  std::vector<uint8_t> loadedData;
  const void* l0b = nullptr;  // the L0B it mirrors (a new block's L0B starts it afresh)
};

inline SparseIndexBuffer& SparseIndexOf(uint8_t* l0bBase, uint64_t l0bSize) {
  thread_local SparseIndexBuffer buf;
  const uint64_t fractals = l0bSize / kFractalBytes;
  if (buf.l0b != l0bBase || buf.loadedData.size() != fractals * kFractalBytes) {
    buf.l0b = l0bBase;
    buf.loadedData.assign(fractals * kFractalBytes, 0);
    buf.bytes.assign(fractals * sparse::kIndexFractalBytes, 0);
  }
  return buf;
}

inline SparseIndexBuffer& SparseIndexFor(const char* api, uint8_t** l0bBase) {
  uint64_t size = 0;
  MemoryOf(Block(), CoreBuffer::L0B, l0bBase, &size);
  if (*l0bBase == nullptr) RaiseNoMemory(api, CoreBuffer::L0B);
  return SparseIndexOf(*l0bBase, size);
}

}  // namespace twin

// dst (B2) = repeatTimes dense B fractals of src (B1) as LoadData 2D moves them; their index
// fractals (128 bytes each, in the same order in idx, B1) go to the index buffer beside L0B.
template <typename T = int8_t, typename U = uint8_t>
__aicore__ inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<U>& idx, const LoadData2DParams& loadDataParam) {
  static_assert(std::is_same<T, int8_t>::value && std::is_same<U, uint8_t>::value,
                "LoadDataWithSparse: dst/src must be int8_t and idx uint8_t");
  constexpr const char* api = "LoadDataWithSparse";
  // srcStride 0 reads consecutive fractals, as CANN's sparse sample relies on (its zn-to-zn load
  // passes 0 for a contiguous B); any other stride is LoadData's.
  LoadData2DParams p = loadDataParam;
  if (p.srcStride == 0) p.srcStride = 1;
  if (p.repeatTimes == 0) return;
  twin::RequireTensor(api, "idx", idx);
  if (twin::PosOf(dst) != TPosition::B2)
    twin::RaiseTrap("%s: dst position %s is not B2 (L0B)", api, twin::PositionName(twin::PosOf(dst)));
  if (!twin::InL1(twin::PosOf(idx)))
    twin::RaiseTrap("%s: idx position %s is not in L1 (B1)", api, twin::PositionName(twin::PosOf(idx)));
  if (p.ifTranspose) twin::RaiseTrap("%s: ifTranspose is not supported for the sparse B", api);
  LoadData(dst, src, p);  // the dense fractals, with LoadData's checks
  uint64_t highest = 0;
  twin::FractalRun(api, p.startIndex, p.repeatTimes, p.srcStride, p.addrMode == 1, &highest);
  twin::RequireElems(api, "idx", idx, (highest + 1) * twin::sparse::kIndexFractalBytes,
                     "128 index bytes per fractal up to startIndex + (repeatTimes - 1) x srcStride");
  uint8_t* l0b = nullptr;
  twin::SparseIndexBuffer& buf = twin::SparseIndexFor(api, &l0b);
  const uint64_t dstFractal0 = static_cast<uint64_t>(dst.Bytes() - l0b) / twin::kFractalBytes;
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const int64_t sf = p.addrMode == 1 ? int64_t{p.startIndex} - int64_t{i} * p.srcStride
                                       : int64_t{p.startIndex} + int64_t{i} * p.srcStride;
    const uint64_t df = dstFractal0 + uint64_t{i} * (p.dstGap + 1u);
    std::memcpy(buf.bytes.data() + df * twin::sparse::kIndexFractalBytes,
                idx.Bytes() + sf * twin::sparse::kIndexFractalBytes, twin::sparse::kIndexFractalBytes);
    std::memcpy(buf.loadedData.data() + df * twin::kFractalBytes, l0b + df * twin::kFractalBytes, twin::kFractalBytes);
  }
}

// C (CO1, int32_t) = A (A2, m x k) x B (B2: the dense k/2 x n fractals LoadDataWithSparse put
// there, expanded by their index to k x n), C's initial value as Mmad's.
template <typename T = int32_t, typename U = int8_t>
__aicore__ inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                                      const MmadParams& mmadParams) {
  static_assert(std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value,
                "MmadWithSparse: dst must be int32_t and fm/filter int8_t");
  constexpr const char* api = "MmadWithSparse";
  const MmadParams& p = mmadParams;
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  if (p.k % 4 != 0) twin::RaiseTrap("%s: k %u is not a multiple of 4 (4:2 sparsity keeps 2 of each 4)", api, p.k);
  twin::RequireTensor(api, "filter", filter);
  if (twin::PosOf(filter) != TPosition::B2)
    twin::RaiseTrap("%s: filter position %s is not B2 (L0B)", api, twin::PositionName(twin::PosOf(filter)));
  twin::RequireAligned(api, "filter", filter, twin::kFractalBytes);
  constexpr uint32_t c0 = 32;
  const uint32_t kd = p.k / 2, n1 = twin::CeilDivU(p.n, twin::kCubeBlock), kd1 = twin::CeilDivU(kd, c0);
  const uint32_t k1 = twin::CeilDivU(p.k, c0);
  twin::RequireElems(api, "filter", filter, uint64_t{kd1} * n1 * twin::kFractalBytes,
                     "k/2 x n dense fractals of 16 x 32 int8_t");
  uint8_t* l0b = nullptr;
  const twin::SparseIndexBuffer& buf = twin::SparseIndexFor(api, &l0b);
  const uint64_t f0 = static_cast<uint64_t>(filter.Bytes() - l0b) / twin::kFractalBytes;
  // The expanded B in L0B's Zn layout (k x n), which Mmad multiplies.
  std::vector<int8_t> expanded(uint64_t{k1} * n1 * twin::kFractalBytes, 0);
  const int8_t* dense = filter.TwinData();
  for (uint32_t fk = 0; fk < kd1; ++fk) {
    for (uint32_t fn = 0; fn < n1; ++fn) {
      const uint64_t f = uint64_t{fk} * n1 + fn;
      if (std::memcmp(buf.loadedData.data() + (f0 + f) * twin::kFractalBytes, l0b + (f0 + f) * twin::kFractalBytes,
                      twin::kFractalBytes) != 0) {
        twin::RaiseTrap(
            "%s: L0B fractal %llu of the filter was not loaded by LoadDataWithSparse (or was overwritten since): it "
            "has no index",
            api, static_cast<unsigned long long>(f0 + f));
      }
      const uint8_t* index = buf.bytes.data() + (f0 + f) * twin::sparse::kIndexFractalBytes;
      for (uint32_t r = 0; r < twin::kCubeBlock; ++r) {
        for (uint32_t c = 0; c < c0 && fk * c0 + c < kd; ++c) {
          const uint32_t k = twin::sparse::OriginalK(fk * c0 + c, twin::sparse::IndexOf(index + r * 8, c));
          const uint64_t to = (uint64_t{k / c0} * n1 + fn) * twin::kFractalBytes + r * c0 + k % c0;
          expanded[to] = static_cast<int8_t>(expanded[to] + dense[f * twin::kFractalBytes + r * c0 + c]);
        }
      }
    }
  }
  // The rest as Mmad: the expanded B in a scratch L0B-shaped tensor view is not addressable, so
  // the engine is called directly with Mmad's checks of dst and fm.
  twin::RequireTensor(api, "dst", dst);
  twin::RequireTensor(api, "fm", fm);
  if (twin::PosOf(dst) != TPosition::CO1)
    twin::RaiseTrap("%s: dst position %s is not CO1 (L0C)", api, twin::PositionName(twin::PosOf(dst)));
  if (twin::PosOf(fm) != TPosition::A2)
    twin::RaiseTrap("%s: fm position %s is not A2 (L0A)", api, twin::PositionName(twin::PosOf(fm)));
  twin::cube::MmadShape s{};
  s.m = p.m;
  s.n = p.n;
  s.k = p.k;
  s.m1 = twin::CeilDivU(p.m, twin::kCubeBlock);
  s.n1 = n1;
  s.k1 = k1;
  s.gemv = (p.m == 1);
  twin::RequireElems(api, "fm", fm, s.gemv ? uint64_t{p.k} : uint64_t{s.m1} * k1 * twin::kCubeBlock * c0,
                     "m x k fractals of 16 x 32 int8_t");
  twin::RequireElems(api, "dst", dst, uint64_t{s.m1} * n1 * twin::kCubeBlock * twin::kCubeBlock,
                     "m x n fractals of 16 x 16 int32_t");
  const bool zero = p.cmatrixInitVal && !p.isBias;
  twin::cube::RunMmad<int32_t, int8_t>(dst.TwinData(), fm.TwinData(), expanded.data(), nullptr, s,
                                       zero ? twin::cube::CInit::kZero : twin::cube::CInit::kKeep, false, false);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_MM_SPARSE_INTF_H_
