/* IMPL_OP(OpType).InferShape(fn).InferDataType(fn): registers an op's v2 inference functions
 * into the process-wide registry held by the graph library. */
#ifndef INC_EXTERNAL_REGISTER_OP_IMPL_REGISTRY_H_
#define INC_EXTERNAL_REGISTER_OP_IMPL_REGISTRY_H_

#include <cstdint>
#include <string>

#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/ge_error_codes.h"

namespace gert {
struct OpImplKernelRegistry {
  using InferShapeKernelFunc = uint32_t (*)(InferShapeContext *);
  using InferDataTypeKernelFunc = uint32_t (*)(InferDataTypeContext *);

  struct OpImplFunctions {
    InferShapeKernelFunc infer_shape = nullptr;
    InferDataTypeKernelFunc infer_datatype = nullptr;
  };
};

class GE_FUNC_VISIBILITY OpImplRegisterV2 {
 public:
  explicit OpImplRegisterV2(const char *op_type);
  // Copying (what `static ... = IMPL_OP(...)...;` does) publishes the functions to the registry.
  OpImplRegisterV2(const OpImplRegisterV2 &register_data);
  OpImplRegisterV2(OpImplRegisterV2 &&register_data) noexcept;
  OpImplRegisterV2 &operator=(const OpImplRegisterV2 &) = delete;
  ~OpImplRegisterV2() = default;

  OpImplRegisterV2 &InferShape(OpImplKernelRegistry::InferShapeKernelFunc infer_shape_func);
  OpImplRegisterV2 &InferDataType(OpImplKernelRegistry::InferDataTypeKernelFunc infer_datatype_func);

 private:
  std::string op_type_;
  OpImplKernelRegistry::OpImplFunctions functions_;
};
}  // namespace gert

#define GE_TWIN_IMPL_OP_CONCAT_(a, b) a##b
#define GE_TWIN_IMPL_OP_CONCAT(a, b) GE_TWIN_IMPL_OP_CONCAT_(a, b)
#define IMPL_OP(op_type)                                  \
  static ::gert::OpImplRegisterV2 __attribute__((unused)) \
  GE_TWIN_IMPL_OP_CONCAT(op_impl_register_##op_type##_, __COUNTER__) = ::gert::OpImplRegisterV2(#op_type)

#endif  // INC_EXTERNAL_REGISTER_OP_IMPL_REGISTRY_H_
