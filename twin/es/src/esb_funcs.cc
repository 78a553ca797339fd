// libeager_style_graph_builder_base.so: the ES C API (include/ge/esb_funcs.h) over the twin's
// graph library. Nodes are real ge::Operator objects created through OperatorFactory, so a built
// graph is an ordinary ge::Graph (SaveToFile gives AIR that atc accepts).
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "esb_funcs.h"
#include "graph/graph.h"
#include "graph/operator.h"
#include "graph/operator_factory.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "twin/common/log/log.h"

namespace {
thread_local std::string g_last_error;

// Kept for EsGetLastError and logged (twin/common/log, module GE: ES is part of GE).
void SetError(const std::string &message, const char *file = __builtin_FILE(), int line = __builtin_LINE()) {
  g_last_error = message;
  ascend_twin::log::Write(ascend_twin::log::Level::kError, ascend_twin::log::kGe, file, line, message);
}

std::string Text(const char *s) { return s == nullptr ? std::string() : std::string(s); }

// The protected registration members of ge::Operator, reached through a handle copy (copies share
// the node): the base library adds dynamic instances and the outputs of Const/RefData nodes.
class OpAccess : public ge::Operator {
 public:
  explicit OpAccess(const ge::Operator &op) : ge::Operator(op) {}
  void AddDynamicInputs(const char *name, uint32_t num) { DynamicInputRegister(name, num, true); }
  void AddDynamicOutputs(const char *name, uint32_t num) { DynamicOutputRegister(name, num, true); }
  void AddInput(const char *name) { InputRegister(name, ""); }
  void AddOptionalInput(const char *name) { OptionalInputRegister(name, ""); }
  void AddDynamicInputIr(const char *name, uint32_t num) { DynamicInputRegister(name, num, "", true); }
  void AddOutput(const char *name) { OutputRegister(name, ""); }
  void AddDynamicOutputIr(const char *name, uint32_t num) { DynamicOutputRegister(name, num, "", true); }
};

bool ValidDataType(int32_t v) { return v >= 0 && v < static_cast<int32_t>(ge::DT_MAX); }
bool ValidFormat(int32_t v) { return v >= 0 && v < static_cast<int32_t>(ge::FORMAT_MAX); }

bool ReadDims(const int64_t *dims, int64_t dim_num, std::vector<int64_t> *out, const std::string &what) {
  if (dim_num < 0 || (dim_num > 0 && dims == nullptr)) {
    SetError(what + ": dims must point to dim_num (" + std::to_string(dim_num) + ") values");
    return false;
  }
  out->assign(dims, dims + dim_num);
  for (int64_t d : *out) {
    if (d < -2) {
      SetError(what + ": dim " + std::to_string(d) + " is invalid (>= 0, or -1/-2 for unknown)");
      return false;
    }
  }
  return true;
}
}  // namespace

struct EsCTensorHolder {
  EsCGraphBuilder *owner;
  uint64_t generation;
  ge::Operator op;
  std::string output_name;  // instance name: the IR name, or <ir name><i> for dynamic outputs
  int64_t flat_index;
  std::string producer;
};

struct EsCGraphBuilder {
  std::string name;
  uint64_t generation = 0;
  std::vector<ge::Operator> ops;
  std::set<std::string> node_names;
  std::map<std::string, int64_t> name_counters;
  std::map<int64_t, ge::Operator> inputs;
  std::map<int64_t, EsCTensorHolder *> outputs;
  std::deque<std::unique_ptr<EsCTensorHolder>> holders;
  std::deque<std::vector<EsCTensorHolder *>> holder_arrays;

  std::string UniqueName(const std::string &base) {
    for (;;) {
      std::string candidate = base + "_" + std::to_string(name_counters[base]++);
      if (node_names.count(candidate) == 0) return candidate;
    }
  }
  EsCTensorHolder *NewHolder(const ge::Operator &op, const std::string &output_name, int64_t flat_index) {
    holders.emplace_back(new EsCTensorHolder{this, generation, op, output_name, flat_index, op.GetName()});
    return holders.back().get();
  }
  void AddNode(const ge::Operator &op) {
    ops.push_back(op);
    node_names.insert(op.GetName());
  }
};

