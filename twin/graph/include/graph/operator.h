/* ge::Operator: a handle to one graph node (copies share the node, as in CANN). */
#ifndef INC_EXTERNAL_GRAPH_OPERATOR_H_
#define INC_EXTERNAL_GRAPH_OPERATOR_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {
class OperatorImpl;
class OperatorInternal;

class GE_FUNC_VISIBILITY Operator {
 public:
  // Attribute value types named by REG_OP's ATTR(name, <Type>, default).
  using OpInt = int64_t;
  using OpFloat = float;
  using OpString = std::string;
  using OpAscendString = AscendString;
  using OpBool = bool;
  using OpTensor = Tensor;
  using OpType = ge::DataType;
  using OpListInt = std::vector<int64_t>;
  using OpListFloat = std::vector<float>;
  using OpListString = std::vector<std::string>;
  using OpListAscendString = std::vector<AscendString>;
  using OpListBool = std::vector<bool>;
  using OpListType = std::vector<ge::DataType>;
  using OpListListInt = std::vector<std::vector<int64_t>>;

  Operator();
  explicit Operator(const char *type);
  Operator(const char *name, const char *type);
  Operator(const AscendString &name, const AscendString &type);
  explicit Operator(const std::string &type);
  Operator(const std::string &name, const std::string &type);
  virtual ~Operator() = default;

  bool IsEmpty() const;
  std::string GetName() const;
  graphStatus GetName(AscendString &name) const;
  std::string GetOpType() const;
  graphStatus GetOpType(AscendString &type) const;

