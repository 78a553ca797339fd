// OPP library discovery/loading and the C ABI (list protos, run IMPL_OP inference), using the
// test proto library libtest_opp.so. This binary does not include test_ops.h, so the test ops
// exist only once the library is loaded. Tests run in file order and depend on it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "test_support.h"

using ge_twin_test::AddAttr;
using ge_twin_test::AddCount;
using ge_twin_test::AddSlot;
using ge_twin_test::CallC;
using ge_twin_test::Infer;
using ge_twin_test::Response;
namespace capi = ge::twin::capi;

namespace {
std::string TestOppLibrary() { return ge_twin_test::Runfile("twin/graph/tests/libtest_opp.so"); }

capi::OpProtoList Listing() { return Response<capi::OpProtoList>(CallC(GeTwinGraphListOpProtos)); }

const capi::OpProto *FindOp(const capi::OpProtoList &list, const std::string &type) {
  for (const auto &op : list.ops()) {
    if (op.op_type() == type) return &op;
  }
  return nullptr;
}

template <typename Repeated>
std::vector<int64_t> Ints(const Repeated &values) {
  return std::vector<int64_t>(values.begin(), values.end());
}

// A valid TwinConcatTest request: x = [2, 3] float, no bias, axis 0, no extra outputs.
capi::InferRequest ConcatRequest() {
  capi::InferRequest r;
  r.set_op_type("TwinConcatTest");
  AddSlot(&r, {{{2, 3}, ge::DT_FLOAT}});
  AddSlot(&r, {});
  AddAttr(&r, "axis")->set_i(0);
  AddCount(&r, "extra", 0);
  return r;
}
}  // namespace

TEST(OppCApi, VersionAndBuiltins) {
  EXPECT_EQ(GeTwinGraphApiVersion(), GE_TWIN_GRAPH_C_API_VERSION);
  auto listed = CallC(GeTwinGraphListOpProtos);
  ASSERT_EQ(listed.status, ge::GRAPH_SUCCESS);
  capi::OpProtoList list = Response<capi::OpProtoList>(listed);
  EXPECT_EQ(list.abi_version(), 1u);
  ASSERT_NE(FindOp(list, "Data"), nullptr);
  EXPECT_EQ(FindOp(list, "TwinConcatTest"), nullptr) << "test op registered before its library was loaded";
  auto r = Infer(ConcatRequest());
  EXPECT_EQ(r.status, ge::GRAPH_PARAM_INVALID);
  EXPECT_NE(r.error.find("op type 'TwinConcatTest' is not registered"), std::string::npos) << r.error;
}

TEST(OppCApi, NonexistentRootIsAnError) {
  std::string root = ge_twin_test::MakeTempDir() + "/does_not_exist";
  auto r = CallC(GeTwinGraphLoadOppLibraries, root.c_str());
  EXPECT_EQ(r.status, ge::GRAPH_FAILED);
  EXPECT_NE(r.error.find("'" + root + "'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("No such file or directory"), std::string::npos) << r.error;
  EXPECT_FALSE(r.has_response);
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
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, lib_dir + "/nested/libignored.so"));  // not recursive
  ASSERT_TRUE(ge_twin_test::CopyFile(lib, root + "/op_graph/lib/linux/not_this_arch/libother.so"));
  ge_twin_test::WriteFile(lib_dir + "/README.txt", "not a library");
  std::string plugin = root + "/plugin.py";  // a Python plugin entry: skipped by the C++ loader
  ge_twin_test::WriteFile(plugin, "pass\n");

  std::string roots = " :" + plugin + "::" + root + " ";
  setenv("ASCEND_CUSTOM_OPP_PATH", roots.c_str(), 1);
  auto r = CallC(GeTwinGraphLoadOppLibraries, static_cast<const char *>(nullptr));  // from the environment
  ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
  EXPECT_TRUE(r.error.empty());
  auto loaded = Response<capi::LoadedLibraries>(r);
  std::vector<std::string> paths(loaded.paths().begin(), loaded.paths().end());
  std::vector<std::string> expected = {root + "/libcust_opapi.so", lib_dir + "/libaa_first.so",
                                       lib_dir + "/libzz_second.so"};
  EXPECT_EQ(paths, expected);
  // Loading again is harmless.
  EXPECT_EQ(CallC(GeTwinGraphLoadOppLibraries, root.c_str()).status, ge::GRAPH_SUCCESS);
}