namespace {
// A holder usable for building: non-NULL and made by its builder since the last reset.
bool CheckHolder(const EsCTensorHolder *tensor, const std::string &what) {
  if (tensor == nullptr) {
    SetError(what + ": the tensor holder is NULL");
    return false;
  }
  if (tensor->generation != tensor->owner->generation) {
    SetError(what + ": tensor '" + tensor->producer + "' belongs to a graph that was already built by GraphBuilder '" +
             tensor->owner->name + "'");
    return false;
  }
  return true;
}

bool CheckBuilder(const EsCGraphBuilder *builder, const std::string &what) {
  if (builder == nullptr) SetError(what + ": the graph builder is NULL");
  return builder != nullptr;
}

ge::TensorDesc MakeDesc(int32_t data_type, int32_t format, const std::vector<int64_t> &dims) {
  ge::TensorDesc desc(ge::Shape(dims), static_cast<ge::Format>(format), static_cast<ge::DataType>(data_type));
  desc.SetOriginShape(ge::Shape(dims));
  desc.SetOriginFormat(static_cast<ge::Format>(format));
  return desc;
}

template <typename T>
EsCTensorHolder *CreateConst(EsCGraphBuilder *builder, const T *value, const int64_t *dims, int64_t dim_num,
                             int64_t num, ge::DataType data_type) {
  const std::string what = "create constant";
  if (!CheckBuilder(builder, what)) return nullptr;
  if (num < 0 || (num > 0 && value == nullptr)) {
    SetError(what + ": value must point to num (" + std::to_string(num) + ") elements");
    return nullptr;
  }
  std::vector<int64_t> shape;
  if (dims == nullptr && dim_num == 0) {
    shape = {num};
  } else if (!ReadDims(dims, dim_num, &shape, what)) {
    return nullptr;
  }
  int64_t expected = 1;
  for (int64_t d : shape) expected *= d;
  if (expected != num) {
    SetError(what + ": " + std::to_string(num) + " values do not fill a shape of " + std::to_string(expected) +
             " elements");
    return nullptr;
  }
  ge::Operator op(builder->UniqueName("Const").c_str(), "Const");
  OpAccess(op).AddOutput("y");
  ge::TensorDesc desc = MakeDesc(data_type, ge::FORMAT_ND, shape);
  ge::Tensor tensor(desc, reinterpret_cast<const uint8_t *>(value), static_cast<size_t>(num) * sizeof(T));
  op.SetAttr("value", tensor);
  op.UpdateOutputDesc("y", desc);
  builder->AddNode(op);
  return builder->NewHolder(op, "y", 0);
}
}  // namespace

// ---- node building ----

struct EsCNodeBuilder {
  struct In {
    std::string name;
    int kind;  // 0 required, 1 optional, 2 dynamic
    std::vector<EsCTensorHolder *> tensors;
  };
  struct Out {
    std::string name;
    bool dynamic;
    int64_t num;
    std::vector<EsCTensorHolder *> holders;
  };
  std::string op_type;
  EsCGraphBuilder *owner = nullptr;
  std::vector<In> inputs;
  std::vector<Out> outputs;
  std::vector<std::pair<std::string, std::function<void(ge::Operator &)>>> attrs;
  std::string error;
  bool built = false;

  void Fail(const std::string &message) {
    if (error.empty()) error = op_type + ": " + message;
  }
};

