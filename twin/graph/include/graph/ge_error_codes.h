/* ge::graphStatus and its values, as in CANN's graph/ge_error_codes.h. */
#ifndef INC_EXTERNAL_GRAPH_GE_ERROR_CODES_H_
#define INC_EXTERNAL_GRAPH_GE_ERROR_CODES_H_

#include <cstddef>
#include <cstdint>

#include "ge_twin/abi_guard.h"

#if defined(_MSC_VER)
#define GE_FUNC_VISIBILITY
#define GE_FUNC_HOST_VISIBILITY
#else
#define GE_FUNC_VISIBILITY __attribute__((visibility("default")))
#define GE_FUNC_HOST_VISIBILITY __attribute__((visibility("default")))
#endif

#define ATTRIBUTED_DEPRECATED(replacement) __attribute__((deprecated("Please use " #replacement " instead.")))

namespace ge {
using graphStatus = uint32_t;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_NOT_CHANGED = 1343242304;
const graphStatus GRAPH_PARAM_INVALID = 50331649;
const graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
const graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
const graphStatus GRAPH_INVALID_IR_DEF = 50331646;
const graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_GE_ERROR_CODES_H_
