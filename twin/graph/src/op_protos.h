// JSON views of registered prototypes and IMPL_OP inference for the C ABI.
#ifndef GE_TWIN_GRAPH_SRC_OP_PROTOS_H_
#define GE_TWIN_GRAPH_SRC_OP_PROTOS_H_

#include <string>

#include "graph/ge_error_codes.h"
#include "json.h"

namespace ge_twin {
struct CallError {
  ge::graphStatus status = ge::GRAPH_SUCCESS;
  std::string message;
  bool ok() const { return status == ge::GRAPH_SUCCESS; }
};

json::Value ListOpProtos();
CallError InferOp(const json::Value &request, json::Value *response);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OP_PROTOS_H_