namespace {
template <typename T>
void AddAttr(EsCNodeBuilder *node, const char *name, T value) {
  if (node == nullptr) return;
  if (name == nullptr) return node->Fail("attr name is NULL");
  std::string attr = name;
  node->attrs.emplace_back(attr, [attr, value](ge::Operator &op) { op.SetAttr(attr.c_str(), value); });
}

template <typename T>
bool ReadList(EsCNodeBuilder *node, const char *name, const T *value, int64_t num, std::vector<T> *out) {
  if (num < 0 || (num > 0 && value == nullptr)) {
    node->Fail(std::string("attr ") + Text(name) + ": list must point to num (" + std::to_string(num) + ") elements");
    return false;
  }
  out->assign(value, value + num);
  return true;
}
}  // namespace

namespace {
template <typename F>
uint32_t UpdateOutputDesc(EsCTensorHolder *tensor, const std::string &what, F &&change) {
  if (!CheckHolder(tensor, what)) return ge::GRAPH_PARAM_INVALID;
  ge::TensorDesc desc = tensor->op.GetOutputDescByName(tensor->output_name.c_str());
  change(desc);
  return tensor->op.UpdateOutputDesc(tensor->output_name.c_str(), desc);
}
}  // namespace

namespace {
void AddInput(EsCNodeBuilder *node, const char *ir_name, int kind, EsCTensorHolder *const *tensors, int64_t num) {
  if (node == nullptr) return;
  if (ir_name == nullptr) return node->Fail("input name is NULL");
  if (num < 0 || (num > 0 && tensors == nullptr)) {
    return node->Fail(std::string("dynamic input ") + ir_name + " must point to num (" + std::to_string(num) +
                      ") tensors");
  }
  EsCNodeBuilder::In in{ir_name, kind, {}};
  for (int64_t i = 0; i < num; ++i) {
    if (tensors[i] == nullptr) {
      if (kind == 1) continue;  // an absent optional input
      return node->Fail(std::string("input ") + ir_name + (kind == 2 ? "[" + std::to_string(i) + "]" : "") +
                        " is NULL");
    }
    in.tensors.push_back(tensors[i]);
  }
  node->inputs.push_back(std::move(in));
}
}  // namespace