TEST(OppCApi, ListsLoadedProtosWithTheirIr) {
  capi::OpProtoList list = Listing();
  const capi::OpProto *op = FindOp(list, "TwinConcatTest");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->inputs_size(), 2);
  EXPECT_EQ(op->inputs(0).name(), "x");
  EXPECT_EQ(op->inputs(0).kind(), capi::IR_DYNAMIC);
  EXPECT_EQ(op->inputs(0).type(), "T");
  EXPECT_EQ(Ints(op->inputs(0).dtypes().values()), (std::vector<int64_t>{ge::DT_FLOAT, ge::DT_INT32}));
  EXPECT_EQ(op->inputs(1).kind(), capi::IR_OPTIONAL);
  EXPECT_EQ(op->inputs(1).type(), "TensorType({DT_FLOAT, DT_INT32})");
  ASSERT_EQ(op->outputs_size(), 2);
  EXPECT_EQ(op->outputs(0).kind(), capi::IR_REQUIRED);
  EXPECT_EQ(op->outputs(1).name(), "extra");
  EXPECT_EQ(op->outputs(1).kind(), capi::IR_DYNAMIC);
  EXPECT_EQ(op->outputs(1).type(), "TensorType::ALL()");
  std::vector<std::string> names;
  for (const auto &a : op->attrs()) names.push_back(a.name());
  EXPECT_EQ(names, (std::vector<std::string>{"axis", "scale", "mode", "flag", "pads", "dst_type", "weights", "grid",
                                             "names", "empty_list"}));
  const auto &axis = op->attrs(0);
  EXPECT_EQ(axis.type(), "Int");
  EXPECT_EQ(axis.value_type(), "VT_INT");
  EXPECT_TRUE(axis.required());
  EXPECT_FALSE(axis.has_default_value());
  EXPECT_EQ(op->attrs(1).default_value().f(), 1.5f);
  EXPECT_EQ(op->attrs(2).default_value().s(), "sum");
  EXPECT_EQ(op->attrs(5).default_value().dt(), ge::DT_INT32);
  const auto &grid = op->attrs(7).default_value().list_list_i();
  ASSERT_EQ(grid.values_size(), 2);
  EXPECT_EQ(Ints(grid.values(0).values()), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Ints(grid.values(1).values()), (std::vector<int64_t>{3}));
  EXPECT_EQ(op->attrs(8).value_type(), "VT_LIST_STRING");
  // An empty list default is still a list (the oneof member is set), not "no default".
  EXPECT_EQ(op->attrs(9).default_value().value_case(), ge::twin::air::AttrValue::kListI);
  ASSERT_EQ(op->datatypes_size(), 1);
  EXPECT_EQ(op->datatypes(0).name(), "T");
  EXPECT_TRUE(op->has_infer_shape());
  EXPECT_TRUE(op->has_infer_datatype());
  const capi::OpProto *no_impl = FindOp(list, "TwinNoImplTest");
  ASSERT_NE(no_impl, nullptr);
  EXPECT_FALSE(no_impl->has_infer_shape());
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
    const ge::DataType dtype = (rng() & 1) ? ge::DT_FLOAT : ge::DT_INT32;
    std::vector<ge_twin_test::Meta> xs;
    for (size_t i = 0; i < n; ++i) {
      std::vector<int64_t> dims = base;
      dims[axis] = 1 + static_cast<int64_t>(rng() % 100);
      expected[axis] += dims[axis];
      xs.push_back({dims, dtype});
    }
    std::vector<int64_t> pads(rng() % 6);
    for (auto &p : pads) p = static_cast<int64_t>(rng() % 10);
    const float scale = static_cast<float>(rng() % 1000) / 10.f;
    const uint32_t extra = rng() % 4;
    capi::InferRequest request;
    request.set_op_type("TwinConcatTest");
    request.set_node_name("c" + std::to_string(round));
    AddSlot(&request, xs);
    AddSlot(&request, {});
    AddAttr(&request, "axis")->set_i(axis_attr);
    AddAttr(&request, "scale")->set_f(scale);
    auto *list = AddAttr(&request, "pads")->mutable_list_i();
    for (int64_t p : pads) list->add_values(p);
    AddAttr(&request, "dst_type")->set_dt(ge::DT_BF16);
    AddCount(&request, "extra", extra);
    auto r = Infer(request);
    ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
    auto out = Response<capi::InferResponse>(r);
    EXPECT_EQ(out.op_type(), "TwinConcatTest");
    ASSERT_EQ(out.outputs_size(), static_cast<int>(1 + extra));
    EXPECT_EQ(Ints(out.outputs(0).shape()), expected);
    EXPECT_EQ(out.outputs(0).dtype(), dtype);
    for (uint32_t i = 0; i < extra; ++i) {
      const auto &e = out.outputs(1 + i);
      EXPECT_EQ(e.name(), "extra" + std::to_string(i));
      EXPECT_EQ(e.ir_name(), "extra");
      EXPECT_EQ(e.ir_index(), 1u);
      EXPECT_EQ(Ints(e.shape()), (std::vector<int64_t>{static_cast<int64_t>(pads.size()), std::lround(scale * 10), i}));
      EXPECT_EQ(e.dtype(), ge::DT_BF16);
    }
  }
}

