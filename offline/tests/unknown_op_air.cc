// Writes an AIR whose middle node has an op type no OPP library or Python plugin provides, so
// that atc must refuse it. The prototype is declared here only, as a user's typo'd or missing
// OPP would leave it.
// Usage: unknown_op_air <output.air>
#include <cstdio>
#include <vector>

#include "graph/graph.h"
#include "graph/operator_reg.h"
#include "ops_proto_legacy.h"

namespace ge {
REG_OP(AtcTestOpWithoutAnyProto)
    .INPUT(x, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType({DT_FLOAT}))
    .OP_END_FACTORY_REG(AtcTestOpWithoutAnyProto)
}  // namespace ge

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output.air>\n", argv[0]);
    return 2;
  }
  const ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{1024}), ge::FORMAT_ND, ge::DT_FLOAT);
  ge::op::Data data("data_x");
  data.set_attr_index(0);
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  ge::op::AtcTestOpWithoutAnyProto unknown("unknown");
  unknown.set_input_x(data);
  unknown.update_input_desc_x(desc);
  unknown.update_output_desc_y(desc);
  ge::Graph graph("unknown_op_graph");
  graph.SetInputs({data}).SetOutputs({unknown});
  if (graph.SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "unknown_op_air: failed to save %s\n", argv[1]);
    return 1;
  }
  return 0;
}
