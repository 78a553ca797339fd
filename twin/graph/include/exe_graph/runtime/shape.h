/* gert::Shape: a fixed-capacity shape as used by the IMPL_OP inference contexts. */
#ifndef METADEF_CXX_INC_EXE_GRAPH_RUNTIME_SHAPE_H_
#define METADEF_CXX_INC_EXE_GRAPH_RUNTIME_SHAPE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "ge_twin/abi_guard.h"

namespace gert {
struct Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();

  Shape() : dim_num_(0), dims_{} {}
  Shape(std::initializer_list<int64_t> args) : dim_num_(0), dims_{} {
    if (args.size() > kMaxDimNum) return;
    for (int64_t d : args) dims_[dim_num_++] = d;
  }

  bool operator==(const Shape &rht) const {
    if (dim_num_ != rht.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] != rht.dims_[i]) return false;
    }
    return true;
  }
  bool operator!=(const Shape &rht) const { return !(*this == rht); }

  /* Product of dims (1 for a scalar); -1 if a dim is negative (unknown) or the product overflows. */
  int64_t GetShapeSize() const {
    int64_t size = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] < 0) return -1;
      if (dims_[i] != 0 && size > std::numeric_limits<int64_t>::max() / dims_[i]) return -1;
      size *= dims_[i];
    }
    return size;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  size_t GetDimNum() const { return dim_num_; }
  /* Ignored beyond kMaxDimNum. */
  void SetDimNum(size_t dim_num) {
    if (dim_num <= kMaxDimNum) dim_num_ = dim_num;
  }
  int64_t GetDim(size_t idx) const { return idx < dim_num_ ? dims_[idx] : kInvalidDimValue; }
  const int64_t &operator[](size_t idx) const { return dims_[idx]; }
  int64_t &operator[](size_t idx) { return dims_[idx]; }
  void SetDim(size_t idx, int64_t dim_value) {
    if (idx < kMaxDimNum) dims_[idx] = dim_value;
  }
  /* Appends one dim; a no-op once kMaxDimNum dims are held. */
  Shape &AppendDim(int64_t value) {
    if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = value;
    return *this;
  }

 private:
  size_t dim_num_;
  std::array<int64_t, kMaxDimNum> dims_;
};
}  // namespace gert

#endif  // METADEF_CXX_INC_EXE_GRAPH_RUNTIME_SHAPE_H_