extern "C" {

EsCGraphBuilder *EsCreateGraphBuilder(const char *name) {
  auto *builder = new EsCGraphBuilder();
  builder->name = (name == nullptr || *name == '\0') ? "graph" : name;
  return builder;
}

void EsDestroyGraphBuilder(EsCGraphBuilder *builder) { delete builder; }

const char *EsGetGraphBuilderName(const EsCGraphBuilder *builder) {
  return builder == nullptr ? "" : builder->name.c_str();
}

EsCTensorHolder *EsCreateGraphInputWithDetails(EsCGraphBuilder *builder, int64_t index, const char *name,
                                               const char *input_type, EsCDataType data_type, EsCFormat format,
                                               const int64_t *dims, int64_t dim_num) {
  const std::string what = "create input " + std::to_string(index);
  if (!CheckBuilder(builder, what)) return nullptr;
  if (index < 0) {
    SetError(what + ": the input index must be non-negative");
    return nullptr;
  }
  if (builder->inputs.count(index) != 0) {
    SetError(what + ": graph '" + builder->name + "' already has input " + std::to_string(index));
    return nullptr;
  }
  if (!ValidDataType(data_type) || !ValidFormat(format)) {
    SetError(what + ": invalid data type " + std::to_string(data_type) + " or format " + std::to_string(format));
    return nullptr;
  }
  std::vector<int64_t> shape;
  if (!ReadDims(dims, dim_num, &shape, what)) return nullptr;
  std::string type = (input_type == nullptr || *input_type == '\0') ? "Data" : input_type;
  if (type != "Data" && type != "RefData" && type != "AippData" && type != "AnyData") {
    SetError(what + ": input type '" + type + "' is not one of Data, RefData, AippData, AnyData");
    return nullptr;
  }
  std::string node_name = (name == nullptr || *name == '\0') ? "input_" + std::to_string(index) : name;
  if (builder->node_names.count(node_name) != 0) {
    SetError(what + ": node name '" + node_name + "' already exists");
    return nullptr;
  }
  ge::Operator op;
  if (type == "Data") {
    op = ge::OperatorFactory::CreateOperator(node_name.c_str(), "Data");
  } else {  // the other input types have no prototype in the twin: same x -> y layout as Data
    op = ge::Operator(node_name.c_str(), type.c_str());
    OpAccess access(op);
    access.AddInput("x");
    access.AddOutput("y");
  }
  if (op.IsEmpty()) {
    SetError(what + ": the graph library has no '" + type + "' prototype");
    return nullptr;
  }
  ge::TensorDesc desc = MakeDesc(data_type, format, shape);
  op.SetAttr("index", index);
  op.UpdateInputDesc("x", desc);
  op.UpdateOutputDesc("y", desc);
  builder->AddNode(op);
  builder->inputs[index] = op;
  return builder->NewHolder(op, "y", 0);
}

EsCTensorHolder *EsCreateGraphInput(EsCGraphBuilder *builder, int64_t index) {
  return EsCreateGraphInputWithDetails(builder, index, nullptr, nullptr, ge::DT_FLOAT, ge::FORMAT_ND, nullptr, 0);
}

EsCTensorHolder *EsCreateConstInt64(EsCGraphBuilder *builder, const int64_t *value, const int64_t *dims,
                                    int64_t dim_num, int64_t num) {
  return CreateConst(builder, value, dims, dim_num, num, ge::DT_INT64);
}
EsCTensorHolder *EsCreateConstInt32(EsCGraphBuilder *builder, const int32_t *value, const int64_t *dims,
                                    int64_t dim_num, int64_t num) {
  return CreateConst(builder, value, dims, dim_num, num, ge::DT_INT32);
}
EsCTensorHolder *EsCreateConstFloat(EsCGraphBuilder *builder, const float *value, const int64_t *dims, int64_t dim_num,
                                    int64_t num) {
  return CreateConst(builder, value, dims, dim_num, num, ge::DT_FLOAT);
}
EsCTensorHolder *EsCreateScalarInt64(EsCGraphBuilder *builder, int64_t value) {
  static const int64_t kNoDims[1] = {0};
  return CreateConst(builder, &value, kNoDims, 0, 1, ge::DT_INT64);
}
EsCTensorHolder *EsCreateScalarInt32(EsCGraphBuilder *builder, int32_t value) {
  static const int64_t kNoDims[1] = {0};
  return CreateConst(builder, &value, kNoDims, 0, 1, ge::DT_INT32);
}
EsCTensorHolder *EsCreateScalarFloat(EsCGraphBuilder *builder, float value) {
  static const int64_t kNoDims[1] = {0};
  return CreateConst(builder, &value, kNoDims, 0, 1, ge::DT_FLOAT);
}
EsCTensorHolder *EsCreateVectorInt64(EsCGraphBuilder *builder, const int64_t *value, int64_t num) {
  return CreateConst(builder, value, nullptr, 0, num, ge::DT_INT64);
}

uint32_t EsSetGraphOutput(EsCTensorHolder *tensor, int64_t output_index) {
  const std::string what = "set graph output " + std::to_string(output_index);
  if (!CheckHolder(tensor, what)) return ge::GRAPH_PARAM_INVALID;
  if (output_index < 0) {
    SetError(what + ": the output index must be non-negative");
    return ge::GRAPH_PARAM_INVALID;
  }
  tensor->owner->outputs[output_index] = tensor;
  return ge::GRAPH_SUCCESS;
}

EsCGraph *EsBuildGraphAndReset(EsCGraphBuilder *builder) {
  const std::string what = "build graph";
  if (!CheckBuilder(builder, what)) return nullptr;
  int64_t expected = 0;
  for (const auto &entry : builder->outputs) {
    if (entry.first != expected) {
      SetError(what + " '" + builder->name + "': graph output " + std::to_string(expected) + " is not set");
      return nullptr;
    }
    ++expected;
  }
  expected = 0;
  std::vector<ge::Operator> inputs;
  for (const auto &entry : builder->inputs) {
    if (entry.first != expected) {
      SetError(what + " '" + builder->name + "': graph input " + std::to_string(expected) +
               " is missing (inputs must be numbered 0..n-1)");
      return nullptr;
    }
    inputs.push_back(entry.second);
    ++expected;
  }
  std::vector<std::pair<ge::Operator, ge::AscendString>> outputs;
  outputs.reserve(builder->outputs.size());
  for (const auto &entry : builder->outputs) {
    outputs.emplace_back(entry.second->op, ge::AscendString(entry.second->output_name.c_str()));
  }
  auto graph = std::make_unique<ge::Graph>(builder->name.c_str());
  graph->SetInputs(inputs).SetOutputs(outputs);
  // Nodes that feed no output are part of the graph as well (CANN keeps every built node).
  for (const auto &op : builder->ops) graph->AddOp(op);
  if (!graph->IsValid()) {
    SetError(what + " '" + builder->name + "': the graph library rejected the graph (see the line above)");
    return nullptr;
  }
  EsCGraphBuilder fresh;
  fresh.name = builder->name;
  fresh.generation = builder->generation + 1;
  // Holders stay allocated (callers may still hold pointers) but belong to an old generation.
  fresh.holders.swap(builder->holders);
  fresh.holder_arrays.swap(builder->holder_arrays);
  *builder = std::move(fresh);
  return reinterpret_cast<EsCGraph *>(graph.release());
}

EsCGraphBuilder *EsGetOwnerBuilder(const EsCTensorHolder *tensor) {
  return tensor == nullptr ? nullptr : tensor->owner;
}
const char *EsGetProducerName(const EsCTensorHolder *tensor) {
  return tensor == nullptr ? "" : tensor->producer.c_str();
}
int64_t EsGetOutputIndex(const EsCTensorHolder *tensor) { return tensor == nullptr ? -1 : tensor->flat_index; }

uint32_t EsSetDataType(EsCTensorHolder *tensor, EsCDataType data_type) {
  if (!ValidDataType(data_type)) {
    SetError("set data type: invalid data type " + std::to_string(data_type));
    return ge::GRAPH_PARAM_INVALID;
  }
  return UpdateOutputDesc(tensor, "set data type",
                          [&](ge::TensorDesc &d) { d.SetDataType(static_cast<ge::DataType>(data_type)); });
}

uint32_t EsSetFormat(EsCTensorHolder *tensor, EsCFormat format) {
  if (!ValidFormat(format)) {
    SetError("set format: invalid format " + std::to_string(format));
    return ge::GRAPH_PARAM_INVALID;
  }
  return UpdateOutputDesc(tensor, "set format", [&](ge::TensorDesc &d) {
    d.SetFormat(static_cast<ge::Format>(format));
    d.SetOriginFormat(static_cast<ge::Format>(format));
  });
}

uint32_t EsSetShape(EsCTensorHolder *tensor, const int64_t *dims, int64_t dim_num) {
  std::vector<int64_t> shape;
  if (!ReadDims(dims, dim_num, &shape, "set shape")) return ge::GRAPH_PARAM_INVALID;
  return UpdateOutputDesc(tensor, "set shape", [&](ge::TensorDesc &d) {
    d.SetShape(ge::Shape(shape));
    d.SetOriginShape(ge::Shape(shape));
  });
}

uint32_t EsSetInt64AttrForNode(EsCTensorHolder *tensor, const char *name, int64_t value) {
  if (!CheckHolder(tensor, "set node attr") || name == nullptr) return ge::GRAPH_PARAM_INVALID;
  tensor->op.SetAttr(name, value);
  return ge::GRAPH_SUCCESS;
}
uint32_t EsSetStringAttrForNode(EsCTensorHolder *tensor, const char *name, const char *value) {
  if (!CheckHolder(tensor, "set node attr") || name == nullptr || value == nullptr) return ge::GRAPH_PARAM_INVALID;
  tensor->op.SetAttr(name, value);
  return ge::GRAPH_SUCCESS;
}
uint32_t EsSetBoolAttrForNode(EsCTensorHolder *tensor, const char *name, bool value) {
  if (!CheckHolder(tensor, "set node attr") || name == nullptr) return ge::GRAPH_PARAM_INVALID;
  tensor->op.SetAttr(name, value);
  return ge::GRAPH_SUCCESS;
}

EsCNodeBuilder *EsNodeBegin(const char *op_type, EsCGraphBuilder *owner) {
  auto *node = new EsCNodeBuilder();
  node->op_type = Text(op_type);
  node->owner = owner;
  if (node->op_type.empty()) node->Fail("op type is empty");
  return node;
}

void EsNodeInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *tensor) {
  AddInput(node, ir_name, 0, &tensor, 1);
}
void EsNodeOptionalInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *tensor) {
  AddInput(node, ir_name, 1, &tensor, 1);
}
void EsNodeDynamicInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *const *tensors, int64_t num) {
  AddInput(node, ir_name, 2, tensors, num);
}

