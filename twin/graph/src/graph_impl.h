// The data behind ge::Graph and the node collection shared by SaveToFile and queries.
#ifndef GE_TWIN_GRAPH_SRC_GRAPH_IMPL_H_
#define GE_TWIN_GRAPH_SRC_GRAPH_IMPL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/operator.h"
#include "operator_impl.h"

namespace ge {
struct GraphOutput {
  std::shared_ptr<OperatorImpl> op;
  uint32_t index;  // flat output index
};

class GraphImpl {
 public:
  std::string name;
  std::vector<std::shared_ptr<OperatorImpl>> inputs;
  std::vector<GraphOutput> outputs;
  std::vector<std::shared_ptr<OperatorImpl>> extra_ops;  // AddOp
};

// Every op reachable from the inputs, outputs and added ops through input edges, producers first.
// Returns "" or a one-line error (two different ops with one name, a cycle).
std::string CollectNodes(const GraphImpl &graph, std::vector<std::shared_ptr<OperatorImpl>> *nodes);

// AIR encode/decode (air_codec.cc). Both return "" or a one-line error.
std::string EncodeAir(const GraphImpl &graph, std::string *bytes);
std::string DecodeAir(const std::string &bytes, const std::string &source, GraphImpl *graph);
}  // namespace ge

#endif  // GE_TWIN_GRAPH_SRC_GRAPH_IMPL_H_
