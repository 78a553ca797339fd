#include "operator_impl.h"

#include <cstring>

namespace ge {
const char *AttrValueTypeName(const AttrValue &value) {
  static const char *const kNames[] = {"",           "Int",      "Float",      "Bool",      "String",
                                       "Type",       "Tensor",   "ListInt",    "ListFloat", "ListBool",
                                       "ListString", "ListType", "ListListInt"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == std::variant_size_v<AttrValue>, "one name per kind");
  return kNames[value.index()];
}

const char *AttrTypeToValueTypeName(const std::string &t) {
  static const std::pair<const char *, const char *> kMap[] = {{"Int", "VT_INT"},
                                                               {"Float", "VT_FLOAT"},
                                                               {"Bool", "VT_BOOL"},
                                                               {"String", "VT_STRING"},
                                                               {"AscendString", "VT_STRING"},
                                                               {"Type", "VT_DATA_TYPE"},
                                                               {"Tensor", "VT_TENSOR"},
                                                               {"ListInt", "VT_LIST_INT"},
                                                               {"ListFloat", "VT_LIST_FLOAT"},
                                                               {"ListBool", "VT_LIST_BOOL"},
                                                               {"ListString", "VT_LIST_STRING"},
                                                               {"ListAscendString", "VT_LIST_STRING"},
                                                               {"ListType", "VT_LIST_DATA_TYPE"},
                                                               {"ListListInt", "VT_LIST_LIST_INT"}};
  for (const auto &entry : kMap) {
    if (t == entry.first) return entry.second;
  }
  return "";
}

std::string OperatorImpl::InputInstanceName(size_t ir, size_t rel) const {
  const IrInput &def = ir_inputs[ir];
  return def.kind == IrInputKind::kDynamic ? def.name + std::to_string(rel) : def.name;
}

std::string OperatorImpl::OutputInstanceName(size_t ir, size_t rel) const {
  const IrOutput &def = ir_outputs[ir];
  return def.kind == IrOutputKind::kDynamic ? def.name + std::to_string(rel) : def.name;
}

bool OperatorImpl::FindInput(const std::string &instance_name, size_t *ir, size_t *rel) const {
  for (size_t i = 0; i < ir_inputs.size(); ++i) {
    for (size_t r = 0; r < inputs[i].size(); ++r) {
      if (InputInstanceName(i, r) == instance_name) {
        *ir = i;
        *rel = r;
        return true;
      }
    }
  }
  return false;
}

bool OperatorImpl::FindOutput(const std::string &instance_name, size_t *ir, size_t *rel) const {
  for (size_t i = 0; i < ir_outputs.size(); ++i) {
    for (size_t r = 0; r < outputs[i].size(); ++r) {
      if (OutputInstanceName(i, r) == instance_name) {
        *ir = i;
        *rel = r;
        return true;
      }
    }
  }
  return false;
}

bool OperatorImpl::FlatInput(size_t index, size_t *ir, size_t *rel) const {
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (index < inputs[i].size()) {
      *ir = i;
      *rel = index;
      return true;
    }
    index -= inputs[i].size();
  }
  return false;
}

bool OperatorImpl::FlatOutput(size_t index, size_t *ir, size_t *rel) const {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (index < outputs[i].size()) {
      *ir = i;
      *rel = index;
      return true;
    }
    index -= outputs[i].size();
  }
  return false;
}

size_t OperatorImpl::InputCount() const {
  size_t n = 0;
  for (const auto &v : inputs) n += v.size();
  return n;
}

size_t OperatorImpl::OutputCount() const {
  size_t n = 0;
  for (const auto &v : outputs) n += v.size();
  return n;
}

int OperatorImpl::FindIrInput(const std::string &ir_name) const {
  for (size_t i = 0; i < ir_inputs.size(); ++i) {
    if (ir_inputs[i].name == ir_name) return static_cast<int>(i);
  }
  return -1;
}

int OperatorImpl::FindIrOutput(const std::string &ir_name) const {
  for (size_t i = 0; i < ir_outputs.size(); ++i) {
    if (ir_outputs[i].name == ir_name) return static_cast<int>(i);
  }
  return -1;
}
}  // namespace ge
