#include "air_values.h"

#include <variant>
#include <vector>

namespace ge {
namespace air = ::ge::twin::air;

void EncodeDesc(const TensorDesc &desc, air::TensorDesc *out) {
  for (int64_t d : desc.GetShape().GetDims()) out->add_dims(d);
  out->set_dtype(static_cast<int32_t>(desc.GetDataType()));
  out->set_format(static_cast<int32_t>(desc.GetFormat()));
  for (int64_t d : desc.GetOriginShape().GetDims()) out->add_origin_dims(d);
  out->set_origin_format(static_cast<int32_t>(desc.GetOriginFormat()));
  AscendString name;
  desc.GetName(name);
  out->set_name(name.GetString());
  out->set_placement(static_cast<int32_t>(desc.GetPlacement()));
}

void EncodeAttr(const AttrValue &value, air::AttrValue *out) {
  struct Visitor {
    air::AttrValue *out;
    void operator()(const std::monostate &) const {}
    void operator()(int64_t v) const { out->set_i(v); }
    void operator()(float v) const { out->set_f(v); }
    void operator()(bool v) const { out->set_b(v); }
    void operator()(const std::string &v) const { out->set_s(v); }
    void operator()(DataType v) const { out->set_dt(static_cast<int32_t>(v)); }
    void operator()(const Tensor &v) const {
      EncodeDesc(v.GetTensorDesc(), out->mutable_t()->mutable_desc());
      out->mutable_t()->set_data(reinterpret_cast<const char *>(v.GetData()), v.GetSize());
    }
    void operator()(const std::vector<int64_t> &v) const {
      auto *list = out->mutable_list_i();
      for (int64_t x : v) list->add_values(x);
    }
    void operator()(const std::vector<float> &v) const {
      auto *list = out->mutable_list_f();
      for (float x : v) list->add_values(x);
    }
    void operator()(const std::vector<bool> &v) const {
      auto *list = out->mutable_list_b();
      for (bool x : v) list->add_values(x);
    }
    void operator()(const std::vector<std::string> &v) const {
      auto *list = out->mutable_list_s();
      for (const auto &x : v) list->add_values(x);
    }
    void operator()(const std::vector<DataType> &v) const {
      auto *list = out->mutable_list_dt();
      for (DataType x : v) list->add_values(static_cast<int32_t>(x));
    }
    void operator()(const std::vector<std::vector<int64_t>> &v) const {
      auto *list = out->mutable_list_list_i();
      for (const auto &row : v) {
        auto *r = list->add_values();
        for (int64_t x : row) r->add_values(x);
      }
    }
  };
  std::visit(Visitor{out}, value);
}

std::string CheckEnumValue(int32_t value, int32_t limit, const char *what, const std::string &where) {
  if (value < 0 || value >= limit) {
    return where + ": " + what + " " + std::to_string(value) + " is out of range [0, " + std::to_string(limit) + ")";
  }
  return "";
}

std::string DecodeDesc(const air::TensorDesc &in, const std::string &where, TensorDesc *out) {
  std::string err = CheckEnumValue(in.dtype(), DT_MAX, "dtype", where);
  if (err.empty()) err = CheckEnumValue(in.format(), FORMAT_MAX, "format", where);
  if (err.empty()) err = CheckEnumValue(in.origin_format(), FORMAT_MAX, "origin_format", where);
  if (err.empty()) err = CheckEnumValue(in.placement(), kPlacementEnd, "placement", where);
  if (!err.empty()) return err;
  TensorDesc desc(Shape(std::vector<int64_t>(in.dims().begin(), in.dims().end())), static_cast<Format>(in.format()),
                  static_cast<DataType>(in.dtype()));
  desc.SetOriginShape(Shape(std::vector<int64_t>(in.origin_dims().begin(), in.origin_dims().end())));
  desc.SetOriginFormat(static_cast<Format>(in.origin_format()));
  desc.SetName(in.name().c_str());
  desc.SetPlacement(static_cast<Placement>(in.placement()));
  *out = desc;
  return "";
}

std::string DecodeAttr(const air::AttrValue &in, const std::string &where, AttrValue *out) {
  switch (in.value_case()) {
    case air::AttrValue::kI:
      *out = static_cast<int64_t>(in.i());
      return "";
    case air::AttrValue::kF:
      *out = in.f();
      return "";
    case air::AttrValue::kB:
      *out = in.b();
      return "";
    case air::AttrValue::kS:
      *out = in.s();
      return "";
    case air::AttrValue::kDt: {
      std::string err = CheckEnumValue(in.dt(), DT_MAX, "dtype", where);
      if (err.empty()) *out = static_cast<DataType>(in.dt());
      return err;
    }
    case air::AttrValue::kT: {
      TensorDesc desc;
      std::string err = DecodeDesc(in.t().desc(), where, &desc);
      if (err.empty()) {
        const std::string &data = in.t().data();
        *out = Tensor(desc, reinterpret_cast<const uint8_t *>(data.data()), data.size());
      }
      return err;
    }
    case air::AttrValue::kListI:
      *out = std::vector<int64_t>(in.list_i().values().begin(), in.list_i().values().end());
      return "";
    case air::AttrValue::kListF:
      *out = std::vector<float>(in.list_f().values().begin(), in.list_f().values().end());
      return "";
    case air::AttrValue::kListB:
      *out = std::vector<bool>(in.list_b().values().begin(), in.list_b().values().end());
      return "";
    case air::AttrValue::kListS:
      *out = std::vector<std::string>(in.list_s().values().begin(), in.list_s().values().end());
      return "";
    case air::AttrValue::kListDt: {
      std::vector<DataType> values;
      for (int32_t v : in.list_dt().values()) {
        std::string err = CheckEnumValue(v, DT_MAX, "dtype", where);
        if (!err.empty()) return err;
        values.push_back(static_cast<DataType>(v));
      }
      *out = values;
      return "";
    }
    case air::AttrValue::kListListI: {
      std::vector<std::vector<int64_t>> rows;
      for (const auto &row : in.list_list_i().values()) rows.emplace_back(row.values().begin(), row.values().end());
      *out = rows;
      return "";
    }
    default:
      return where + ": attribute value is not set";
  }
}

}  // namespace ge
