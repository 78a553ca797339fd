// IMPL_OP inference of one operator on plain values (no wire format here: c_api_codec.h turns
// the C ABI's messages into an InferCall and the outputs back into a message).
#ifndef GE_TWIN_GRAPH_SRC_OP_INFER_H_
#define GE_TWIN_GRAPH_SRC_OP_INFER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "operator_impl.h"

namespace ge_twin {
struct CallError {
  ge::graphStatus status = ge::GRAPH_SUCCESS;
  std::string message;
  bool ok() const { return status == ge::GRAPH_SUCCESS; }
};

// A request the library refuses: GRAPH_PARAM_INVALID with its one-line message.
inline CallError Invalid(const std::string &message) { return CallError{ge::GRAPH_PARAM_INVALID, message}; }

struct TensorMeta {
  std::vector<int64_t> dims;
  ge::DataType dtype = ge::DT_UNDEFINED;
};

// One inference request. Everything the IR does not allow is refused by InferOp with one line.
struct InferCall {
  std::string op_type;
  std::string node_name;                                                // "" = op_type
  std::vector<std::vector<TensorMeta>> inputs;                          // per IR input (IR order): its instances
  std::vector<std::pair<std::string, ge::AttrValue>> attrs;             // IR defaults fill the rest
  std::vector<std::pair<std::string, uint32_t>> dynamic_output_counts;  // one per DYNAMIC output
};

struct InferredOutput {
  std::string name;  // instance name
  std::string ir_name;
  uint32_t ir_index = 0;
  std::vector<int64_t> dims;
  ge::DataType dtype = ge::DT_UNDEFINED;
};

// Runs the op's IMPL_OP InferShape, then InferDataType (or derives dtypes from the IR without
// one). Errors: GRAPH_PARAM_INVALID for a request the IR refuses, GRAPH_FAILED when an inference
// function fails, OP_WITHOUT_IR_DATATYPE_INFER_RULE when no output dtype can be derived.
CallError InferOp(const InferCall &call, std::vector<InferredOutput> *outputs);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_OP_INFER_H_
