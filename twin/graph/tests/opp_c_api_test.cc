// OPP library discovery/loading and the C ABI (list protos, run IMPL_OP inference), using the
// test proto library libtest_opp.so. This binary does not include test_ops.h, so the test ops
// exist only once the library is loaded. Tests run in file order and depend on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "test_support.h"

using ge_twin::json::Value;
using ge_twin_test::CallC;
using ge_twin_test::ParseJson;

namespace {
std::string TestOppLibrary() { return ge_twin_test::Runfile("twin/graph/tests/libtest_opp.so"); }

const Value *FindOp(const Value &list, const std::string &type) {
  for (const auto &op : list.Find("ops")->Items()) {
    if (op.Find("op_type")->AsString() == type) return &op;
  }
  return nullptr;
}

ge_twin_test::CResult Infer(const std::string &request) { return CallC(GeTwinGraphInferOp, request.c_str()); }

std::string ShapeJson(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}
}  // namespace

TEST(OppCApi, VersionAndBuiltins) {
  EXPECT_EQ(GeTwinGraphApiVersion(), GE_TWIN_GRAPH_C_API_VERSION);
  auto listed = CallC(GeTwinGraphListOpProtos);
  ASSERT_EQ(listed.status, ge::GRAPH_SUCCESS);
  Value list = ParseJson(listed.json);
  ASSERT_NE(FindOp(list, "Data"), nullptr);
  EXPECT_EQ(FindOp(list, "TwinConcatTest"), nullptr) << "test op registered before its library was loaded";
  auto r = Infer(R"({"op_type": "TwinConcatTest", "inputs": []})");
  EXPECT_EQ(r.status, ge::GRAPH_PARAM_INVALID);
  EXPECT_NE(r.error.find("op type 'TwinConcatTest' is not registered"), std::string::npos) << r.error;
}

TEST(OppCApi, NonexistentRootIsAnError) {
  std::string root = ge_twin_test::MakeTempDir() + "/does_not_exist";
  auto r = CallC(GeTwinGraphLoadOppLibraries, root.c_str());
  EXPECT_EQ(r.status, ge::GRAPH_FAILED);
  EXPECT_NE(r.error.find("'" + root + "'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file or directory"), std::string::npos) << r.error;
  EXPECT_TRUE(r.json.empty());
}

TEST(OppCApi, BrokenLibraryIsAnErrorNamingIt) {
  std::string root = ge_twin_test::MakeTempDir();
  std::string lib_dir = root + "/op_graph/lib/linux/" + ge_twin_test::HostArch();
  ASSERT_TRUE(ge_twin_test::MakeDirs(lib_dir));
  ge_twin_test::WriteFile(lib_dir + "/libbroken.so", std::string(256, '#'));  // not ELF, long enough for a header
  auto r = CallC(GeTwinGraphLoadOppLibraries, root.c_str());
  EXPECT_EQ(r.status, ge::GRAPH_FAILED);
  EXPECT_NE(r.error.find("cannot load OPP library '" + lib_dir + "/libbroken.so'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("invalid ELF header"), std::string::npos) << r.error;  // dlerror() text
}

TEST(OppCApi, DiscoveryOrderFollowsCann) {
  std::string root = ge_twin_test::MakeTempDir();
  std::string lib_dir = root + "/op_graph/lib/linux/" + ge_twin_test::HostArch();
  ASSERT_TRUE(ge_twin_test::MakeDirs(lib_dir + "/nested"));
  ASSERT_TRUE(ge_twin_test::MakeDirs(root + "/op_graph/lib/linux/not_this_arch"));
  const std::string lib = TestOppLibrary();
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, root + "/libcust_opapi.so")) << lib;
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, lib_dir + "/libzz_second.so"));
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, lib_dir + "/libaa_first.so"));
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, lib_dir + "/nested/libignored.so"));      // not recursive
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, root + "/op_graph/lib/linux/not_this_arch/libother.so"));
  ge_twin_test::WriteFile(lib_dir + "/README.txt", "not a library");
  std::string plugin = root + "/plugin.py";  // a Python plugin entry: skipped by the C++ loader
  ge_twin_test::WriteFile(plugin, "pass\n");

  std::string roots = " :" + plugin + "::" + root + " ";
  setenv("ASCEND_CUSTOM_OPP_PATH", roots.c_str(), 1);
  auto r = CallC(GeTwinGraphLoadOppLibraries, static_cast<const char *>(nullptr));  // from the environment
  ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
  EXPECT_TRUE(r.error.empty());
  Value loaded = ParseJson(r.json);
  std::vector<std::string> paths;
  for (const auto &p : loaded.Find("loaded")->Items()) paths.push_back(p.AsString());
  std::vector<std::string> expected = {root + "/libcust_opapi.so", lib_dir + "/libaa_first.so",
                                       lib_dir + "/libzz_second.so"};
  EXPECT_EQ(paths, expected);
  // Loading again is harmless.
  EXPECT_EQ(CallC(GeTwinGraphLoadOppLibraries, root.c_str()).status, ge::GRAPH_SUCCESS);
}

