// The process-wide registries (the only mutable globals of the graph library): operator
// creators from REG_OP and inference functions from IMPL_OP. Both are thread-safe.
#ifndef GE_TWIN_GRAPH_SRC_REGISTRIES_H_
#define GE_TWIN_GRAPH_SRC_REGISTRIES_H_

#include <string>
#include <vector>

#include "graph/operator_factory.h"
#include "register/op_impl_registry.h"

namespace ge_twin {
// Creates an op of a registered type; false if the type is unknown.
bool CreateRegisteredOperator(const std::string &type, const std::string &name, ge::Operator *op);
std::vector<std::string> RegisteredOperatorTypes();  // sorted
// The IMPL_OP functions of a type; false if none were registered.
bool FindOpImpl(const std::string &type, gert::OpImplKernelRegistry::OpImplFunctions *functions);
void RegisterOpImpl(const std::string &type, const gert::OpImplKernelRegistry::OpImplFunctions &functions);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_REGISTRIES_H_
