// The C ABI's wire format: the messages of proto/graph_c_api.proto <-> the library's own values.
// Only conversion and wire-level checks (a dtype that is no ge::DataType, an attribute without a
// value) live here; what an operator's IR allows is checked by InferOp (op_infer.h).
#ifndef GE_TWIN_GRAPH_SRC_C_API_CODEC_H_
#define GE_TWIN_GRAPH_SRC_C_API_CODEC_H_

#include <string>
#include <vector>

#include "op_infer.h"
#include "twin/graph/proto/graph_c_api.pb.h"

namespace ge_twin {
namespace capi = ::ge::twin::capi;

// Every registered prototype (REG_OP registry) with its IMPL_OP functions' presence.
void EncodeOpProtoList(capi::OpProtoList *out);

CallError DecodeInferRequest(const capi::InferRequest &in, InferCall *out);
void EncodeInferResponse(const std::string &op_type, const std::vector<InferredOutput> &outputs,
                         capi::InferResponse *out);

// Validates AIR bytes as ge::Graph::LoadFromFile does and describes the graph; "" or one line.
std::string DescribeAir(const std::string &bytes, const std::string &source, capi::AirDescription *out);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_C_API_CODEC_H_
