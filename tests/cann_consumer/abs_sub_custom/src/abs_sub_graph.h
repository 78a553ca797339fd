/* The graph every C++ tool of this project builds: y = AbsSubCustom(x1, x2), float32 [4, 2048]. */
#ifndef ABS_SUB_GRAPH_H_
#define ABS_SUB_GRAPH_H_

#include <cstdint>
#include <vector>

#include "abs_sub_case.h"
#include "abs_sub_custom.h"
#include "graph.h"
#include "ops_proto_legacy.h"
#include "tensor.h"
#include "types.h"

namespace abs_sub {
const std::vector<int64_t> kShape = {4, 2048};

inline ge::Graph BuildGraph() {
  const ge::TensorDesc desc(ge::Shape(kShape), ge::FORMAT_ND, ge::DT_FLOAT);
  auto x1 = ge::op::Data("x1").set_attr_index(0);
  x1.update_input_desc_x(desc);
  x1.update_output_desc_y(desc);
  auto x2 = ge::op::Data("x2").set_attr_index(1);
  x2.update_input_desc_x(desc);
  x2.update_output_desc_y(desc);
  auto op = ge::op::AbsSubCustom("abs_sub").set_input_x1(x1).set_input_x2(x2);
  op.update_output_desc_y(desc);
  ge::Graph graph("abs_sub");
  std::vector<ge::Operator> inputs{x1, x2};
  std::vector<ge::Operator> outputs{op};
  graph.SetInputs(inputs).SetOutputs(outputs);
  return graph;
}

}  // namespace abs_sub

#endif  // ABS_SUB_GRAPH_H_
