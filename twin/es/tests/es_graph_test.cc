// Generated C++ ES code (gen_esb on libes_test_ops.so) + EsGraphBuilder build a real ge::Graph:
// saved as AIR, reloaded, and its nodes, edges and attrs checked against what was built.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "es_estest_ops.h"
#include "es_graph_builder.h"
#include "ge_twin/graph_c_api.h"
#include "graph/graph.h"
#include "graph/operator.h"
#include "twin/graph/proto/graph_c_api.pb.h"

namespace {
using AirDescription = ge::twin::capi::AirDescription;

std::mt19937_64 SeededRng(const char *test) {
  uint64_t seed = 0;
  if (const char *env = std::getenv("GE_TWIN_TEST_SEED")) {
    seed = std::strtoull(env, nullptr, 10);
  } else {
    seed = (static_cast<uint64_t>(std::random_device()()) << 32) ^ static_cast<uint64_t>(time(nullptr));
  }
  std::printf("[seed] %s: GE_TWIN_TEST_SEED=%llu\n", test, static_cast<unsigned long long>(seed));
  return std::mt19937_64(seed);
}

std::string TempDir() {
  std::string templ = std::string(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp") + "/es_XXXXXX";
  return mkdtemp(&templ[0]) == nullptr ? "" : templ;
}

// Registers the test prototypes: the library as <root>/libcust_opapi.so of an OPP root.
class EsGraphTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char *lib = std::getenv("ES_TEST_OPS_LIB");
    ASSERT_NE(lib, nullptr) << "ES_TEST_OPS_LIB is not set";
    std::string root = TempDir();
    char abs[4096];
    ASSERT_NE(realpath(lib, abs), nullptr) << lib;
    ASSERT_EQ(symlink(abs, (root + "/libcust_opapi.so").c_str()), 0);
    char *err = nullptr;
    ASSERT_EQ(GeTwinGraphLoadOppLibraries(root.c_str(), nullptr, nullptr, &err), 0u) << (err ? err : "");
  }

  static AirDescription Describe(const std::string &air) {
    void *data = nullptr;
    size_t size = 0;
    char *err = nullptr;
    EXPECT_EQ(GeTwinGraphDescribeAir(air.c_str(), &data, &size, &err), 0u) << (err ? err : "");
    AirDescription description;
    EXPECT_TRUE(description.ParseFromArray(data, static_cast<int>(size)));
    GeTwinGraphFreeBuffer(data);
    GeTwinGraphFreeString(err);
    return description;
  }

  // node name -> {input instance name -> "src:index" or "" if unconnected}
  static std::map<std::string, std::map<std::string, std::string>> Edges(const AirDescription &d) {
    std::map<std::string, std::map<std::string, std::string>> out;
    for (const auto &node : d.nodes()) {
      auto &in = out[node.name()];
      for (const auto &i : node.inputs()) {
        in[i.name()] = i.connected() ? i.src_node() + ":" + std::to_string(i.src_index()) : "";
      }
    }
    return out;
  }
};

