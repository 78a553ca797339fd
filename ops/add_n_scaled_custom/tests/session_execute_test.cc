// GE's C++ Session running a graph of execute-path ops: AddNScaledCustom (execute on the device
// stream, two dynamic-input instances, scale attribute) then MulHostCustom (host kernel). The
// Session compiles in its child compiler, which now writes such a graph as an OM that runs
// through Python; aclmdlLoadFromMem then runs it in this process's embedded interpreter. With
// static inputs and with inputs of dims [-1] (sizes per run). Random inputs (printed seed), exact
// against a host reference.
#include <gtest/gtest.h>

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "add_n_scaled_custom.h"
#include "ge/ge_api.h"
#include "graph/graph.h"
#include "graph/tensor.h"
#include "ops_proto_legacy.h"

namespace {

constexpr int64_t kN = 3000;
constexpr float kScale = 0.5f;

// The value of an environment variable the test's BUILD rule sets; aborts naming it when unset.
const char *Required(const char *variable) {
  const char *value = std::getenv(variable);
  if (value == nullptr) {
    std::fprintf(stderr, "session_execute_test: %s is not set (see BUILD.bazel)\n", variable);
    std::abort();
  }
  return value;
}

std::string Absolute(const char *variable) {
  const char *value = Required(variable);
  char resolved[PATH_MAX];
  return realpath(value, resolved) != nullptr ? resolved : value;
}

void SetUpTwinEnvironment() {
  std::ifstream in(Absolute("GE_TEST_PYTHON_FILE"));
  std::string python;
  std::getline(in, python);
  setenv("ASCEND_TWIN_PYTHON", python.c_str(), 1);
  setenv("ASCEND_HOME_PATH", Absolute("CANN_HOME").c_str(), 1);
  const std::string plugin = Absolute("PLUGIN_FILE");
  const std::string opp = Absolute("OPP_ROOT") + ":" + plugin.substr(0, plugin.find_last_of('/'));
  setenv("ASCEND_CUSTOM_OPP_PATH", opp.c_str(), 1);
  const std::string tmp = Required("TEST_TMPDIR");
  setenv("ASCEND_TWIN_KERNEL_CACHE", (tmp + "/kernel_cache").c_str(), 1);
  setenv("TMPDIR", tmp.c_str(), 1);
}

ge::Graph BuildGraph(const ge::TensorDesc &desc) {
  ge::op::Data x("x");
  x.set_attr_index(0);
  x.update_input_desc_x(desc);
  x.update_output_desc_y(desc);
  ge::op::Data y("y");
  y.set_attr_index(1);
  y.update_input_desc_x(desc);
  y.update_output_desc_y(desc);
  ge::op::AddNScaledCustom add_n("add_n");
  add_n.create_dynamic_input_x(2);
  add_n.set_dynamic_input_x(0, x);
  add_n.set_dynamic_input_x(1, y);
  add_n.update_dynamic_input_desc_x(0, desc);
  add_n.update_dynamic_input_desc_x(1, desc);
  add_n.update_output_desc_y(desc);
  add_n.set_attr_scale(kScale);
  ge::op::MulHostCustom mul("mul_host");
  mul.set_input_x1(add_n).set_input_x2(y);
  mul.update_input_desc_x1(desc);
  mul.update_input_desc_x2(desc);
  mul.update_output_desc_y(desc);
  ge::Graph graph("execute_ops");
  graph.SetInputs({x, y}).SetOutputs({mul});
  return graph;
}

// Runs the graph (built with `graph_desc`) for each size in `sizes` and checks every output.
void RunAndCheck(const ge::TensorDesc &graph_desc, const std::vector<int64_t> &sizes) {
  SetUpTwinEnvironment();
  const unsigned seed = std::random_device{}();
  std::printf("[seed] %u\n", seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}, {"ge.socVersion", "Ascend910B1"}};
  ASSERT_EQ(ge::GEInitialize(options), ge::SUCCESS) << ge::GEGetErrorMsg();
  {
    ge::Session session(options);
    ASSERT_EQ(session.AddGraph(1, BuildGraph(graph_desc)), ge::SUCCESS) << ge::GEGetErrorMsg();
    for (const int64_t n : sizes) {
      const ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{n}), ge::FORMAT_ND, ge::DT_FLOAT);
      std::vector<float> x(n), y(n);
      for (float &v : x) v = dist(rng);
      for (float &v : y) v = dist(rng);
      std::vector<ge::Tensor> outputs;
      const std::vector<ge::Tensor> inputs = {
          ge::Tensor(desc, reinterpret_cast<const uint8_t *>(x.data()), x.size() * sizeof(float)),
          ge::Tensor(desc, reinterpret_cast<const uint8_t *>(y.data()), y.size() * sizeof(float))};
      ASSERT_EQ(session.RunGraph(1, inputs, outputs), ge::SUCCESS) << ge::GEGetErrorMsg();
      ASSERT_EQ(outputs.size(), 1u);
      ASSERT_EQ(outputs[0].GetSize(), n * sizeof(float));
      EXPECT_EQ(outputs[0].GetTensorDesc().GetShape().GetDims(), std::vector<int64_t>{n});
      const float *got = reinterpret_cast<const float *>(outputs[0].GetData());
      for (int64_t i = 0; i < n; ++i) {
        const float sum = x[i] + y[i];
        const float b = sum * kScale;
        const float d = b * y[i];
        ASSERT_EQ(got[i], d) << "size " << n << " element " << i;
      }
    }
  }
  EXPECT_EQ(ge::GEFinalize(), ge::SUCCESS);
}

TEST(SessionExecuteTest, StaticShapes) {
  RunAndCheck(ge::TensorDesc(ge::Shape(std::vector<int64_t>{kN}), ge::FORMAT_ND, ge::DT_FLOAT), {kN, kN});
}

TEST(SessionExecuteTest, DynamicShapesSizedPerRun) {
  RunAndCheck(ge::TensorDesc(ge::Shape(std::vector<int64_t>{-1}), ge::FORMAT_ND, ge::DT_FLOAT), {1000, kN, 1000});
}

}  // namespace
