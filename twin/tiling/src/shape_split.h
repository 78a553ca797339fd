// The view every high-level API's host function takes of its source shape: the last axis
// (the one a row-wise API such as SoftMax or LayerNorm reduces over) and the rows before it.
#ifndef ASC_TWIN_TILING_SRC_SHAPE_SPLIT_H_
#define ASC_TWIN_TILING_SRC_SHAPE_SPLIT_H_

#include <cstdint>

#include "graph/tensor.h"

namespace asc_twin_tiling {

struct RowsByLastAxis {
  uint64_t rows = 0;  // product of every dim but the last (1 for a 1-D shape)
  uint64_t cols = 0;  // the last dim
  uint64_t elements() const { return rows * cols; }
};

// False (with *why naming the cause) for an empty shape, a negative (unknown) dim, or a
// product that does not fit in 64 bits; a zero dim is a valid empty tensor.
bool SplitLastAxis(const ge::Shape& shape, RowsByLastAxis* out, const char** why);

}  // namespace asc_twin_tiling

#endif  // ASC_TWIN_TILING_SRC_SHAPE_SPLIT_H_