TEST_F(EsGraphTest, GeneratedCodeBuildsSavesAndReloads) {
  auto rng = SeededRng("GeneratedCodeBuildsSavesAndReloads");
  std::uniform_int_distribution<int64_t> small(1, 9), any(-1000000, 1000000);
  std::uniform_real_distribution<float> real(-100.0f, 100.0f);
  std::vector<int64_t> dims = {small(rng), small(rng)};
  const float alpha = real(rng);
  const int64_t bias = any(rng), cls = any(rng), seed = any(rng);
  const std::vector<int64_t> axes = {any(rng), any(rng), any(rng)};
  const std::vector<std::vector<int64_t>> from = {{any(rng)}, {}, {any(rng), any(rng)}};
  const std::string text = "s" + std::to_string(any(rng));
  const int64_t ys_num = small(rng);

  ge::es::EsGraphBuilder builder("es_graph");
  auto x0 = builder.CreateInput(0, "x0", ge::DT_FLOAT, ge::FORMAT_ND, dims);
  auto x1 = builder.CreateInput(1, "x1", ge::DT_FLOAT16, ge::FORMAT_NCHW, dims);
  ASSERT_TRUE(x0.IsValid() && x1.IsValid()) << EsGetLastErrorMessage();
  auto sum = ge::es::PythonCompilableAddCustom(x0, x1);
  sum.SetShape(dims).SetDataType(ge::DT_FLOAT);
  auto scaled = ge::es::Scale(sum, axes, alpha, ge::DT_INT8);
  auto gathered = ge::es::Gather({x0, scaled}, ge::es::EsTensorHolder(), x1, ys_num, bias);
  ASSERT_EQ(gathered.ys.size(), static_cast<size_t>(ys_num));
  ASSERT_TRUE(gathered.ref_xs.IsValid());
  auto all = ge::es::AllAttrs(gathered.ys.back(), x0, cls, from, 0.5f, 1.0f, false, text.c_str());
  auto split = ge::es::SplitN(all, 2);
  ASSERT_EQ(split.size(), 2u);
  auto made = ge::es::MakeSeed(builder, seed);
  auto picked = ge::es::PickAny(ge::es::EsTensorHolder(), made);
  ASSERT_EQ(ge::es::Sink(picked), ge::GRAPH_SUCCESS) << EsGetLastErrorMessage();
  auto renamed = ge::es::Renamed(x0, ge::es::EsTensorHolder(), 5);  // std -> in_std, ge -> attr_ge
  ASSERT_TRUE(renamed.IsValid()) << EsGetLastErrorMessage();
  auto konst = builder.CreateConst(std::vector<float>{1.5f, -2.0f}, {2});
  ASSERT_TRUE(konst.IsValid()) << EsGetLastErrorMessage();
  ASSERT_EQ(ge::es::EsGraphBuilder::SetOutput(all, 0), ge::GRAPH_SUCCESS);
  ASSERT_EQ(ge::es::EsGraphBuilder::SetOutput(gathered.ref_xs, 1), ge::GRAPH_SUCCESS);
  ASSERT_EQ(ge::es::EsGraphBuilder::SetOutput(split[1], 2), ge::GRAPH_SUCCESS);
  std::unique_ptr<ge::Graph> graph = builder.BuildAndReset();
  ASSERT_NE(graph, nullptr) << EsGetLastErrorMessage();

  const std::string air = TempDir() + "/es_graph.air";
  ASSERT_EQ(graph->SaveToFile(air.c_str()), ge::GRAPH_SUCCESS);
  ge::Graph loaded;
  ASSERT_EQ(loaded.LoadFromFile(air.c_str()), ge::GRAPH_SUCCESS);

  std::vector<ge::AscendString> names;
  ASSERT_EQ(loaded.GetAllOpName(names), ge::GRAPH_SUCCESS);
  std::vector<std::string> got;
  got.reserve(names.size());
  for (const auto &n : names) got.emplace_back(n.GetString());
  std::sort(got.begin(), got.end());
  std::vector<std::string> want = {
      "AllAttrs_0", "Const_0", "Gather_0", "MakeSeed_0", "PickAny_0", "PythonCompilableAddCustom_0",
      "Renamed_0",  "Scale_0", "Sink_0",   "SplitN_0",   "x0",        "x1"};
  EXPECT_EQ(got, want);

  auto d = Describe(air);
  EXPECT_EQ(d.name(), "es_graph");
  auto edges = Edges(d);
  EXPECT_EQ(edges["PythonCompilableAddCustom_0"]["x1"], "x0:0");
  EXPECT_EQ(edges["PythonCompilableAddCustom_0"]["x2"], "x1:0");
  EXPECT_EQ(edges["Gather_0"]["xs0"], "x0:0");
  EXPECT_EQ(edges["Gather_0"]["xs1"], "Scale_0:0");
  EXPECT_EQ(edges["Gather_0"]["bias"], "");
  EXPECT_EQ(edges["Gather_0"]["lambda"], "x1:0");
  EXPECT_EQ(edges["AllAttrs_0"]["x"], "Gather_0:" + std::to_string(ys_num - 1));
  EXPECT_EQ(edges["AllAttrs_0"]["default"], "x0:0");
  EXPECT_EQ(edges["PickAny_0"]["a"], "");
  EXPECT_EQ(edges["PickAny_0"]["b"], "MakeSeed_0:0");
  EXPECT_EQ(edges["Sink_0"]["x"], "PickAny_0:0");
  ASSERT_EQ(d.outputs_size(), 3);
  EXPECT_EQ(d.outputs(0).node(), "AllAttrs_0");
  EXPECT_EQ(d.outputs(1).node(), "Gather_0");
  EXPECT_EQ(d.outputs(1).index(), static_cast<uint32_t>(ys_num));  // ref_xs follows the ys instances
  EXPECT_EQ(d.outputs(2).index(), 1u);
  ASSERT_EQ(d.inputs_size(), 2);
  EXPECT_EQ(d.inputs(0), "x0");
  EXPECT_EQ(d.inputs(1), "x1");

  ge::Operator op;
  ASSERT_EQ(loaded.FindOpByName("x1", op), ge::GRAPH_SUCCESS);
  int64_t index = -1;
  EXPECT_EQ(op.GetAttr("index", index), ge::GRAPH_SUCCESS);
  EXPECT_EQ(index, 1);
  EXPECT_EQ(op.GetOutputDesc(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(op.GetOutputDesc(0).GetFormat(), ge::FORMAT_NCHW);
  EXPECT_EQ(op.GetOutputDesc(0).GetShape().GetDims(), dims);

  ASSERT_EQ(loaded.FindOpByName("Scale_0", op), ge::GRAPH_SUCCESS);
  float f = 0;
  std::vector<int64_t> ints;
  ge::DataType dt = ge::DT_UNDEFINED;
  EXPECT_EQ(op.GetAttr("alpha", f), ge::GRAPH_SUCCESS);
  EXPECT_EQ(f, alpha);
  EXPECT_EQ(op.GetAttr("axes", ints), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ints, axes);
  EXPECT_EQ(op.GetAttr("dst", dt), ge::GRAPH_SUCCESS);
  EXPECT_EQ(dt, ge::DT_INT8);
  ASSERT_EQ(loaded.FindOpByName("PythonCompilableAddCustom_0", op), ge::GRAPH_SUCCESS);
  EXPECT_EQ(op.GetOutputDesc(0).GetShape().GetDims(), dims);

  ASSERT_EQ(loaded.FindOpByName("AllAttrs_0", op), ge::GRAPH_SUCCESS);
  int64_t i64 = 0;
  bool b = true;
  std::string s;
  std::vector<std::vector<int64_t>> lli;
  std::vector<float> lf;
  std::vector<bool> lb;
  std::vector<std::string> ls;
  std::vector<ge::DataType> lt;
  EXPECT_EQ(op.GetAttr("class", i64), ge::GRAPH_SUCCESS);
  EXPECT_EQ(i64, cls);
  EXPECT_EQ(op.GetAttr("from", lli), ge::GRAPH_SUCCESS);
  EXPECT_EQ(lli, from);
  EXPECT_EQ(op.GetAttr("ninf", f), ge::GRAPH_SUCCESS);
  EXPECT_EQ(f, 1.0f);
  EXPECT_EQ(op.GetAttr("b", b), ge::GRAPH_SUCCESS);
  EXPECT_FALSE(b);
  EXPECT_EQ(op.GetAttr("s", s), ge::GRAPH_SUCCESS);
  EXPECT_EQ(s, text);
  EXPECT_EQ(op.GetAttr("as", s), ge::GRAPH_SUCCESS);  // IR defaults from the generated C++ defaults
  EXPECT_EQ(s, "asc");
  EXPECT_EQ(op.GetAttr("t", dt), ge::GRAPH_SUCCESS);
  EXPECT_EQ(dt, ge::DT_INT32);
  EXPECT_EQ(op.GetAttr("li", ints), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ints, (std::vector<int64_t>{1, -2}));
  EXPECT_EQ(op.GetAttr("lf", lf), ge::GRAPH_SUCCESS);
  EXPECT_EQ(lf, std::vector<float>{0.5f});
  EXPECT_EQ(op.GetAttr("lb", lb), ge::GRAPH_SUCCESS);
  EXPECT_EQ(lb, (std::vector<bool>{true, false}));
  EXPECT_EQ(op.GetAttr("ls", ls), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ls, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(op.GetAttr("lt", lt), ge::GRAPH_SUCCESS);
  EXPECT_EQ(lt, (std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_INT8}));
  EXPECT_EQ(op.GetAttr("in", lli), ge::GRAPH_SUCCESS);
  EXPECT_EQ(lli, (std::vector<std::vector<int64_t>>{{1}, {2, 3}}));

  ASSERT_EQ(loaded.FindOpByName("MakeSeed_0", op), ge::GRAPH_SUCCESS);
  EXPECT_EQ(op.GetAttr("seed", i64), ge::GRAPH_SUCCESS);
  EXPECT_EQ(i64, seed);
  ASSERT_EQ(loaded.FindOpByName("Const_0", op), ge::GRAPH_SUCCESS);
  ge::Tensor value;
  EXPECT_EQ(op.GetAttr("value", value), ge::GRAPH_SUCCESS);
  ASSERT_EQ(value.GetSize(), 2 * sizeof(float));
  const float *floats = reinterpret_cast<const float *>(value.GetData());
  EXPECT_EQ(floats[0], 1.5f);
  EXPECT_EQ(floats[1], -2.0f);
}

TEST_F(EsGraphTest, ErrorsAreReportedNotBuilt) {
  ge::es::EsGraphBuilder a("a"), b("b");
  auto xa = a.CreateInput(0);
  auto xb = b.CreateInput(0);
  // Inputs of two builders.
  EXPECT_FALSE(ge::es::PythonCompilableAddCustom(xa, xb).IsValid());
  EXPECT_NE(std::string(EsGetLastErrorMessage()).find("belongs to GraphBuilder 'b', not 'a'"), std::string::npos)
      << EsGetLastErrorMessage();
  // A missing required input.
  EXPECT_FALSE(ge::es::Scale(ge::es::EsTensorHolder(), {0}).IsValid());
  EXPECT_NE(std::string(EsGetLastErrorMessage()).find("Scale: input x is NULL"), std::string::npos)
      << EsGetLastErrorMessage();
  // No owner: no input and no owner builder.
  EsCNodeBuilder *node = EsNodeBegin("MakeSeed", nullptr);
  EsNodeOutput(node, "y");
  EXPECT_NE(EsNodeEnd(node), 0u);
  EsNodeRelease(node);
  EXPECT_NE(std::string(EsGetLastErrorMessage()).find("cannot resolve the owner"), std::string::npos);
  // Generated code that disagrees with the loaded prototype.
  node = EsNodeBegin("Sink", a.GetCGraphBuilder());
  EsNodeInput(node, "x", xa.GetCTensorHolder());
  EsNodeOutput(node, "y");
  EXPECT_EQ(EsNodeEnd(node), static_cast<uint32_t>(ge::GRAPH_INVALID_IR_DEF));
  EsNodeRelease(node);
  // Output 1 set, output 0 not.
  ASSERT_EQ(ge::es::EsGraphBuilder::SetOutput(xa, 1), ge::GRAPH_SUCCESS);
  EXPECT_EQ(a.BuildAndReset(), nullptr);
  EXPECT_NE(std::string(EsGetLastErrorMessage()).find("graph output 0 is not set"), std::string::npos);
  // After a build, the old holders cannot build any more.
  auto graph = b.BuildAndReset({xb});
  ASSERT_NE(graph, nullptr) << EsGetLastErrorMessage();
  EXPECT_FALSE(ge::es::Scale(xb, {1}).IsValid());
  EXPECT_NE(std::string(EsGetLastErrorMessage()).find("already built"), std::string::npos);
  EXPECT_FALSE(b.CreateInput(0, "x", ge::DT_FLOAT, ge::FORMAT_ND, {-3}).IsValid());
  EXPECT_FALSE(b.CreateConst(std::vector<float>{1.0f}, {2}).IsValid());
}

// An op whose proto library is not loaded in the process is built from the IR layout the
// generated code declares (CANN's ES does not need the proto library at graph-build time).
TEST_F(EsGraphTest, UnregisteredOpUsesTheDeclaredIr) {
  ge::es::EsGraphBuilder builder("unregistered");
  auto x = builder.CreateInput(0);
  EsCNodeBuilder *node = EsNodeBegin("NotLoadedOp", nullptr);
  EsCTensorHolder *xs[2] = {x.GetCTensorHolder(), x.GetCTensorHolder()};
  EsNodeDynamicInput(node, "xs", xs, 2);
  EsNodeOptionalInput(node, "opt", nullptr);
  EsNodeOutput(node, "y");
  EsNodeDynamicOutput(node, "z", 3);
  EsNodeAttrString(node, "mode", "m");
  ASSERT_EQ(EsNodeEnd(node), 0u) << EsGetLastErrorMessage();
  int64_t num = 0;
  EsCTensorHolder **z = EsNodeGetDynamicOutputs(node, 1, &num);
  ASSERT_EQ(num, 3);
  EXPECT_EQ(EsGetOutputIndex(z[2]), 3);
  EXPECT_EQ(EsGetOutputIndex(EsNodeGetOutput(node, 0)), 0);
  EsNodeRelease(node);
  ASSERT_EQ(ge::es::EsGraphBuilder::SetOutput(z[2], 0), ge::GRAPH_SUCCESS);
  auto graph = builder.BuildAndReset();
  ASSERT_NE(graph, nullptr) << EsGetLastErrorMessage();
  const std::string air = TempDir() + "/unregistered.air";
  ASSERT_EQ(graph->SaveToFile(air.c_str()), ge::GRAPH_SUCCESS);
  auto edges = Edges(Describe(air));
  EXPECT_EQ(edges["NotLoadedOp_0"]["xs0"], "input_0:0");
  EXPECT_EQ(edges["NotLoadedOp_0"]["xs1"], "input_0:0");
  EXPECT_EQ(edges["NotLoadedOp_0"]["opt"], "");
  ge::Operator op;
  ASSERT_EQ(graph->FindOpByName("NotLoadedOp_0", op), ge::GRAPH_SUCCESS);
  std::string mode;
  EXPECT_EQ(op.GetAttr("mode", mode), ge::GRAPH_SUCCESS);
  EXPECT_EQ(mode, "m");
}
}  // namespace
