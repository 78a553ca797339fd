// The libstdc++ ABI guard: a proto library built with the other _GLIBCXX_USE_CXX11_ABI is refused
// by GeTwinGraphLoadOppLibraries with one line (and never dlopen'ed, so none of its code runs);
// one built with the twin's ABI loads and infers. The process lives on in both cases.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

#include "ge_twin/abi_config.h"
#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"
#include "test_support.h"
#include "twin/graph/src/opp_loader.h"

using ge_twin_test::CallC;

namespace {
const std::string kTwinAbi = std::to_string(GE_TWIN_CXX11_ABI);
const std::string kOtherAbi = std::to_string(1 - GE_TWIN_CXX11_ABI);

std::string ExpectedError(const std::string &library) {
  return library + ": built with _GLIBCXX_USE_CXX11_ABI=" + kOtherAbi +
         "; CANN libraries use _GLIBCXX_USE_CXX11_ABI=" + kTwinAbi +
         ": rebuild it with -D_GLIBCXX_USE_CXX11_ABI=" + kTwinAbi;
}

// An OPP root holding `library` as <root>/libcust_opapi.so.
std::string RootWith(const std::string &library) {
  std::string root = ge_twin_test::MakeTempDir();
  EXPECT_TRUE(ge_twin_test::CopyFile(ge_twin_test::Runfile("twin/graph/tests/" + library), root + "/libcust_opapi.so"));
  return root;
}
}  // namespace

TEST(AbiGuard, OtherAbiLibraryIsRefusedWithOneLine) {
  std::string root = RootWith("libabi_other_opp.so");
  std::string library = root + "/libcust_opapi.so";
  auto r = CallC(GeTwinGraphLoadOppLibraries, root.c_str());
  EXPECT_EQ(r.status, ge::GRAPH_FAILED);
  EXPECT_EQ(r.error, ExpectedError(library));
  EXPECT_FALSE(r.has_response);
  // Refused before dlopen: the library is not in the process.
  EXPECT_EQ(dlopen(library.c_str(), RTLD_NOW | RTLD_NOLOAD), nullptr);
  // Refused again on a second attempt, and the process is fine.
  EXPECT_EQ(CallC(GeTwinGraphLoadOppLibraries, root.c_str()).error, ExpectedError(library));
  auto listed = CallC(GeTwinGraphListOpProtos);
  ASSERT_EQ(listed.status, ge::GRAPH_SUCCESS);
  const auto list = ge_twin_test::Response<ge::twin::capi::OpProtoList>(listed);
  for (const auto &op : list.ops()) {
    EXPECT_NE(op.op_type(), "TwinAbiScaleTest");
  }
}

TEST(AbiGuard, SameAbiLibraryLoadsAndInfers) {
  std::string root = RootWith("libabi_same_opp.so");
  auto r = CallC(GeTwinGraphLoadOppLibraries, root.c_str());
  ASSERT_EQ(r.status, ge::GRAPH_SUCCESS) << r.error;
  ge::twin::capi::InferRequest request;
  request.set_op_type("TwinAbiScaleTest");
  ge_twin_test::AddSlot(&request, {{{2, 5}, ge::DT_FLOAT}});
  ge_twin_test::AddAttr(&request, "factor")->set_i(3);
  auto inferred = ge_twin_test::Infer(request);
  ASSERT_EQ(inferred.status, ge::GRAPH_SUCCESS) << inferred.error;
  auto response = ge_twin_test::Response<ge::twin::capi::InferResponse>(inferred);
  ASSERT_EQ(response.outputs_size(), 1);
  EXPECT_EQ(std::vector<int64_t>(response.outputs(0).shape().begin(), response.outputs(0).shape().end()),
            (std::vector<int64_t>{6, 15}));
  EXPECT_EQ(response.outputs(0).dtype(), ge::DT_FLOAT);
}

// The same decision from a dlopen error text (the fallback for libraries without section
// headers): mangled marker names of either form are recognised; the twin's own marker is not.
TEST(AbiGuard, MarkerNamesInDlerrorText) {
  const std::string lib = "/x/libfoo.so";
  const std::string foreign =
      "_ZN2ge8twin_abi55built_with__GLIBCXX_USE_CXX11_ABI_" + kOtherAbi + "__but_this_CANN_needs_" + kTwinAbi + "Ev";
  EXPECT_EQ(ge_twin::AbiMismatchError(lib, lib + ": undefined symbol: " + foreign), ExpectedError(lib));
  const std::string old_twin_marker = "ge::twin_abi::uses__GLIBCXX_USE_CXX11_ABI_" + kOtherAbi + "()";
  EXPECT_EQ(ge_twin::AbiMismatchError(lib, "undefined symbol: " + old_twin_marker), ExpectedError(lib));
  EXPECT_EQ(ge_twin::AbiMismatchError(
                lib, "undefined symbol: _ZN2ge8twin_abi30uses__GLIBCXX_USE_CXX11_ABI_" + kTwinAbi + "Ev"),
            "");
  EXPECT_EQ(ge_twin::AbiMismatchError(lib, "undefined symbol: _ZN2ge8OperatorC1Ev"), "");
}