TEST(OppCApi, ListsLoadedProtosWithTheirIr) {
  Value list = ParseJson(CallC(GeTwinGraphListOpProtos).json);
  const Value *op = FindOp(list, "TwinConcatTest");
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->Find("inputs")->Dump(),
            R"j([{"name":"x","kind":"DYNAMIC","type":"T","dtypes":["DT_FLOAT","DT_INT32"]},)j"
            R"j({"name":"bias","kind":"OPTIONAL","type":"TensorType({DT_FLOAT, DT_INT32})","dtypes":["DT_FLOAT","DT_INT32"]}])j");
  const auto &outputs = op->Find("outputs")->Items();
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].Find("kind")->AsString(), "REQUIRED");
  EXPECT_EQ(outputs[1].Find("name")->AsString(), "extra");
  EXPECT_EQ(outputs[1].Find("kind")->AsString(), "DYNAMIC");
  EXPECT_EQ(outputs[1].Find("type")->AsString(), "TensorType::ALL()");
  const auto &attrs = op->Find("attrs")->Items();
  std::vector<std::string> names;
  for (const auto &a : attrs) names.push_back(a.Find("name")->AsString());
  EXPECT_EQ(names, (std::vector<std::string>{"axis", "scale", "mode", "flag", "pads", "dst_type", "weights", "grid",
                                             "names", "empty_list"}));
  EXPECT_EQ(attrs[0].Dump(), R"({"name":"axis","type":"Int","value_type":"VT_INT","required":true})");
  EXPECT_EQ(attrs[1].Dump(), R"({"name":"scale","type":"Float","value_type":"VT_FLOAT","required":false,"default":1.5})");
  EXPECT_EQ(attrs[5].Find("default")->AsString(), "DT_INT32");
  EXPECT_EQ(attrs[7].Find("default")->Dump(), "[[1,2],[3]]");
  EXPECT_EQ(attrs[8].Find("value_type")->AsString(), "VT_LIST_STRING");
  EXPECT_EQ(op->Find("datatypes")->Dump(), R"({"T":["DT_FLOAT","DT_INT32"]})");
  EXPECT_TRUE(op->Find("has_infer_shape")->AsBool());
  const Value *no_impl = FindOp(list, "TwinNoImplTest");
  ASSERT_NE(no_impl, nullptr);
  EXPECT_FALSE(no_impl->Find("has_infer_shape")->AsBool());
}

