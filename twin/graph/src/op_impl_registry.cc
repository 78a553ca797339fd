// The IMPL_OP registry (gert::OpImplRegisterV2), in libopp_registry.so: one process-wide map of
// op type -> inference functions that OPP libraries fill when they are loaded.
#include "op_impl_registry.h"

#include <map>
#include <mutex>
#include <utility>

namespace ge_twin {
namespace {
struct ImplRegistry {
  std::mutex mutex;
  std::map<std::string, gert::OpImplKernelRegistry::OpImplFunctions> impls;
};

ImplRegistry &Impls() {
  static ImplRegistry *registry = new ImplRegistry();  // never destroyed: used by static dtors of OPP libs
  return *registry;
}
}  // namespace

bool FindOpImpl(const std::string &type, gert::OpImplKernelRegistry::OpImplFunctions *functions) {
  std::lock_guard<std::mutex> lock(Impls().mutex);
  auto it = Impls().impls.find(type);
  if (it == Impls().impls.end()) return false;
  *functions = it->second;
  return true;
}

void RegisterOpImpl(const std::string &type, const gert::OpImplKernelRegistry::OpImplFunctions &functions) {
  std::lock_guard<std::mutex> lock(Impls().mutex);
  auto &entry = Impls().impls[type];
  // Later registrations of the same type fill in (or replace) the functions they carry.
  if (functions.infer_shape != nullptr) entry.infer_shape = functions.infer_shape;
  if (functions.infer_datatype != nullptr) entry.infer_datatype = functions.infer_datatype;
}
}  // namespace ge_twin

namespace gert {
OpImplRegisterV2::OpImplRegisterV2(const char *op_type) : op_type_(op_type == nullptr ? "" : op_type) {}

OpImplRegisterV2::OpImplRegisterV2(const OpImplRegisterV2 &register_data)
    : op_type_(register_data.op_type_), functions_(register_data.functions_) {
  ge_twin::RegisterOpImpl(op_type_, functions_);
}

OpImplRegisterV2::OpImplRegisterV2(OpImplRegisterV2 &&register_data) noexcept
    : op_type_(std::move(register_data.op_type_)), functions_(register_data.functions_) {
  ge_twin::RegisterOpImpl(op_type_, functions_);
}

OpImplRegisterV2 &OpImplRegisterV2::InferShape(OpImplKernelRegistry::InferShapeKernelFunc infer_shape_func) {
  functions_.infer_shape = infer_shape_func;
  return *this;
}

OpImplRegisterV2 &OpImplRegisterV2::InferDataType(OpImplKernelRegistry::InferDataTypeKernelFunc infer_datatype_func) {
  functions_.infer_datatype = infer_datatype_func;
  return *this;
}
}  // namespace gert
