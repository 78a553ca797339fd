/* The REG_OP macro family (CANN graph/operator_reg.h). Usage, inside namespace ge:
 *
 *   REG_OP(AddCustom)
 *       .INPUT(x1, T).INPUT(x2, T).OUTPUT(y, T)
 *       .ATTR(alpha, Float, 1.0).REQUIRED_ATTR(mode, String)
 *       .DATATYPE(T, TensorType({DT_FLOAT}))
 *       .OP_END_FACTORY_REG(AddCustom)
 *
 * expands to class ge::op::AddCustom : public ge::Operator with set_input_x1(...),
 * get_input_desc_x1(), update_output_desc_y(...), get_attr_alpha()/set_attr_alpha(...), ...
 * and a static OperatorCreatorRegister for "AddCustom".
 *
 * How the chain works: REG_OP opens a private method whose body ends in `::ge::OpReg()`; every
 * clause starts with `N(); <next method>(); }` (so the leading `.` calls OpReg::N()), defines its
 * public accessors, then opens the next private method. The constructor therefore registers the
 * inputs/outputs/attrs in declaration order. */
#ifndef INC_EXTERNAL_GRAPH_OPERATOR_REG_H_
#define INC_EXTERNAL_GRAPH_OPERATOR_REG_H_

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/operator.h"
#include "graph/operator_factory.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
using std::string;
using std::vector;

class OpReg {
 public:
  OpReg &N() { return *this; }
};