TEST(OppCApi, InferConcatMatchesScalarReference) {
  auto rng = ge_twin_test::SeededRng("OppCApi.InferConcat");
  for (int round = 0; round < 40; ++round) {
    size_t rank = 1 + rng() % 4;
    size_t n = 1 + rng() % 4;
    int64_t axis = static_cast<int64_t>(rng() % rank);
    int64_t axis_attr = (rng() & 1) ? axis : axis - static_cast<int64_t>(rank);
    std::vector<int64_t> base(rank);
    for (auto &d : base) d = 1 + static_cast<int64_t>(rng() % 64);
    std::vector<int64_t> expected = base;
    expected[axis] = 0;
    std::string inputs = "[";
    const char *dtype = (rng() & 1) ? "DT_FLOAT" : "DT_INT32";
    for (size_t i = 0; i < n; ++i) {
      std::vector<int64_t> dims = base;
      dims[axis] = 1 + static_cast<int64_t>(rng() % 100);
      expected[axis] += dims[axis];
      inputs += std::string(i ? "," : "") + R"({"shape":)" + ShapeJson(dims) + R"(,"dtype":")" + dtype + "\"}";
    }
    inputs += "]";
    std::vector<int64_t> pads(rng() % 6);
    for (auto &p : pads) p = static_cast<int64_t>(rng() % 10);
    float scale = static_cast<float>(rng() % 1000) / 10.f;
    size_t extra = rng() % 4;
    std::string request = R"({"op_type":"TwinConcatTest","node_name":"c)" + std::to_string(round) +
                          R"(","inputs":[)" + inputs + R"(,null],"attrs":{"axis":)" + std::to_string(axis_attr) +
                          R"(,"scale":)" + std::to_string(scale) + R"(,"pads":)" + ShapeJson(pads) +
                          R"(,"dst_type":"DT_BF16"},"dynamic_output_counts":{"extra":)" + std::to_string(extra) + "}}";
    auto r = Infer(request);
    ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error << "\n" << request;
    Value out = ParseJson(r.json);
    const auto &outs = out.Find("outputs")->Items();
    ASSERT_EQ(outs.size(), 1 + extra);
    EXPECT_EQ(outs[0].Find("shape")->Dump(), ShapeJson(expected));
    EXPECT_EQ(outs[0].Find("dtype")->AsString(), dtype);
    for (size_t i = 0; i < extra; ++i) {
      const Value &e = outs[1 + i];
      EXPECT_EQ(e.Find("name")->AsString(), "extra" + std::to_string(i));
      EXPECT_EQ(e.Find("ir_index")->AsInt(), 1);
      long scaled = std::lround(std::stof(std::to_string(scale)) * 10);
      EXPECT_EQ(e.Find("shape")->Dump(), ShapeJson({static_cast<int64_t>(pads.size()), scaled, static_cast<int64_t>(i)}));
      EXPECT_EQ(e.Find("dtype")->AsString(), "DT_BF16");
    }
  }
}

