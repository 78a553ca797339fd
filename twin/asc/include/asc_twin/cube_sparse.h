// The cube's 4:2 structured sparsity (int8_t B): B holds two of every four values along K (the
// "dense" B, K/2 long) and a 2-bit index per kept value. For the kept values 2g and 2g + 1 of
// group g (original K positions 4g .. 4g + 3), index i0 and i1 place them at 4g + i0 and
// 4g + 1 + i1 (i0, i1 in 0..2); the other two positions are zero. Four indices make a byte, the
// first in the low bits. This header expands a dense B back to the K x N matrix the cube
// multiplies, written once for LoadDataWithSparse/MmadWithSparse and the Matmul API's
// SparseMatmulType.
#ifndef ASC_TWIN_CUBE_SPARSE_H_
#define ASC_TWIN_CUBE_SPARSE_H_

#include <cstdint>

namespace AscendC {
namespace twin {
namespace sparse {

// Index bytes per 16-row fractal of the index matrix: 16 rows x 8 bytes (32 dense K values).
constexpr uint32_t kIndexFractalBytes = 128;
// Dense K values one index byte covers.
constexpr uint32_t kValuesPerIndexByte = 4;

// Original K position of dense value kd (its 2-bit index is idx).
inline uint32_t OriginalK(uint32_t kd, uint32_t idx) { return (kd / 2) * 4 + (kd % 2) + idx; }

// The 2-bit index of dense value kd in an index byte row (bytes for one N row).
inline uint32_t IndexOf(const uint8_t* rowBytes, uint32_t kd) {
  return (rowBytes[kd / kValuesPerIndexByte] >> (2 * (kd % kValuesPerIndexByte))) & 3u;
}

// Index byte (n, j) of an index matrix in NZ fractals of 16 x 8 bytes whose columns are
// nzRows rows high.
inline uint64_t IndexNzOffset(uint64_t n, uint64_t j, uint64_t nzRows) { return (j / 8) * nzRows * 8 + n * 8 + j % 8; }

}  // namespace sparse
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_SPARSE_H_
