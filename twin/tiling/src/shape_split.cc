#include "shape_split.h"

#include <vector>

namespace asc_twin_tiling {

bool SplitLastAxis(const ge::Shape& shape, RowsByLastAxis* out, const char** why) {
  const std::vector<int64_t> dims = shape.GetDims();
  if (dims.empty()) {
    *why = "the shape has no dims";
    return false;
  }
  uint64_t rows = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      *why = "the shape has an unknown (negative) dim";
      return false;
    }
    const uint64_t d = static_cast<uint64_t>(dims[i]);
    if (i + 1 == dims.size()) {
      if (d != 0 && rows > UINT64_MAX / d) {
        *why = "the shape's element count overflows 64 bits";
        return false;
      }
      out->rows = rows;
      out->cols = d;
      return true;
    }
    if (d != 0 && rows > UINT64_MAX / d) {
      *why = "the shape's element count overflows 64 bits";
      return false;
    }
    rows *= d;
  }
  return false;  // unreachable: dims is not empty
}

}  // namespace asc_twin_tiling
