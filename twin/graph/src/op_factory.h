// The REG_OP registry (ge::OperatorFactory / OperatorCreatorRegister), in libgraph.so: the
// process-wide, thread-safe map of operator type -> creator.
#ifndef GE_TWIN_GRAPH_SRC_OP_FACTORY_H_
#define GE_TWIN_GRAPH_SRC_OP_FACTORY_H_

#include <string>
#include <vector>

#include "graph/operator_factory.h"

namespace ge_twin {
// Creates an op of a registered type; false if the type is unknown.
bool CreateRegisteredOperator(const std::string &type, const std::string &name, ge::Operator *op);
std::vector<std::string> RegisteredOperatorTypes();  // sorted
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OP_FACTORY_H_
