// The IMPL_OP registry of libopp_registry.so (see op_impl_registry.cc). Thread-safe.
#ifndef GE_TWIN_GRAPH_SRC_OP_IMPL_REGISTRY_H_
#define GE_TWIN_GRAPH_SRC_OP_IMPL_REGISTRY_H_

#include <string>

#include "export.h"
#include "register/op_impl_registry.h"

namespace ge_twin {
// The IMPL_OP functions of a type; false if none were registered.
GE_TWIN_INTERNAL_API bool FindOpImpl(const std::string &type, gert::OpImplKernelRegistry::OpImplFunctions *functions);
// Later registrations of a type fill in (or replace) the functions they carry.
GE_TWIN_INTERNAL_API void RegisterOpImpl(const std::string &type,
                                         const gert::OpImplKernelRegistry::OpImplFunctions &functions);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OP_IMPL_REGISTRY_H_
