/* Built-in operator prototypes the twin ships (CANN's built-in OPP declares them in
 * ops_proto_legacy.h / all_ops.h). Their creators are registered inside libgraph.so. */
#ifndef GE_TWIN_OPS_PROTO_LEGACY_H_
#define GE_TWIN_OPS_PROTO_LEGACY_H_

#include "graph/operator_reg.h"

namespace ge {
/* A graph input: feeds input number `index` of the graph to output y. */
REG_OP(Data).INPUT(x, TensorType::ALL()).OUTPUT(y, TensorType::ALL()).ATTR(index, Int, 0).OP_END_FACTORY_REG(Data)
}  // namespace ge

#endif  // GE_TWIN_OPS_PROTO_LEGACY_H_