void EsNodeOutput(EsCNodeBuilder *node, const char *ir_name) {
  if (node == nullptr) return;
  if (ir_name == nullptr) return node->Fail("output name is NULL");
  node->outputs.push_back(EsCNodeBuilder::Out{ir_name, false, 1, {}});
}
void EsNodeDynamicOutput(EsCNodeBuilder *node, const char *ir_name, int64_t num) {
  if (node == nullptr) return;
  if (ir_name == nullptr) return node->Fail("output name is NULL");
  if (num < 0)
    return node->Fail(std::string("dynamic output ") + ir_name + " count " + std::to_string(num) + " is negative");
  node->outputs.push_back(EsCNodeBuilder::Out{ir_name, true, num, {}});
}

void EsNodeAttrInt(EsCNodeBuilder *node, const char *name, int64_t value) { AddAttr(node, name, value); }
void EsNodeAttrFloat(EsCNodeBuilder *node, const char *name, float value) { AddAttr(node, name, value); }
void EsNodeAttrBool(EsCNodeBuilder *node, const char *name, bool value) { AddAttr(node, name, value); }
void EsNodeAttrString(EsCNodeBuilder *node, const char *name, const char *value) {
  if (node != nullptr && value == nullptr) return node->Fail(std::string("attr ") + Text(name) + " is NULL");
  AddAttr(node, name, std::string(value == nullptr ? "" : value));
}
void EsNodeAttrDataType(EsCNodeBuilder *node, const char *name, EsCDataType value) {
  if (node != nullptr && !ValidDataType(value)) {
    return node->Fail(std::string("attr ") + Text(name) + ": invalid data type " + std::to_string(value));
  }
  AddAttr(node, name, static_cast<ge::DataType>(value));
}
void EsNodeAttrTensor(EsCNodeBuilder *node, const char *name, const void *value) {
  if (value == nullptr) return;  // NULL keeps the IR default
  AddAttr(node, name, *static_cast<const ge::Tensor *>(value));
}
void EsNodeAttrListInt(EsCNodeBuilder *node, const char *name, const int64_t *value, int64_t num) {
  std::vector<int64_t> list;
  if (node != nullptr && ReadList(node, name, value, num, &list)) AddAttr(node, name, list);
}
void EsNodeAttrListFloat(EsCNodeBuilder *node, const char *name, const float *value, int64_t num) {
  std::vector<float> list;
  if (node != nullptr && ReadList(node, name, value, num, &list)) AddAttr(node, name, list);
}
void EsNodeAttrListBool(EsCNodeBuilder *node, const char *name, const bool *value, int64_t num) {
  std::vector<bool> list;
  if (node == nullptr) return;
  if (num < 0 || (num > 0 && value == nullptr)) {
    return node->Fail(std::string("attr ") + Text(name) + ": list must point to num (" + std::to_string(num) +
                      ") elements");
  }
  list.assign(value, value + num);
  AddAttr(node, name, list);
}
void EsNodeAttrListString(EsCNodeBuilder *node, const char *name, const char *const *value, int64_t num) {
  std::vector<const char *> raw;
  if (node == nullptr || !ReadList(node, name, value, num, &raw)) return;
  std::vector<std::string> list;
  for (const char *s : raw) {
    if (s == nullptr) return node->Fail(std::string("attr ") + Text(name) + " has a NULL string");
    list.emplace_back(s);
  }
  AddAttr(node, name, list);
}
void EsNodeAttrListDataType(EsCNodeBuilder *node, const char *name, const EsCDataType *value, int64_t num) {
  std::vector<EsCDataType> raw;
  if (node == nullptr || !ReadList(node, name, value, num, &raw)) return;
  std::vector<ge::DataType> list;
  for (EsCDataType v : raw) {
    if (!ValidDataType(v)) {
      return node->Fail(std::string("attr ") + Text(name) + ": invalid data type " + std::to_string(v));
    }
    list.push_back(static_cast<ge::DataType>(v));
  }
  AddAttr(node, name, list);
}
void EsNodeAttrListListInt(EsCNodeBuilder *node, const char *name, const int64_t *const *value,
                           const int64_t *inner_num, int64_t num) {
  if (node == nullptr) return;
  if (num < 0 || (num > 0 && (value == nullptr || inner_num == nullptr))) {
    return node->Fail(std::string("attr ") + Text(name) + ": list must point to num (" + std::to_string(num) +
                      ") rows");
  }
  std::vector<std::vector<int64_t>> list;
  for (int64_t i = 0; i < num; ++i) {
    std::vector<int64_t> row;
    if (!ReadList(node, name, value[i], inner_num[i], &row)) return;
    list.push_back(std::move(row));
  }
  AddAttr(node, name, list);
}