  // Connects input `dst_name` of this op to output `index` (or named output, or output 0) of src.
  Operator &SetInput(const char *dst_name, const Operator &src_oprt);
  Operator &SetInput(const char *dst_name, const Operator &src_oprt, const char *name);
  Operator &SetInput(const char *dst_name, const Operator &src_oprt, uint32_t index);
  Operator &SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index);
  Operator &SetInput(const std::string &dst_name, const Operator &src_oprt);
  Operator &SetInput(const std::string &dst_name, const Operator &src_oprt, const std::string &name);
  Operator &SetInput(const std::string &dst_name, const Operator &src_oprt, uint32_t index);

  size_t GetInputsSize() const;
  size_t GetOutputsSize() const;
  TensorDesc GetInputDesc(uint32_t index) const;
  TensorDesc GetInputDescByName(const char *name) const;
  TensorDesc GetInputDesc(const std::string &name) const;
  graphStatus UpdateInputDesc(const char *name, const TensorDesc &tensor_desc);
  graphStatus UpdateInputDesc(const std::string &name, const TensorDesc &tensor_desc);
  TensorDesc GetOutputDesc(uint32_t index) const;
  TensorDesc GetOutputDescByName(const char *name) const;
  TensorDesc GetOutputDesc(const std::string &name) const;
  graphStatus UpdateOutputDesc(const char *name, const TensorDesc &tensor_desc);
  graphStatus UpdateOutputDesc(const std::string &name, const TensorDesc &tensor_desc);
  TensorDesc GetDynamicInputDesc(const char *name, uint32_t index) const;
  graphStatus UpdateDynamicInputDesc(const char *name, uint32_t index, const TensorDesc &tensor_desc);
  TensorDesc GetDynamicOutputDesc(const char *name, uint32_t index) const;
  graphStatus UpdateDynamicOutputDesc(const char *name, uint32_t index, const TensorDesc &tensor_desc);

  Operator &SetAttr(const char *name, int64_t attr_value);
  Operator &SetAttr(const char *name, int32_t attr_value);
  Operator &SetAttr(const char *name, uint32_t attr_value);
  Operator &SetAttr(const char *name, const std::vector<int64_t> &attr_value);
  Operator &SetAttr(const char *name, const std::vector<int32_t> &attr_value);
  Operator &SetAttr(const char *name, const std::vector<uint32_t> &attr_value);
  Operator &SetAttr(const char *name, std::initializer_list<int64_t> &&attr_value);
  Operator &SetAttr(const char *name, float attr_value);
  Operator &SetAttr(const char *name, const std::vector<float> &attr_value);
  Operator &SetAttr(const char *name, bool attr_value);
  Operator &SetAttr(const char *name, const std::vector<bool> &attr_value);
  Operator &SetAttr(const char *name, const char *attr_value);
  Operator &SetAttr(const char *name, const std::string &attr_value);
  Operator &SetAttr(const char *name, const AscendString &attr_value);
  Operator &SetAttr(const char *name, const std::vector<std::string> &attr_value);
  Operator &SetAttr(const char *name, const std::vector<AscendString> &attr_value);
  Operator &SetAttr(const char *name, const Tensor &attr_value);
  Operator &SetAttr(const char *name, const ge::DataType &attr_value);
  Operator &SetAttr(const char *name, const std::vector<ge::DataType> &attr_value);
  Operator &SetAttr(const char *name, const std::vector<std::vector<int64_t>> &attr_value);

  graphStatus GetAttr(const char *name, int64_t &attr_value) const;
  graphStatus GetAttr(const char *name, int32_t &attr_value) const;
  graphStatus GetAttr(const char *name, uint32_t &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<int64_t> &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<int32_t> &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<uint32_t> &attr_value) const;
  graphStatus GetAttr(const char *name, float &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<float> &attr_value) const;
  graphStatus GetAttr(const char *name, bool &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<bool> &attr_value) const;
  graphStatus GetAttr(const char *name, std::string &attr_value) const;
  graphStatus GetAttr(const char *name, AscendString &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<std::string> &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<AscendString> &attr_value) const;
  graphStatus GetAttr(const char *name, Tensor &attr_value) const;
  graphStatus GetAttr(const char *name, ge::DataType &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<ge::DataType> &attr_value) const;
  graphStatus GetAttr(const char *name, std::vector<std::vector<int64_t>> &attr_value) const;

  // Attribute name -> REG_OP type name ("Int", "ListInt", ...), for every attr set on this op.
  graphStatus GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const;

 protected:
  // Called by the REG_OP-generated constructor, in declaration order.
  void AttrRegister(const char *name, int64_t attr_value);
  void AttrRegister(const char *name, float attr_value);
  void AttrRegister(const char *name, bool attr_value);
  void AttrRegister(const char *name, const std::string &attr_value);
  void AttrRegister(const char *name, const AscendString &attr_value);
  void AttrRegister(const char *name, const Tensor &attr_value);
  void AttrRegister(const char *name, const ge::DataType &attr_value);
  void AttrRegister(const char *name, const std::vector<int64_t> &attr_value);
  void AttrRegister(const char *name, const std::vector<float> &attr_value);
  void AttrRegister(const char *name, const std::vector<bool> &attr_value);
  void AttrRegister(const char *name, const std::vector<std::string> &attr_value);
  void AttrRegister(const char *name, const std::vector<AscendString> &attr_value);
  void AttrRegister(const char *name, const std::vector<ge::DataType> &attr_value);
  void AttrRegister(const char *name, const std::vector<std::vector<int64_t>> &attr_value);
  void RequiredAttrWithTypeRegister(const char *name, const char *type);
  void InputRegister(const char *name, const char *datatype_symbol);
  void OptionalInputRegister(const char *name, const char *datatype_symbol);
  void DynamicInputRegister(const char *name, uint32_t num, const char *datatype_symbol, bool is_push_back = true);
  void DynamicInputRegister(const char *name, uint32_t num, bool is_push_back = true);
  void DynamicInputRegisterByIndex(const char *name, uint32_t num, size_t index);
  void OutputRegister(const char *name, const char *datatype_symbol);
  void DynamicOutputRegister(const char *name, uint32_t num, const char *datatype_symbol, bool is_push_back = true);
  void DynamicOutputRegister(const char *name, uint32_t num, bool is_push_back = true);
  void DataTypeRegister(const char *datatype_symbol, const TensorType &type_range);

  // Dynamic input instance `dst_index` of IR input `dst_name`.
  Operator &SetInput(const char *dst_name, uint32_t dst_index, const Operator &src_oprt);
  Operator &SetInput(const char *dst_name, uint32_t dst_index, const Operator &src_oprt, const char *name);

 private:
  friend class OperatorInternal;
  std::shared_ptr<OperatorImpl> impl_;
};
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_OPERATOR_H_