TEST(OppCApi, InferErrorsAreClear) {
  const std::string x = R"([{"shape":[2,3],"dtype":"DT_FLOAT"}])";
  struct Case {
    std::string request;
    uint32_t status;
    std::string message;
  };
  const std::vector<Case> cases = {
      {R"({"op_type":"TwinNoImplTest","inputs":[{"shape":[1],"dtype":"DT_FLOAT"}]})", ge::GRAPH_PARAM_INVALID,
       "op type 'TwinNoImplTest' has no IMPL_OP registration"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(,null],"attrs":{"axis":5},"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_FAILED, "InferShape of op 'TwinConcatTest' (node 'TwinConcatTest') failed with status 4294967295 "
                         "(GRAPH_FAILED): TwinConcatTest: axis 5 is out of range for inputs of rank 2"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(,null],"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_PARAM_INVALID, "required attribute 'axis' of op 'TwinConcatTest' is not set"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(,null],"attrs":{"axis":"0"},"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_PARAM_INVALID, "attr 'axis' must be of type Int"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(,null],"attrs":{"axis":0,"nope":1},"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_PARAM_INVALID, "op 'TwinConcatTest' has no attribute 'nope'"},
      {R"({"op_type":"TwinConcatTest","inputs":[[{"shape":[2],"dtype":"DT_INT8"}],null],"attrs":{"axis":0},"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_PARAM_INVALID, "input 'x0' has dtype DT_INT8, not allowed by its type T"},
      {R"({"op_type":"TwinConcatTest","inputs":[[{"shape":[2],"dtype":"DT_FLOAT"},{"shape":[2],"dtype":"DT_INT32"}],null],"attrs":{"axis":0},"dynamic_output_counts":{"extra":0}})",
       ge::GRAPH_PARAM_INVALID, "inputs 'x0' and 'x1' share type T but have dtypes DT_FLOAT and DT_INT32"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(,null],"attrs":{"axis":0}})", ge::GRAPH_PARAM_INVALID,
       "dynamic output 'extra' of op 'TwinConcatTest' needs a count"},
      {R"({"op_type":"TwinConcatTest","inputs":[)" + x + R"(]})", ge::GRAPH_PARAM_INVALID,
       "op 'TwinConcatTest' has 2 IR inputs, the request gives 1"},
      {R"({"op_type":"TwinConcatTest","inputs":[[{"shape":[2],"dtype":"DT_NOPE"}],null]})", ge::GRAPH_PARAM_INVALID,
       "input 'x0'.dtype must be a DataType name"},
      {R"({"op_type": 3})", ge::GRAPH_PARAM_INVALID, "needs a string \"op_type\""},
      {R"({"op_type":"TwinConcatTest",)", ge::GRAPH_PARAM_INVALID, "inference request is not valid JSON"},
  };
  for (const auto &c : cases) {
    auto r = Infer(c.request);
    EXPECT_EQ(r.status, c.status) << c.request;
    EXPECT_NE(r.error.find(c.message), std::string::npos) << "got: " << r.error << "\nrequest: " << c.request;
    EXPECT_TRUE(r.json.empty());
  }
}

// The op's OP_LOGE lines belong to the call that logged them: they reach its error string even
// when the log level hides them, and never leak into a later failure or a success.
TEST(OppCApi, OpDiagnosticsReachTheErrorOfTheirCallOnly) {
  const std::string bad_axis =
      R"({"op_type":"TwinConcatTest","node_name":"cat7","inputs":[[{"shape":[2,3],"dtype":"DT_FLOAT"}],null],)"
      R"("attrs":{"axis":-4},"dynamic_output_counts":{"extra":0}})";
  const std::string rank_mismatch =
      R"({"op_type":"TwinConcatTest","inputs":[[{"shape":[2,3],"dtype":"DT_FLOAT"},{"shape":[2],"dtype":"DT_FLOAT"}],)"
      R"(null],"attrs":{"axis":0},"dynamic_output_counts":{"extra":0}})";
  const std::string cause = "cat7: axis -4 is out of range for inputs of rank 2";
  const char *saved = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  const std::string saved_level = saved == nullptr ? "" : saved;
  for (const char *level : {"3", "4"}) {  // 4: nothing printed, the error still explains
    setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1);
    auto failed = Infer(bad_axis);
    EXPECT_EQ(failed.status, ge::GRAPH_FAILED);
    EXPECT_NE(failed.error.find("(node 'cat7') failed with status 4294967295 (GRAPH_FAILED): " + cause),
              std::string::npos)
        << failed.error;
    EXPECT_EQ(failed.error.find('\n'), std::string::npos);
    auto silent = Infer(rank_mismatch);
    EXPECT_EQ(silent.status, ge::GRAPH_FAILED);
    EXPECT_EQ(silent.error.find("axis"), std::string::npos) << silent.error;
    EXPECT_TRUE(silent.error.size() > 0 && silent.error.back() != ' ');
  }
  if (saved == nullptr) {
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
  } else {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", saved_level.c_str(), 1);
  }
}