namespace {
int64_t Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

// A TwinAttrEchoTest request with random values of every attr type; *echo is the shape its
// InferShape must report (test_opp.cc), built from the values sent.
capi::InferRequest RandomEchoRequest(std::mt19937_64 &rng, std::vector<int64_t> *echo, float f) {
  capi::InferRequest r;
  r.set_op_type("TwinAttrEchoTest");
  AddSlot(&r, {{{4}, ge::DT_FLOAT16}});
  const int64_t i = static_cast<int64_t>(rng());
  const bool b = rng() & 1;
  std::string s(rng() % 4, ' ');
  for (auto &c : s) c = static_cast<char>('a' + rng() % 26);
  const ge::DataType dt = (rng() & 1) ? ge::DT_BF16 : ge::DT_INT8;
  AddAttr(&r, "i")->set_i(i);
  AddAttr(&r, "f")->set_f(f);
  AddAttr(&r, "b")->set_b(b);
  AddAttr(&r, "s")->set_s(s);
  AddAttr(&r, "dt")->set_dt(dt);
  *echo = {i, Bits(f), b ? 1 : 0, static_cast<int64_t>(s.size())};
  for (size_t k = 0; k < 3; ++k) echo->push_back(k < s.size() ? s[k] : -7);
  echo->push_back(dt);
  auto *li = AddAttr(&r, "li")->mutable_list_i();
  auto *lf = AddAttr(&r, "lf")->mutable_list_f();
  auto *lb = AddAttr(&r, "lb")->mutable_list_b();
  const size_t ni = rng() % 4, nf = rng() % 4, nb = rng() % 4;
  std::uniform_real_distribution<float> real(-1e6f, 1e6f);
  for (size_t k = 0; k < ni; ++k) li->add_values(static_cast<int64_t>(rng()));
  for (size_t k = 0; k < nf; ++k) lf->add_values(real(rng));
  for (size_t k = 0; k < nb; ++k) lb->add_values(rng() & 1);
  echo->push_back(static_cast<int64_t>(ni));
  for (size_t k = 0; k < 3; ++k) echo->push_back(k < ni ? li->values()[k] : -7);
  echo->push_back(static_cast<int64_t>(nf));
  for (size_t k = 0; k < 3; ++k) echo->push_back(k < nf ? Bits(lf->values()[k]) : -7);
  echo->push_back(static_cast<int64_t>(nb));
  for (size_t k = 0; k < 3; ++k) echo->push_back(k < nb ? static_cast<int64_t>(lb->values()[k]) : -7);
  // The kinds gert's RuntimeAttrs does not hold still cross the boundary, decoded and type-checked.
  auto *t = AddAttr(&r, "t")->mutable_t();
  t->mutable_desc()->add_dims(2);
  t->mutable_desc()->set_dtype(ge::DT_FLOAT);
  t->set_data(std::string(8, static_cast<char>(rng())));
  auto *ls = AddAttr(&r, "ls")->mutable_list_s();
  for (size_t k = rng() % 3; k > 0; --k) ls->add_values(std::string(1 + rng() % 5, 'x'));
  auto *ldt = AddAttr(&r, "ldt")->mutable_list_dt();
  for (size_t k = rng() % 3; k > 0; --k) ldt->add_values(static_cast<int32_t>(rng() % 3));
  auto *lli = AddAttr(&r, "lli")->mutable_list_list_i();
  for (size_t k = rng() % 3; k > 0; --k) lli->add_values()->add_values(static_cast<int64_t>(rng()));
  return r;
}
}  // namespace

