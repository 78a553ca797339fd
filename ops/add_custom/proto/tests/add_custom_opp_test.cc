// The Bazel-built libcust_opapi.so, discovered from an ASCEND_CUSTOM_OPP_PATH root: its IR and
// its IMPL_OP inference (checked against a scalar reference on random shapes).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "twin/graph/src/json.h"

namespace {
struct Result {
  uint32_t status;
  ge_twin::json::Value json;
  std::string error;
};

template <typename Fn, typename... Args>
Result Call(Fn fn, Args... args) {
  char *json = nullptr;
  char *error = nullptr;
  Result r;
  r.status = fn(args..., &json, &error);
  std::string parse_error;
  if (json != nullptr) ge_twin::json::Parse(json, &r.json, &parse_error);
  r.error = error == nullptr ? "" : error;
  GeTwinGraphFreeString(json);
  GeTwinGraphFreeString(error);
  return r;
}

std::string ShapeJson(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string AddRequest(const std::vector<int64_t> &a, const std::vector<int64_t> &b, const char *dtype) {
  return std::string(R"({"op_type":"PythonCompilableAddCustom","inputs":[{"shape":)") + ShapeJson(a) +
         R"(,"dtype":")" + dtype + R"("},{"shape":)" + ShapeJson(b) + R"(,"dtype":")" + dtype + "\"}]}";
}

// An OPP root holding the Bazel-built library at op_graph/lib/linux/<arch>/libcust_opapi.so.
std::string MakeOppRoot() {
  std::string root = std::string(getenv("TEST_TMPDIR")) + "/opp_root";
  struct utsname u;
  uname(&u);
  mkdir(root.c_str(), 0755);
  std::string dir = root + "/op_graph";
  mkdir(dir.c_str(), 0755);
  dir += "/lib";
  mkdir(dir.c_str(), 0755);
  dir += "/linux";
  mkdir(dir.c_str(), 0755);
  dir += std::string("/") + u.machine;
  mkdir(dir.c_str(), 0755);
  std::string built = std::string(getenv("TEST_SRCDIR")) + "/" + getenv("TEST_WORKSPACE") +
                      "/ops/add_custom/proto/libcust_opapi.so";
  std::ifstream in(built, std::ios::binary);
  std::ofstream out(dir + "/libcust_opapi.so", std::ios::binary);
  out << in.rdbuf();
  return root;
}
}  // namespace

TEST(AddCustomOpp, LoadListInfer) {
  // Not registered until its library is loaded.
  Result before = Call(GeTwinGraphInferOp, AddRequest({4}, {4}, "DT_FLOAT").c_str());
  EXPECT_EQ(before.status, ge::GRAPH_PARAM_INVALID);

  std::string root = MakeOppRoot();
  Result loaded = Call(GeTwinGraphLoadOppLibraries, root.c_str());
  ASSERT_EQ(loaded.status, ge::GRAPH_SUCCESS) << loaded.error;
  ASSERT_EQ(loaded.json.Find("loaded")->Items().size(), 1u);

  Result listed = Call(GeTwinGraphListOpProtos);
  const ge_twin::json::Value *proto = nullptr;
  for (const auto &op : listed.json.Find("ops")->Items()) {
    if (op.Find("op_type")->AsString() == "PythonCompilableAddCustom") proto = &op;
  }
  ASSERT_NE(proto, nullptr);
  EXPECT_EQ(proto->Find("inputs")->Dump(),
            R"([{"name":"x1","kind":"REQUIRED","type":"T","dtypes":["DT_FLOAT"]},)"
            R"({"name":"x2","kind":"REQUIRED","type":"T","dtypes":["DT_FLOAT"]}])");
  EXPECT_EQ(proto->Find("outputs")->Dump(), R"([{"name":"y","kind":"REQUIRED","type":"T","dtypes":["DT_FLOAT"]}])");
  EXPECT_EQ(proto->Find("attrs")->Dump(), "[]");
  EXPECT_EQ(proto->Find("datatypes")->Dump(), R"({"T":["DT_FLOAT"]})");
  EXPECT_TRUE(proto->Find("has_infer_shape")->AsBool());
  EXPECT_TRUE(proto->Find("has_infer_datatype")->AsBool());

  uint64_t seed = std::random_device()();
  printf("[seed] AddCustomOpp.LoadListInfer: %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 30; ++round) {
    std::vector<int64_t> dims(rng() % 5);  // rank 0 (scalar) .. 4
    for (auto &d : dims) d = 1 + static_cast<int64_t>(rng() % 100000);
    Result r = Call(GeTwinGraphInferOp, AddRequest(dims, dims, "DT_FLOAT").c_str());
    ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
    const auto &y = r.json.Find("outputs")->Items().at(0);
    EXPECT_EQ(y.Find("name")->AsString(), "y");
    EXPECT_EQ(y.Find("shape")->Dump(), ShapeJson(dims));
    EXPECT_EQ(y.Find("dtype")->AsString(), "DT_FLOAT");

    std::vector<int64_t> other = dims;
    if (other.empty()) other.push_back(2); else other[rng() % other.size()] += 1;
    Result bad = Call(GeTwinGraphInferOp, AddRequest(dims, other, "DT_FLOAT").c_str());
    EXPECT_EQ(bad.status, ge::GRAPH_FAILED);
    EXPECT_NE(bad.error.find("InferShape of op 'PythonCompilableAddCustom'"), std::string::npos) << bad.error;
  }
  Result int_input = Call(GeTwinGraphInferOp, AddRequest({3}, {3}, "DT_INT32").c_str());
  EXPECT_EQ(int_input.status, ge::GRAPH_PARAM_INVALID);
  EXPECT_NE(int_input.error.find("input 'x1' has dtype DT_INT32, not allowed by its type T"), std::string::npos)
      << int_input.error;
}
