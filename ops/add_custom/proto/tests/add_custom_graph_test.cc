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
#include "twin/graph/src/json.h"

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

  char *json = nullptr;
  char *error = nullptr;
  ASSERT_EQ(GeTwinGraphDescribeAir(path.c_str(), &json, &error), GRAPH_SUCCESS) << error;
  ge_twin::json::Value air;
  std::string parse_error;
  ASSERT_TRUE(ge_twin::json::Parse(json, &air, &parse_error)) << parse_error;
  GeTwinGraphFreeString(json);
  const auto &nodes = air.Find("nodes")->Items();
  ASSERT_EQ(nodes.size(), 3u);
  const auto &add = nodes[2];
  EXPECT_EQ(add.Find("type")->AsString(), "PythonCompilableAddCustom");
  EXPECT_EQ(add.Find("inputs")->Items()[0].Find("src_node")->AsString(), "data_x");
  EXPECT_EQ(add.Find("inputs")->Items()[1].Find("src_node")->AsString(), "data_y");
  EXPECT_EQ(add.Find("outputs")->Items()[0].Find("desc")->Find("shape")->Dump(), "[16384]");
  EXPECT_EQ(add.Find("outputs")->Items()[0].Find("desc")->Find("dtype")->AsString(), "DT_FLOAT");
  EXPECT_EQ(air.Find("inputs")->Dump(), "[\"data_x\",\"data_y\"]");
  EXPECT_EQ(air.Find("outputs")->Dump(), "[{\"node\":\"add_custom\",\"index\":0}]");
}