uint32_t EsNodeEnd(EsCNodeBuilder *node) {
  if (node == nullptr) {
    SetError("build node: the node builder is NULL");
    return ge::GRAPH_PARAM_INVALID;
  }
  // The owner: the builder of the inputs (all the same one), else the explicit owner.
  EsCGraphBuilder *owner = nullptr;
  for (const auto &in : node->inputs) {
    for (EsCTensorHolder *t : in.tensors) {
      if (!node->error.empty()) break;
      if (owner == nullptr) owner = t->owner;
      if (t->owner != owner) {
        node->Fail("input " + in.name + " belongs to GraphBuilder '" + t->owner->name + "', not '" + owner->name + "'");
      } else if (t->generation != owner->generation) {
        node->Fail("input " + in.name + " (tensor '" + t->producer + "') belongs to a graph that was already built");
      }
    }
  }
  if (owner == nullptr) owner = node->owner;
  if (owner == nullptr && node->error.empty()) {
    node->Fail("cannot resolve the owner graph builder: no input tensor and no owner builder");
  }
  if (!node->error.empty()) {
    SetError(node->error);
    return ge::GRAPH_PARAM_INVALID;
  }
  // A registered prototype gives the node its full IR (dtype symbols, attr defaults); otherwise
  // the layout the generated code declares is the IR, as CANN's ES builds nodes without the
  // proto library loaded in the process.
  const std::string node_name = owner->UniqueName(node->op_type);
  const bool registered = ge::OperatorFactory::IsExistOp(node->op_type.c_str());
  ge::Operator op = registered ? ge::OperatorFactory::CreateOperator(node_name.c_str(), node->op_type.c_str())
                               : ge::Operator(node_name.c_str(), node->op_type.c_str());
  OpAccess access(op);
  size_t expected_inputs = 0, expected_outputs = 0;
  for (const auto &in : node->inputs) {
    const auto num = static_cast<uint32_t>(in.tensors.size());
    if (registered) {
      if (in.kind == 2) access.AddDynamicInputs(in.name.c_str(), num);
    } else if (in.kind == 0) {
      access.AddInput(in.name.c_str());
    } else if (in.kind == 1) {
      access.AddOptionalInput(in.name.c_str());
    } else {
      access.AddDynamicInputIr(in.name.c_str(), num);
    }
    expected_inputs += in.kind == 2 ? in.tensors.size() : 1;
  }
  for (const auto &out : node->outputs) {
    const auto num = static_cast<uint32_t>(out.num);
    if (registered) {
      if (out.dynamic) access.AddDynamicOutputs(out.name.c_str(), num);
    } else if (out.dynamic) {
      access.AddDynamicOutputIr(out.name.c_str(), num);
    } else {
      access.AddOutput(out.name.c_str());
    }
    expected_outputs += static_cast<size_t>(out.num);
  }
  // The generated code and the loaded prototype must agree on the IR layout.
  if (op.GetInputsSize() != expected_inputs || op.GetOutputsSize() != expected_outputs) {
    SetError(node->op_type + ": the registered prototype has " + std::to_string(op.GetInputsSize()) + " input and " +
             std::to_string(op.GetOutputsSize()) + " output instances, the generated code expects " +
             std::to_string(expected_inputs) + " and " + std::to_string(expected_outputs) +
             " (regenerate the ES code for this proto library)");
    return ge::GRAPH_INVALID_IR_DEF;
  }
  for (const auto &in : node->inputs) {
    for (size_t i = 0; i < in.tensors.size(); ++i) {
      std::string instance = in.kind == 2 ? in.name + std::to_string(i) : in.name;
      const EsCTensorHolder *src = in.tensors[i];
      op.SetInput(instance.c_str(), src->op, src->output_name.c_str());
      op.UpdateInputDesc(instance.c_str(), src->op.GetOutputDescByName(src->output_name.c_str()));
    }
  }
  for (auto &attr : node->attrs) attr.second(op);
  owner->AddNode(op);
  int64_t flat = 0;
  for (auto &out : node->outputs) {
    for (int64_t i = 0; i < out.num; ++i, ++flat) {
      out.holders.push_back(owner->NewHolder(op, out.dynamic ? out.name + std::to_string(i) : out.name, flat));
    }
  }
  node->built = true;
  return ge::GRAPH_SUCCESS;
}

