// The node behind a ge::Operator handle: IR (from REG_OP), input/output instances, attrs, edges.
#ifndef GE_TWIN_GRAPH_SRC_OPERATOR_IMPL_H_
#define GE_TWIN_GRAPH_SRC_OPERATOR_IMPL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "graph/operator.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "export.h"

namespace ge {
enum class IrInputKind { kRequired = 0, kOptional = 1, kDynamic = 2 };
enum class IrOutputKind { kRequired = 0, kDynamic = 1 };

using AttrValue = std::variant<std::monostate, int64_t, float, bool, std::string, DataType, Tensor,
                               std::vector<int64_t>, std::vector<float>, std::vector<bool>, std::vector<std::string>,
                               std::vector<DataType>, std::vector<std::vector<int64_t>>>;

// REG_OP type name of a value ("Int", "ListInt", ...); "" for an empty value.
GE_TWIN_INTERNAL_API const char *AttrValueTypeName(const AttrValue &value);
// The VT_* name Python's IR uses for a REG_OP attr type name; "" if unknown.
GE_TWIN_INTERNAL_API const char *AttrTypeToValueTypeName(const std::string &reg_op_type);

struct IrInput {
  std::string name;
  IrInputKind kind;
  std::string type;  // the stringified type argument: a DATATYPE symbol or an inline TensorType
};
struct IrOutput {
  std::string name;
  IrOutputKind kind;
  std::string type;
};
struct IrAttr {
  std::string name;
  std::string type;  // REG_OP type name
  bool required;
  AttrValue default_value;  // empty when required
};

class OperatorImpl;
struct InputSlot {
  TensorDesc desc;
  std::shared_ptr<OperatorImpl> src;  // null: not connected
  uint32_t src_index = 0;
};

class GE_TWIN_INTERNAL_API OperatorImpl {
 public:
  OperatorImpl() = default;
  OperatorImpl(const OperatorImpl &) = default;
  OperatorImpl &operator=(const OperatorImpl &) = default;
  // Releases producers iteratively: a long chain (each op holding its producer through
  // InputSlot::src) would otherwise recurse once per node and overflow the stack.
  ~OperatorImpl();

  std::string name;
  std::string type;
  std::vector<IrInput> ir_inputs;
  std::vector<std::vector<InputSlot>> inputs;  // per IR input: its instances
  std::vector<IrOutput> ir_outputs;
  std::vector<std::vector<TensorDesc>> outputs;  // per IR output: its instances
  std::vector<IrAttr> ir_attrs;
  std::vector<std::pair<std::string, std::vector<DataType>>> datatype_symbols;
  std::map<std::string, AttrValue> attrs;

  // Instance names: the IR name for required/optional, IR name + relative index for dynamic.
  std::string InputInstanceName(size_t ir, size_t rel) const;
  std::string OutputInstanceName(size_t ir, size_t rel) const;
  bool FindInput(const std::string &instance_name, size_t *ir, size_t *rel) const;
  bool FindOutput(const std::string &instance_name, size_t *ir, size_t *rel) const;
  bool FlatInput(size_t index, size_t *ir, size_t *rel) const;
  bool FlatOutput(size_t index, size_t *ir, size_t *rel) const;
  size_t InputCount() const;
  size_t OutputCount() const;
  int FindIrInput(const std::string &ir_name) const;
  int FindIrOutput(const std::string &ir_name) const;
};

class OperatorInternal {
 public:
  static const std::shared_ptr<OperatorImpl> &Impl(const Operator &op) { return op.impl_; }
  static Operator Wrap(std::shared_ptr<OperatorImpl> impl) {
    Operator op;
    op.impl_ = std::move(impl);
    return op;
  }
};
}  // namespace ge

#endif  // GE_TWIN_GRAPH_SRC_OPERATOR_IMPL_H_
