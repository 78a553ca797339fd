// The Bazel-built libcust_opapi.so, discovered from an ASCEND_CUSTOM_OPP_PATH root: its IR and
// its IMPL_OP inference (checked against a scalar reference on random shapes).
#include <gtest/gtest.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "twin/graph/proto/graph_c_api.pb.h"

namespace {
namespace capi = ge::twin::capi;

struct Result {
  uint32_t status;
  std::string bytes;  // the serialized response message
  std::string error;
};

template <typename Fn, typename... Args>
Result Call(Fn fn, Args... args) {
  void *data = nullptr;
  size_t size = 0;
  char *error = nullptr;
  Result r;
  r.status = fn(args..., &data, &size, &error);
  r.bytes = data == nullptr ? "" : std::string(static_cast<const char *>(data), size);
  r.error = error == nullptr ? "" : error;
  GeTwinGraphFreeBuffer(data);
  GeTwinGraphFreeString(error);
  return r;
}

template <typename Message>
Message Parsed(const Result &r) {
  Message m;
  EXPECT_TRUE(m.ParseFromString(r.bytes));
  return m;
}

Result Add(const std::vector<int64_t> &a, const std::vector<int64_t> &b, ge::DataType dtype) {
  capi::InferRequest request;
  request.set_op_type("PythonCompilableAddCustom");
  for (const auto *dims : {&a, &b}) {
    auto *meta = request.add_inputs()->add_instances();
    for (int64_t d : *dims) meta->add_shape(d);
    meta->set_dtype(dtype);
  }
  const std::string bytes = request.SerializeAsString();
  return Call(GeTwinGraphInferOp, static_cast<const void *>(bytes.data()), bytes.size());
}

// The value of a variable Bazel's test runner sets; aborts naming it when unset.
std::string RequiredEnv(const char *variable) {
  const char *value = getenv(variable);
  if (value == nullptr) {
    fprintf(stderr, "add_custom_opp_test: %s is not set (run it with bazel test)\n", variable);
    abort();
  }
  return value;
}

// An OPP root holding the Bazel-built library at op_graph/lib/linux/<arch>/libcust_opapi.so.
std::string MakeOppRoot() {
  std::string root = RequiredEnv("TEST_TMPDIR") + "/opp_root";
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
  std::string built =
      RequiredEnv("TEST_SRCDIR") + "/" + RequiredEnv("TEST_WORKSPACE") + "/ops/add_custom/proto/libcust_opapi.so";
  std::ifstream in(built, std::ios::binary);
  std::ofstream out(dir + "/libcust_opapi.so", std::ios::binary);
  out << in.rdbuf();
  return root;
}
}  // namespace

TEST(AddCustomOpp, LoadListInfer) {
  // Not registered until its library is loaded.
  Result before = Add({4}, {4}, ge::DT_FLOAT);
  EXPECT_EQ(before.status, ge::GRAPH_PARAM_INVALID);

  std::string root = MakeOppRoot();
  Result loaded = Call(GeTwinGraphLoadOppLibraries, root.c_str());
  ASSERT_EQ(loaded.status, ge::GRAPH_SUCCESS) << loaded.error;
  EXPECT_EQ(Parsed<capi::LoadedLibraries>(loaded).paths_size(), 1);

  const auto listing = Parsed<capi::OpProtoList>(Call(GeTwinGraphListOpProtos));
  const capi::OpProto *proto = nullptr;
  for (const auto &op : listing.ops()) {
    if (op.op_type() == "PythonCompilableAddCustom") proto = &op;
  }
  ASSERT_NE(proto, nullptr);
  ASSERT_EQ(proto->inputs_size(), 2);
  ASSERT_EQ(proto->outputs_size(), 1);
  for (const capi::IrParam *p : {&proto->inputs(0), &proto->inputs(1), &proto->outputs(0)}) {
    EXPECT_EQ(p->kind(), capi::IR_REQUIRED);
    EXPECT_EQ(p->type(), "T");
    EXPECT_EQ(std::vector<int32_t>(p->dtypes().values().begin(), p->dtypes().values().end()),
              std::vector<int32_t>{ge::DT_FLOAT});
  }
  EXPECT_EQ(proto->inputs(0).name() + proto->inputs(1).name() + proto->outputs(0).name(), "x1x2y");
  EXPECT_EQ(proto->attrs_size(), 0);
  ASSERT_EQ(proto->datatypes_size(), 1);
  EXPECT_EQ(proto->datatypes(0).name(), "T");
  EXPECT_TRUE(proto->has_infer_shape());
  EXPECT_TRUE(proto->has_infer_datatype());

  uint64_t seed = std::random_device()();
  printf("[seed] AddCustomOpp.LoadListInfer: %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  for (int round = 0; round < 30; ++round) {
    std::vector<int64_t> dims(rng() % 5);  // rank 0 (scalar) .. 4
    for (auto &d : dims) d = 1 + static_cast<int64_t>(rng() % 100000);
    Result r = Add(dims, dims, ge::DT_FLOAT);
    ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
    const auto response = Parsed<capi::InferResponse>(r);
    ASSERT_EQ(response.outputs_size(), 1);
    const auto &y = response.outputs(0);
    EXPECT_EQ(y.name(), "y");
    EXPECT_EQ(std::vector<int64_t>(y.shape().begin(), y.shape().end()), dims);
    EXPECT_EQ(y.dtype(), ge::DT_FLOAT);

    std::vector<int64_t> other = dims;
    if (other.empty())
      other.push_back(2);
    else
      other[rng() % other.size()] += 1;
    Result bad = Add(dims, other, ge::DT_FLOAT);
    EXPECT_EQ(bad.status, ge::GRAPH_FAILED);
    EXPECT_NE(bad.error.find("InferShape of op 'PythonCompilableAddCustom'"), std::string::npos) << bad.error;
  }
  Result int_input = Add({3}, {3}, ge::DT_INT32);
  EXPECT_EQ(int_input.status, ge::GRAPH_PARAM_INVALID);
  EXPECT_NE(int_input.error.find("input 'x1' has dtype DT_INT32, not allowed by its type T"), std::string::npos)
      << int_input.error;
}
