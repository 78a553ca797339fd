/* gert::RuntimeAttrs: an op's attributes in IR declaration order, read by index from inference
 * functions. Supported kinds: Int, Float, Bool, String, Type, ListInt, ListFloat, ListBool. An
 * index out of range or a kind mismatch yields nullptr. */
#ifndef METADEF_CXX_INC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
#define METADEF_CXX_INC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "graph/types.h"

namespace gert {
template <typename T>
class TypedContinuousVector {
 public:
  TypedContinuousVector() = default;
  explicit TypedContinuousVector(const std::vector<T> &values)
      : size_(values.size()), data_(new T[values.size() == 0 ? 1 : values.size()]) {
    for (size_t i = 0; i < size_; ++i) data_[i] = values[i];
  }
  TypedContinuousVector(const TypedContinuousVector &o) : size_(o.size_), data_(new T[o.size_ == 0 ? 1 : o.size_]) {
    for (size_t i = 0; i < size_; ++i) data_[i] = o.data_[i];
  }
  TypedContinuousVector &operator=(const TypedContinuousVector &o) {
    if (this != &o) *this = TypedContinuousVector(o);
    return *this;
  }
  TypedContinuousVector(TypedContinuousVector &&) noexcept = default;
  TypedContinuousVector &operator=(TypedContinuousVector &&) noexcept = default;

  size_t GetSize() const { return size_; }
  size_t GetCapacity() const { return size_; }
  const T *GetData() const { return data_.get(); }

 private:
  size_t size_ = 0;
  std::unique_ptr<T[]> data_;
};

class RuntimeAttrs {
 public:
  using Value = std::variant<std::monostate, int64_t, float, bool, std::string, ge::DataType,
                             TypedContinuousVector<int64_t>, TypedContinuousVector<float>, TypedContinuousVector<bool>>;

  size_t GetAttrNum() const { return values_.size(); }
  template <typename T>
  const T *GetAttrPointer(size_t index) const {
    if (index >= values_.size()) return nullptr;
    return std::get_if<T>(&values_[index]);
  }
  const int64_t *GetInt(size_t index) const { return GetAttrPointer<int64_t>(index); }
  const float *GetFloat(size_t index) const { return GetAttrPointer<float>(index); }
  const bool *GetBool(size_t index) const { return GetAttrPointer<bool>(index); }
  const char *GetStr(size_t index) const {
    const std::string *s = GetAttrPointer<std::string>(index);
    return s == nullptr ? nullptr : s->c_str();
  }
  const TypedContinuousVector<int64_t> *GetListInt(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<int64_t>>(index);
  }
  const TypedContinuousVector<float> *GetListFloat(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<float>>(index);
  }
  const TypedContinuousVector<bool> *GetListBool(size_t index) const {
    return GetAttrPointer<TypedContinuousVector<bool>>(index);
  }

  // Twin-only: filled by the graph library before calling an inference function.
  void Append(Value value) { values_.push_back(std::move(value)); }

 private:
  std::vector<Value> values_;
};
}  // namespace gert

#endif  // METADEF_CXX_INC_EXE_GRAPH_RUNTIME_RUNTIME_ATTRS_H_
