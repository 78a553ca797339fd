// Writes a small AIR file (argv[1]) through ge::Graph, for the Python interoperability test.
#include <cstdio>
#include <vector>

#include "all_ops.h"
#include "graph/graph.h"
#include "test_ops.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <out.air>\n", argv[0]);
    return 2;
  }
  using namespace ge;
  TensorDesc desc(Shape({4, 8}), FORMAT_ND, DT_FLOAT);
  auto data_x = op::Data("data_x").set_attr_index(0);
  data_x.update_input_desc_x(desc);
  data_x.update_output_desc_y(desc);
  op::TwinConcatTest concat("concat");
  concat.create_dynamic_input_x(2).set_dynamic_input_x(0, data_x).set_dynamic_input_x(1, data_x);
  concat.set_attr_axis(-1).set_attr_pads({5, 6});
  concat.update_output_desc_y(TensorDesc(Shape({4, 16}), FORMAT_ND, DT_FLOAT));
  std::vector<Operator> inputs{data_x};
  std::vector<Operator> outputs{concat};
  Graph graph("interop");
  graph.SetInputs(inputs).SetOutputs(outputs);
  return graph.SaveToFile(argv[1]) == GRAPH_SUCCESS ? 0 : 1;
}