// Random attributes of every type reach the op's inference with their exact values, including
// the floats JSON could not carry (inf, -inf, nan, -0.0, denormals).
TEST(OppCApi, RandomAttributesOfEveryTypeArriveIntact) {
  auto rng = ge_twin_test::SeededRng("OppCApi.RandomAttributes");
  const float specials[] = {std::numeric_limits<float>::infinity(),   -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(),  -0.0f,
                            std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()};
  std::uniform_real_distribution<float> real(-1e30f, 1e30f);
  for (int round = 0; round < 60; ++round) {
    const float f = round < 6 ? specials[round] : real(rng);
    std::vector<int64_t> echo;
    capi::InferRequest request = RandomEchoRequest(rng, &echo, f);
    auto r = Infer(request);
    ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
    auto out = Response<capi::InferResponse>(r);
    ASSERT_EQ(out.outputs_size(), 1);
    EXPECT_EQ(Ints(out.outputs(0).shape()), echo) << "round " << round << ", f = " << f;
    EXPECT_EQ(out.outputs(0).dtype(), ge::DT_FLOAT16);
  }
}

TEST(OppCApi, InferErrorsAreClear) {
  struct Case {
    std::string what;
    capi::InferRequest request;
    uint32_t status;
    std::string message;
  };
  auto with = [](auto edit) {
    capi::InferRequest r = ConcatRequest();
    edit(&r);
    return r;
  };
  const std::vector<Case> cases = {
      {"no IMPL_OP", with([](capi::InferRequest *r) {
         r->Clear();
         r->set_op_type("TwinNoImplTest");
         AddSlot(r, {{{1}, ge::DT_FLOAT}});
       }),
       ge::GRAPH_PARAM_INVALID, "op type 'TwinNoImplTest' has no IMPL_OP registration"},
      {"no op type", with([](capi::InferRequest *r) { r->clear_op_type(); }), ge::GRAPH_PARAM_INVALID,
       "inference request has no op_type"},
      {"op failure", with([](capi::InferRequest *r) { r->mutable_attrs(0)->mutable_value()->set_i(5); }),
       ge::GRAPH_FAILED,
       "InferShape of op 'TwinConcatTest' (node 'TwinConcatTest') failed with status 4294967295 "
       "(GRAPH_FAILED): TwinConcatTest: axis 5 is out of range for inputs of rank 2"},
      {"required attr", with([](capi::InferRequest *r) { r->clear_attrs(); }), ge::GRAPH_PARAM_INVALID,
       "required attribute 'axis' of op 'TwinConcatTest' is not set"},
      {"attr type", with([](capi::InferRequest *r) { r->mutable_attrs(0)->mutable_value()->set_s("0"); }),
       ge::GRAPH_PARAM_INVALID, "attr 'axis' of op 'TwinConcatTest' must be of type Int, the request gives String"},
      {"float for a list", with([](capi::InferRequest *r) { AddAttr(r, "weights")->set_f(0.5f); }),
       ge::GRAPH_PARAM_INVALID,
       "attr 'weights' of op 'TwinConcatTest' must be of type ListFloat, the request gives Float"},
      {"attr without value", with([](capi::InferRequest *r) { AddAttr(r, "scale"); }), ge::GRAPH_PARAM_INVALID,
       "attr 'scale': attribute value is not set"},
      {"attr twice", with([](capi::InferRequest *r) { AddAttr(r, "axis")->set_i(1); }), ge::GRAPH_PARAM_INVALID,
       "attr 'axis' is given twice"},
      {"unknown attr", with([](capi::InferRequest *r) { AddAttr(r, "nope")->set_i(1); }), ge::GRAPH_PARAM_INVALID,
       "op 'TwinConcatTest' has no attribute 'nope'"},
      {"bad attr dtype", with([](capi::InferRequest *r) { AddAttr(r, "dst_type")->set_dt(999); }),
       ge::GRAPH_PARAM_INVALID, "attr 'dst_type': dtype 999 is out of range"},
      {"dtype not allowed",
       with([](capi::InferRequest *r) { r->mutable_inputs(0)->mutable_instances(0)->set_dtype(ge::DT_INT8); }),
       ge::GRAPH_PARAM_INVALID, "input 'x0' has dtype DT_INT8, not allowed by its type T"},
      {"symbol mismatch", with([](capi::InferRequest *r) {
         auto *extra = r->mutable_inputs(0)->add_instances();
         extra->add_shape(2);
         extra->set_dtype(ge::DT_INT32);
       }),
       ge::GRAPH_PARAM_INVALID, "inputs 'x0' and 'x1' share type T but have dtypes DT_FLOAT and DT_INT32"},
      {"dtype no DataType",
       with([](capi::InferRequest *r) { r->mutable_inputs(0)->mutable_instances(0)->set_dtype(-3); }),
       ge::GRAPH_PARAM_INVALID, "inputs[0] has dtype -3, which is no ge::DataType value"},
      {"dim below -2", with([](capi::InferRequest *r) { r->mutable_inputs(0)->mutable_instances(0)->add_shape(-3); }),
       ge::GRAPH_PARAM_INVALID, "input 'x0' of op 'TwinConcatTest' has dim -3; dims must be >= -2"},
      {"too many dims", with([](capi::InferRequest *r) {
         for (int k = 0; k < 30; ++k) r->mutable_inputs(0)->mutable_instances(0)->add_shape(1);
       }),
       ge::GRAPH_PARAM_INVALID, "input 'x0' of op 'TwinConcatTest' has 32 dims, more than 25"},
      {"two tensors for optional", with([](capi::InferRequest *r) {
         ge_twin_test::Meta m{{2, 3}, ge::DT_FLOAT};
         r->mutable_inputs()->RemoveLast();
         AddSlot(r, {m, m});
       }),
       ge::GRAPH_PARAM_INVALID, "input 'bias' of op 'TwinConcatTest' is not dynamic, the request gives 2 tensors"},
      {"missing count", with([](capi::InferRequest *r) { r->clear_dynamic_output_counts(); }), ge::GRAPH_PARAM_INVALID,
       "dynamic output 'extra' of op 'TwinConcatTest' needs a count"},
      {"count of a required output", with([](capi::InferRequest *r) { AddCount(r, "y", 2); }), ge::GRAPH_PARAM_INVALID,
       "dynamic_output_counts names 'y', which is not a dynamic output of op 'TwinConcatTest'"},
      {"count twice", with([](capi::InferRequest *r) { AddCount(r, "extra", 1); }), ge::GRAPH_PARAM_INVALID,
       "dynamic_output_counts names 'extra' twice"},
      {"slot count", with([](capi::InferRequest *r) { r->mutable_inputs()->RemoveLast(); }), ge::GRAPH_PARAM_INVALID,
       "op 'TwinConcatTest' has 2 IR inputs, the request gives 1"},
  };
  for (const auto &c : cases) {
    auto r = Infer(c.request);
    EXPECT_EQ(r.status, c.status) << c.what;
    EXPECT_NE(r.error.find(c.message), std::string::npos) << c.what << ": got: " << r.error;
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << c.what;
    EXPECT_FALSE(r.has_response) << c.what;
  }
}

