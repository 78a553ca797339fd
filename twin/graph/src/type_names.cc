#include "type_names.h"

#include <cctype>
#include <cstring>

namespace ge_twin {
namespace {
struct DtName {
  ge::DataType dt;
  const char *name;
};
#define GE_TWIN_DT(x) \
  { ge::x, #x }
const DtName kDataTypeNames[] = {
    GE_TWIN_DT(DT_FLOAT),       GE_TWIN_DT(DT_FLOAT16),       GE_TWIN_DT(DT_INT8),
    GE_TWIN_DT(DT_INT32),       GE_TWIN_DT(DT_UINT8),         GE_TWIN_DT(DT_INT16),
    GE_TWIN_DT(DT_UINT16),      GE_TWIN_DT(DT_UINT32),        GE_TWIN_DT(DT_INT64),
    GE_TWIN_DT(DT_UINT64),      GE_TWIN_DT(DT_DOUBLE),        GE_TWIN_DT(DT_BOOL),
    GE_TWIN_DT(DT_STRING),      GE_TWIN_DT(DT_DUAL_SUB_INT8), GE_TWIN_DT(DT_DUAL_SUB_UINT8),
    GE_TWIN_DT(DT_COMPLEX64),   GE_TWIN_DT(DT_COMPLEX128),    GE_TWIN_DT(DT_QINT8),
    GE_TWIN_DT(DT_QINT16),      GE_TWIN_DT(DT_QINT32),        GE_TWIN_DT(DT_QUINT8),
    GE_TWIN_DT(DT_QUINT16),     GE_TWIN_DT(DT_RESOURCE),      GE_TWIN_DT(DT_STRING_REF),
    GE_TWIN_DT(DT_DUAL),        GE_TWIN_DT(DT_VARIANT),       GE_TWIN_DT(DT_BF16),
    GE_TWIN_DT(DT_UNDEFINED),   GE_TWIN_DT(DT_INT4),          GE_TWIN_DT(DT_UINT1),
    GE_TWIN_DT(DT_INT2),        GE_TWIN_DT(DT_UINT2),         GE_TWIN_DT(DT_COMPLEX32),
    GE_TWIN_DT(DT_HIFLOAT8),    GE_TWIN_DT(DT_FLOAT8_E5M2),   GE_TWIN_DT(DT_FLOAT8_E4M3FN),
    GE_TWIN_DT(DT_FLOAT8_E8M0), GE_TWIN_DT(DT_FLOAT6_E3M2),   GE_TWIN_DT(DT_FLOAT6_E2M3),
    GE_TWIN_DT(DT_FLOAT4_E2M1), GE_TWIN_DT(DT_FLOAT4_E1M2),   GE_TWIN_DT(DT_HIFLOAT4),
};
#undef GE_TWIN_DT

std::string Trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  std::string t = s.substr(b, e - b);
  if (t.size() >= 2 && t.front() == '"' && t.back() == '"') t = t.substr(1, t.size() - 2);
  return t;
}

// Named TensorType sets, by the static member name used in the type argument.
bool NamedSet(const std::string &arg, std::vector<ge::DataType> *dtypes) {
  static const std::pair<const char *, ge::TensorType (*)()> kSets[] = {
      {"ALL", &ge::TensorType::ALL},
      {"FLOAT", &ge::TensorType::FLOAT},
      {"FloatingDataType", &ge::TensorType::FloatingDataType},
      {"IntegerDataType", &ge::TensorType::IntegerDataType},
      {"SignedDataType", &ge::TensorType::SignedDataType},
      {"UnsignedDataType", &ge::TensorType::UnsignedDataType},
      {"IndexNumberType", &ge::TensorType::IndexNumberType},
      {"RealNumberType", &ge::TensorType::RealNumberType},
      {"NumberType", &ge::TensorType::NumberType},
      {"BasicType", &ge::TensorType::BasicType},
  };
  for (const auto &set : kSets) {
    if (arg == std::string("TensorType::") + set.first + "()" ||
        arg == std::string("ge::TensorType::") + set.first + "()") {
      *dtypes = set.second().types;
      return true;
    }
  }
  return false;
}
}  // namespace

const char *DataTypeName(ge::DataType dt) {
  for (const auto &entry : kDataTypeNames) {
    if (entry.dt == dt) return entry.name;
  }
  return "";
}

bool DataTypeFromName(const std::string &name, ge::DataType *dt) {
  std::string key = name.rfind("ge::", 0) == 0 ? name.substr(4) : name;
  for (const auto &entry : kDataTypeNames) {
    if (key == entry.name) {
      *dt = entry.dt;
      return true;
    }
  }
  return false;
}

std::string TypeSymbol(const std::string &type_argument,
                       const std::vector<std::pair<std::string, std::vector<ge::DataType>>> &symbols) {
  std::string arg = Trim(type_argument);
  for (const auto &symbol : symbols) {
    if (symbol.first == arg) return arg;
  }
  return "";
}

bool ResolveTypeArgument(const std::string &type_argument,
                         const std::vector<std::pair<std::string, std::vector<ge::DataType>>> &symbols,
                         std::vector<ge::DataType> *dtypes) {
  std::string arg = Trim(type_argument);
  for (const auto &symbol : symbols) {
    if (symbol.first == arg) {
      *dtypes = symbol.second;
      return true;
    }
  }
  if (NamedSet(arg, dtypes)) return true;
  // Inline list: every DT_* token inside TensorType(...).
  if (arg.find("TensorType") == std::string::npos) return false;
  dtypes->clear();
  size_t pos = 0;
  while ((pos = arg.find("DT_", pos)) != std::string::npos) {
    size_t end = pos;
    while (end < arg.size() && (std::isalnum(static_cast<unsigned char>(arg[end])) || arg[end] == '_')) ++end;
    ge::DataType dt;
    if (!DataTypeFromName(arg.substr(pos, end - pos), &dt)) return false;
    dtypes->push_back(dt);
    pos = end;
  }
  return !dtypes->empty();
}
}  // namespace ge_twin
