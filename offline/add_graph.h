// The seed's graph, built with CANN's headers only (graph_build.cc writes it as AIR; the GE C++
// API tests compile it with aclgrphBuildModel and run it in a ge::Session):
//   data_x (Data, index 0) ──┐
//                            ├─> PythonCompilableAddCustom ──> graph output
//   data_y (Data, index 1) ──┘
#ifndef OFFLINE_ADD_GRAPH_H_
#define OFFLINE_ADD_GRAPH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "add_custom.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "graph/types.h"
#include "ops_proto_legacy.h"

namespace add_graph {

inline ge::op::Data MakeInput(const char *name, int64_t index, const ge::TensorDesc &desc) {
  ge::op::Data data(name);
  data.set_attr_index(index);
  data.update_input_desc_x(desc);
  data.update_output_desc_y(desc);
  return data;
}

// n float32 elements per input; the add_custom holder accepts positive multiples of 1024 only.
inline ge::Graph BuildAddGraph(int64_t n, const std::string &name = "python_compilable_add_custom") {
  const ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{n}), ge::FORMAT_ND, ge::DT_FLOAT);
  ge::op::Data x = MakeInput("data_x", 0, desc);
  ge::op::Data y = MakeInput("data_y", 1, desc);
  ge::op::PythonCompilableAddCustom add("add_custom");
  add.set_input_x1(x).set_input_x2(y);
  add.update_input_desc_x1(desc);
  add.update_input_desc_x2(desc);
  add.update_output_desc_y(desc);
  ge::Graph graph(name.c_str());
  graph.SetInputs({x, y}).SetOutputs({add});
  return graph;
}

}  // namespace add_graph

#endif  // OFFLINE_ADD_GRAPH_H_