// Bytes that are no InferRequest: every truncated prefix of a valid request, junk, a wrong wire
// type, NULL. One line each, never a crash; the complete request still works.
TEST(OppCApi, MalformedRequestBytesAreRefused) {
  const std::string valid = ConcatRequest().SerializeAsString();
  const std::string expected = "is not a valid ge.twin.capi.InferRequest message";
  size_t refused = 0;
  for (size_t n = 1; n < valid.size(); ++n) {
    auto r = CallC(GeTwinGraphInferOp, static_cast<const void *>(valid.data()), n);
    EXPECT_NE(r.status, ge::GRAPH_SUCCESS) << "prefix of " << n << " bytes";
    EXPECT_FALSE(r.has_response);
    if (r.error.find(expected) != std::string::npos) ++refused;
  }
  EXPECT_GT(refused, 0u);  // the other prefixes parse to a shorter request the IR refuses
  auto rng = ge_twin_test::SeededRng("OppCApi.MalformedRequestBytes");
  const std::vector<std::string> junk = {std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11),
                                         std::string("\x0a\x05"
                                                     "ab",
                                                     4),                       // length past the end
                                         std::string("\x08\x01", 2),           // op_type as a varint
                                         std::string("\x0a\x02\xc3\x28", 4)};  // invalid UTF-8 in a string
  for (const auto &bytes : junk) {
    auto r = CallC(GeTwinGraphInferOp, static_cast<const void *>(bytes.data()), bytes.size());
    EXPECT_EQ(r.status, ge::GRAPH_PARAM_INVALID);
    EXPECT_NE(r.error.find(expected), std::string::npos) << r.error;
  }
  for (int k = 0; k < 200; ++k) {
    std::string bytes(1 + rng() % 64, '\0');
    for (auto &c : bytes) c = static_cast<char>(rng());
    auto r = CallC(GeTwinGraphInferOp, static_cast<const void *>(bytes.data()), bytes.size());
    EXPECT_TRUE(r.status == ge::GRAPH_PARAM_INVALID || r.status == ge::GRAPH_FAILED) << r.status;
    EXPECT_EQ(r.error.find('\n'), std::string::npos);
  }
  auto null = CallC(GeTwinGraphInferOp, static_cast<const void *>(nullptr), static_cast<size_t>(5));
  EXPECT_EQ(null.status, ge::GRAPH_PARAM_INVALID);
  EXPECT_EQ(null.error, "inference request is NULL");
  EXPECT_EQ(Infer(ConcatRequest()).status, ge::GRAPH_SUCCESS);
}

// The op's OP_LOGE lines belong to the call that logged them: they reach its error string even
// when the log level hides them, and never leak into a later failure or a success.
TEST(OppCApi, OpDiagnosticsReachTheErrorOfTheirCallOnly) {
  capi::InferRequest bad_axis = ConcatRequest();
  bad_axis.set_node_name("cat7");
  bad_axis.mutable_attrs(0)->mutable_value()->set_i(-4);
  capi::InferRequest rank_mismatch = ConcatRequest();
  rank_mismatch.mutable_inputs(0)->add_instances()->add_shape(2);
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
    EXPECT_TRUE(!silent.error.empty() && silent.error.back() != ' ');
  }
  if (saved == nullptr) {
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
  } else {
    setenv("ASCEND_GLOBAL_LOG_LEVEL", saved_level.c_str(), 1);
  }
}