#define REG_OP(x)                                                                                          \
  namespace op {                                                                                           \
  class x : public ::ge::Operator {                                                                        \
    typedef x _THIS_TYPE;                                                                                  \
                                                                                                           \
   public:                                                                                                 \
    ATTRIBUTED_DEPRECATED(x(const char *))                                                                 \
    explicit x(const std::string &name) : ::ge::Operator(name.c_str(), #x) { __##x(); }                    \
    explicit x(const char *name) : ::ge::Operator(name, #x) { __##x(); }                                   \
    explicit x(const ::ge::AscendString &name) : ::ge::Operator(name, ::ge::AscendString(#x)) { __##x(); } \
    x() : ::ge::Operator(#x) { __##x(); }                                                                  \
                                                                                                           \
   private:                                                                                                \
    void __##x() {                                                                                         \
      ::ge::OpReg()

// get_attr_<x>/set_attr_<x>/name_attr_<x>, shared by ATTR and REQUIRED_ATTR.
#define __GE_TWIN_ATTR_ACCESSORS(x, Type)                 \
 public:                                                  \
  static const std::string name_attr_##x() { return #x; } \
  Op##Type get_attr_##x() const {                         \
    Op##Type ret{};                                       \
    (void)::ge::Operator::GetAttr(#x, ret);               \
    return ret;                                           \
  }                                                       \
  _THIS_TYPE &set_attr_##x(const Op##Type &v) {           \
    ::ge::Operator::SetAttr(#x, v);                       \
    return *this;                                         \
  }                                                       \
                                                          \
 private:

#define ATTR(x, Type, ...)                                   \
  N();                                                       \
  __attr_##x();                                              \
  }                                                          \
  __GE_TWIN_ATTR_ACCESSORS(x, Type)                          \
  void __attr_##x() {                                        \
    ::ge::Operator::AttrRegister(#x, Op##Type(__VA_ARGS__)); \
    ::ge::OpReg()

#define REQUIRED_ATTR(x, Type)                               \
  N();                                                       \
  __required_attr_##x();                                     \
  }                                                          \
  __GE_TWIN_ATTR_ACCESSORS(x, Type)                          \
  void __required_attr_##x() {                               \
    ::ge::Operator::RequiredAttrWithTypeRegister(#x, #Type); \
    ::ge::OpReg()

#define __GE_TWIN_INPUT_ACCESSORS(x)                                                             \
 public:                                                                                         \
  static const std::string name_in_##x() { return #x; }                                          \
  _THIS_TYPE &set_input_##x(::ge::Operator &v, const uint32_t srcIndex) {                        \
    ::ge::Operator::SetInput(#x, v, srcIndex);                                                   \
    return *this;                                                                                \
  }                                                                                              \
  _THIS_TYPE &set_input_##x(::ge::Operator &v, const std::string &srcName) {                     \
    ::ge::Operator::SetInput(#x, v, srcName.c_str());                                            \
    return *this;                                                                                \
  }                                                                                              \
  _THIS_TYPE &set_input_##x##_by_name(::ge::Operator &v, const char *srcName) {                  \
    ::ge::Operator::SetInput(#x, v, srcName);                                                    \
    return *this;                                                                                \
  }                                                                                              \
  _THIS_TYPE &set_input_##x(::ge::Operator &v) {                                                 \
    ::ge::Operator::SetInput(#x, v);                                                             \
    return *this;                                                                                \
  }                                                                                              \
  ::ge::TensorDesc get_input_desc_##x() const { return ::ge::Operator::GetInputDescByName(#x); } \
  ::ge::graphStatus update_input_desc_##x(const ::ge::TensorDesc &tensorDesc) {                  \
    return ::ge::Operator::UpdateInputDesc(#x, tensorDesc);                                      \
  }

#define INPUT(x, t)                        \
  N();                                     \
  __input_##x();                           \
  }                                        \
  __GE_TWIN_INPUT_ACCESSORS(x)             \
                                           \
 private:                                  \
  void __input_##x() {                     \
    ::ge::Operator::InputRegister(#x, #t); \
    ::ge::OpReg()

#define OPTIONAL_INPUT(x, t)                       \
  N();                                             \
  __optional_input_##x();                          \
  }                                                \
  __GE_TWIN_INPUT_ACCESSORS(x)                     \
                                                   \
 private:                                          \
  void __optional_input_##x() {                    \
    ::ge::Operator::OptionalInputRegister(#x, #t); \
    ::ge::OpReg()

#define DYNAMIC_INPUT(x, t)                                                                             \
  N();                                                                                                  \
  __dy_input_##x();                                                                                     \
  }                                                                                                     \
                                                                                                        \
 public:                                                                                                \
  _THIS_TYPE &create_dynamic_input_##x(uint32_t num, bool isPushBack = true) {                          \
    ::ge::Operator::DynamicInputRegister(#x, num, isPushBack);                                          \
    return *this;                                                                                       \
  }                                                                                                     \
  _THIS_TYPE &create_dynamic_input_byindex_##x(uint32_t num, size_t index) {                            \
    ::ge::Operator::DynamicInputRegisterByIndex(#x, num, index);                                        \
    return *this;                                                                                       \
  }                                                                                                     \
  ::ge::TensorDesc get_dynamic_input_desc_##x(uint32_t index) const {                                   \
    return ::ge::Operator::GetDynamicInputDesc(#x, index);                                              \
  }                                                                                                     \
  ::ge::graphStatus update_dynamic_input_desc_##x(uint32_t index, const ::ge::TensorDesc &tensorDesc) { \
    return ::ge::Operator::UpdateDynamicInputDesc(#x, index, tensorDesc);                               \
  }                                                                                                     \
  _THIS_TYPE &set_dynamic_input_##x(uint32_t dstIndex, ::ge::Operator &v) {                             \
    ::ge::Operator::SetInput(#x, dstIndex, v);                                                          \
    return *this;                                                                                       \
  }                                                                                                     \
  _THIS_TYPE &set_dynamic_input_##x(uint32_t dstIndex, ::ge::Operator &v, const char *srcName) {        \
    ::ge::Operator::SetInput(#x, dstIndex, v, srcName);                                                 \
    return *this;                                                                                       \
  }                                                                                                     \
                                                                                                        \
 private:                                                                                               \
  void __dy_input_##x() {                                                                               \
    ::ge::Operator::DynamicInputRegister(#x, 0, #t, true);                                              \
    ::ge::OpReg()

#define OUTPUT(x, t)                                                                               \
  N();                                                                                             \
  __out_##x();                                                                                     \
  }                                                                                                \
                                                                                                   \
 public:                                                                                           \
  static const std::string name_out_##x() { return #x; }                                           \
  ::ge::TensorDesc get_output_desc_##x() const { return ::ge::Operator::GetOutputDescByName(#x); } \
  ::ge::graphStatus update_output_desc_##x(const ::ge::TensorDesc &tensorDesc) {                   \
    return ::ge::Operator::UpdateOutputDesc(#x, tensorDesc);                                       \
  }                                                                                                \
                                                                                                   \
 private:                                                                                          \
  void __out_##x() {                                                                               \
    ::ge::Operator::OutputRegister(#x, #t);                                                        \
    ::ge::OpReg()

#define DYNAMIC_OUTPUT(x, t)                                                                             \
  N();                                                                                                   \
  __dy_output_##x();                                                                                     \
  }                                                                                                      \
                                                                                                         \
 public:                                                                                                 \
  _THIS_TYPE &create_dynamic_output_##x(uint32_t num, bool isPushBack = true) {                          \
    ::ge::Operator::DynamicOutputRegister(#x, num, isPushBack);                                          \
    return *this;                                                                                        \
  }                                                                                                      \
  ::ge::TensorDesc get_dynamic_output_desc_##x(uint32_t index) const {                                   \
    return ::ge::Operator::GetDynamicOutputDesc(#x, index);                                              \
  }                                                                                                      \
  ::ge::graphStatus update_dynamic_output_desc_##x(uint32_t index, const ::ge::TensorDesc &tensorDesc) { \
    return ::ge::Operator::UpdateDynamicOutputDesc(#x, index, tensorDesc);                               \
  }                                                                                                      \
                                                                                                         \
 private:                                                                                                \
  void __dy_output_##x() {                                                                               \
    ::ge::Operator::DynamicOutputRegister(#x, 0, #t, true);                                              \
    ::ge::OpReg()

#define DATATYPE(x, t)                       \
  N();                                       \
  __datatype_##x();                          \
  }                                          \
                                             \
 private:                                    \
  void __datatype_##x() {                    \
    ::ge::Operator::DataTypeRegister(#x, t); \
    ::ge::OpReg()

#define OP_END_FACTORY_REG(x) __OP_END_IMPL__(x)

#define __OP_END_IMPL__(x)                                                                        \
  N();                                                                                            \
  }                                                                                               \
  static_assert(std::is_same<x, _THIS_TYPE>::value,                                               \
                "The class name entered into the OP_END_FACTORY_REG needs to be the same as the " \
                "operator name you define.");                                                     \
  }                                                                                               \
  ;                                                                                               \
  static const ::ge::OperatorCreatorRegister g_register_##x(                                      \
      #x, [](const ::ge::AscendString &name) { return ::ge::Operator(x(name)); });                \
  }
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_OPERATOR_REG_H_
