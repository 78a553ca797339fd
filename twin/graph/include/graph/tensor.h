/* ge::Shape, ge::TensorDesc, ge::Tensor (value types; CANN shares Tensor data between copies,
 * here copies are deep, which only matters for code that mutates through a copy). */
#ifndef INC_EXTERNAL_GRAPH_TENSOR_H_
#define INC_EXTERNAL_GRAPH_TENSOR_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"

namespace ge {
class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t> &dims) : dims_(dims) {}

  size_t GetDimNum() const {
    // Unknown rank ({-2}) has no dims to count.
    if (dims_.size() == 1 && dims_[0] == UNKNOWN_DIM_NUM) return 0;
    return dims_.size();
  }
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  graphStatus SetDim(size_t idx, int64_t value) {
    if (idx >= dims_.size()) return GRAPH_FAILED;
    dims_[idx] = value;
    return GRAPH_SUCCESS;
  }
  std::vector<int64_t> GetDims() const { return dims_; }
  /* Element count; 0 for an empty dims list is CANN's convention for "no shape", -1 if unknown. */
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t size = 1;
    for (int64_t d : dims_) {
      if (d < 0) return -1;
      if (d != 0 && size > INT64_MAX / d) return -1;
      size *= d;
    }
    return size;
  }
  bool IsUnknownShape() const {
    for (int64_t d : dims_) {
      if (d < 0) return true;
    }
    return false;
  }
  bool IsScalar() const { return dims_.empty(); }
  bool operator==(const Shape &other) const { return dims_ == other.dims_; }
  bool operator!=(const Shape &other) const { return dims_ != other.dims_; }

 private:
  std::vector<int64_t> dims_;
};

class TensorDesc {
 public:
  TensorDesc() = default;
  explicit TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dt = DT_FLOAT)
      : shape_(std::move(shape)), origin_shape_(shape_), format_(format), origin_format_(format), dtype_(dt) {}

  Shape GetShape() const { return shape_; }
  void SetShape(const Shape &shape) { shape_ = shape; }
  Shape GetOriginShape() const { return origin_shape_; }
  void SetOriginShape(const Shape &origin_shape) { origin_shape_ = origin_shape; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }
  Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(Format origin_format) { origin_format_ = origin_format; }
  DataType GetDataType() const { return dtype_; }
  void SetDataType(DataType dt) { dtype_ = dt; }
  Placement GetPlacement() const { return placement_; }
  void SetPlacement(Placement placement) { placement_ = placement; }
  graphStatus GetName(AscendString &name) const {
    name = AscendString(name_.c_str());
    return GRAPH_SUCCESS;
  }
  void SetName(const char *name) { name_ = name == nullptr ? "" : name; }
  int64_t GetSize() const { return size_; }
  void SetSize(int64_t size) { size_ = size; }
  int64_t GetRealDimCnt() const { return static_cast<int64_t>(shape_.GetDimNum()); }

  bool operator==(const TensorDesc &o) const {
    return shape_ == o.shape_ && origin_shape_ == o.origin_shape_ && format_ == o.format_ &&
           origin_format_ == o.origin_format_ && dtype_ == o.dtype_ && placement_ == o.placement_ && name_ == o.name_;
  }
  bool operator!=(const TensorDesc &o) const { return !(*this == o); }

 private:
  Shape shape_;
  Shape origin_shape_;
  Format format_ = FORMAT_ND;
  Format origin_format_ = FORMAT_ND;
  DataType dtype_ = DT_FLOAT;
  Placement placement_ = kPlacementHost;
  std::string name_;
  int64_t size_ = 0;
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(const TensorDesc &tensor_desc) : desc_(tensor_desc) {}
  Tensor(const TensorDesc &tensor_desc, const std::vector<uint8_t> &data) : desc_(tensor_desc), data_(data) {}
  Tensor(const TensorDesc &tensor_desc, const uint8_t *data, size_t size)
      : desc_(tensor_desc), data_(data, data + (data == nullptr ? 0 : size)) {}

  TensorDesc GetTensorDesc() const { return desc_; }
  graphStatus SetTensorDesc(const TensorDesc &tensor_desc) {
    desc_ = tensor_desc;
    return GRAPH_SUCCESS;
  }
  const uint8_t *GetData() const { return data_.data(); }
  uint8_t *GetData() { return data_.data(); }
  size_t GetSize() const { return data_.size(); }
  graphStatus SetData(const std::vector<uint8_t> &data) {
    data_ = data;
    return GRAPH_SUCCESS;
  }
  graphStatus SetData(const uint8_t *data, size_t size) {
    if (data == nullptr && size != 0) return GRAPH_PARAM_INVALID;
    data_.assign(data, data + size);
    return GRAPH_SUCCESS;
  }
  graphStatus SetData(std::vector<uint8_t> &&data) {
    data_ = std::move(data);
    return GRAPH_SUCCESS;
  }
  Tensor Clone() const { return *this; }
  bool IsValid() const {
    int64_t n = desc_.GetShape().GetShapeSize();
    int elem = GetSizeByDataType(desc_.GetDataType());
    if (desc_.GetShape().IsScalar()) n = 1;
    return n >= 0 && elem > 0 && static_cast<size_t>(n) * static_cast<size_t>(elem) == data_.size();
  }
  bool operator==(const Tensor &o) const { return desc_ == o.desc_ && data_ == o.data_; }
  bool operator!=(const Tensor &o) const { return !(*this == o); }

 private:
  TensorDesc desc_;
  std::vector<uint8_t> data_;
};
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_TENSOR_H_
