// A CANN-style graph builder using add_custom.h: Data x2 -> PythonCompilableAddCustom -> AIR.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "add_custom.h"
#include "all_ops.h"
#include "ge_twin/graph_c_api.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "twin/graph/proto/graph_c_api.pb.h"

using namespace ge;

namespace {
// As the CANN sample writes it (CANN's offline graph-build sample), including returning SaveToFile from a bool.
bool GenGraph(Graph &graph, int64_t n, const char *path) {
  auto shape = ge::Shape({n});
  TensorDesc desc(shape, FORMAT_ND, DT_FLOAT);
  auto data_x = op::Data("data_x").set_attr_index(0);
  data_x.update_input_desc_x(desc);
  data_x.update_output_desc_y(desc);
  auto data_y = op::Data("data_y").set_attr_index(1);
  data_y.update_input_desc_x(desc);
  data_y.update_output_desc_y(desc);
  auto add = op::PythonCompilableAddCustom("add_custom").set_input_x1(data_x).set_input_x2(data_y);
  add.update_input_desc_x1(desc);
  add.update_input_desc_x2(desc);
  add.update_output_desc_y(desc);
  std::vector<Operator> inputs{data_x, data_y};
  std::vector<Operator> outputs{add};
  graph.SetInputs(inputs).SetOutputs(outputs);
  return graph.SaveToFile(path);
}
}  // namespace

TEST(AddCustomGraph, BuildsAndSavesAir) {
  const char *tmp = getenv("TEST_TMPDIR");
  std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/add_custom.air";
  Graph graph("add_custom_graph");
  EXPECT_EQ(GenGraph(graph, 8 * 2048, path.c_str()), GRAPH_SUCCESS);  // false == GRAPH_SUCCESS, as in CANN

  void *data = nullptr;
  size_t size = 0;
  char *error = nullptr;
  ASSERT_EQ(GeTwinGraphDescribeAir(path.c_str(), &data, &size, &error), GRAPH_SUCCESS) << error;
  ge::twin::capi::AirDescription air;
  ASSERT_TRUE(air.ParseFromArray(data, static_cast<int>(size)));
  GeTwinGraphFreeBuffer(data);
  ASSERT_EQ(air.nodes_size(), 3);
  const auto &add = air.nodes(2);
  EXPECT_EQ(add.type(), "PythonCompilableAddCustom");
  EXPECT_EQ(add.inputs(0).src_node(), "data_x");
  EXPECT_EQ(add.inputs(1).src_node(), "data_y");
  const auto &y = add.outputs(0).desc();
  EXPECT_EQ(std::vector<int64_t>(y.dims().begin(), y.dims().end()), std::vector<int64_t>{16384});
  EXPECT_EQ(y.dtype(), DT_FLOAT);
  EXPECT_EQ(std::vector<std::string>(air.inputs().begin(), air.inputs().end()),
            (std::vector<std::string>{"data_x", "data_y"}));
  ASSERT_EQ(air.outputs_size(), 1);
  EXPECT_EQ(air.outputs(0).node() + ":" + std::to_string(air.outputs(0).index()), "add_custom:0");
}