EsCTensorHolder *EsNodeGetOutput(EsCNodeBuilder *node, int64_t ir_index) {
  if (node == nullptr || !node->built || ir_index < 0 || ir_index >= static_cast<int64_t>(node->outputs.size())) {
    return nullptr;
  }
  auto &out = node->outputs[static_cast<size_t>(ir_index)];
  return out.holders.empty() ? nullptr : out.holders[0];
}

EsCTensorHolder **EsNodeGetDynamicOutputs(EsCNodeBuilder *node, int64_t ir_index, int64_t *num) {
  if (num != nullptr) *num = 0;
  if (node == nullptr || !node->built || ir_index < 0 || ir_index >= static_cast<int64_t>(node->outputs.size())) {
    return nullptr;
  }
  auto &out = node->outputs[static_cast<size_t>(ir_index)];
  EsCGraphBuilder *owner = out.holders.empty() ? nullptr : out.holders[0]->owner;
  if (num != nullptr) *num = static_cast<int64_t>(out.holders.size());
  if (owner == nullptr) return nullptr;
  owner->holder_arrays.push_back(out.holders);
  return owner->holder_arrays.back().data();
}

void EsNodeRelease(EsCNodeBuilder *node) { delete node; }

const char *EsGetLastErrorMessage(void) { return g_last_error.c_str(); }

}  // extern "C"
