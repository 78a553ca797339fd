// The Matmul API's view of an operand: where its elements are (GM or a local memory) and how they
// are laid out (ND row-major, its transpose, or NZ fractals), so the engine can read element
// (row, col) of the logical matrix (A: M x K, B: K x N) whatever the user's format.
#ifndef ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_OPERAND_H_
#define ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_OPERAND_H_

#include <cstdint>

#include "adv_api/matmul/matmul_config.h"
#include "kernel_int4.h"

namespace AscendC {
namespace twin {
namespace matmul {

template <typename T>
struct Operand {
  const T* base = nullptr;  // element (0, 0) of the single core's part
  bool set = false;
  bool scalar = false;  // SetTensorA/B(scalar): every element is `value`
  T value{};
  bool transposed = false;  // stored as the transpose (A: K x M, B: N x K)
  bool nz = false;          // stored as NZ fractals (16 rows x C0 of 32 bytes)
  uint64_t ld = 0;          // ND: elements between stored rows
  uint64_t nzRows = 0;      // NZ: stored rows rounded up to 16 (the fractal column's height)
  uint64_t gmElements = 0;  // a GM operand's GlobalTensor size (0: unknown, not checked)
  bool inGm = false;

  // Elements of a 32-byte fractal row (int4b_t: 64, two to a byte).
  static constexpr uint64_t kC0 = kIsInt4<T> ? 64 : 32 / (sizeof(T) < 4 ? sizeof(T) : 4);
  // Stored rows are contiguous typed elements, converted a row at a time (not packed int4).
  static constexpr bool kRowsAreArrays = !kIsInt4<T>;

  // Offset of stored element (r, c).
  uint64_t StoredOffset(uint64_t r, uint64_t c) const {
    if (nz) return (c / kC0) * (nzRows * kC0) + r * kC0 + c % kC0;
    return r * ld + c;
  }
  // Offset of logical element (row, col).
  uint64_t Offset(uint64_t row, uint64_t col) const {
    return transposed ? StoredOffset(col, row) : StoredOffset(row, col);
  }
  // Logical element (row, col): int4b_t operands are packed two to a byte, the even element in
  // the low nibble, as CANN lays out DT_INT4 in GM and local memory.
  T At(uint64_t row, uint64_t col) const { return LoadElem(base, Offset(row, col)); }
  // Elements the part [0, rows) x [0, cols) spans from base: both layouts grow with row and
  // column, so the last element is the farthest (for the GM extent check).
  uint64_t Extent(uint64_t rows, uint64_t cols) const {
    return (scalar || rows == 0 || cols == 0) ? 0 : Offset(rows - 1, cols - 1) + 1;
  }
};

inline bool IsNzFormat(CubeFormat f) { return f == CubeFormat::NZ; }

}  // namespace matmul
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_OPERAND_H_
