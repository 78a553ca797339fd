// A CANN user's translation unit: every public twin header, compiled with CANN's flags
// (-Dgoogle=ascend_private -D_GLIBCXX_USE_CXX11_ABI=0, see BUILD.bazel), calling into
// the graph libraries with std::string and AscendString values in both directions.
#include "tests/abi/all_public_headers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

static_assert(_GLIBCXX_USE_CXX11_ABI == 0, "built with CANN's C++ ABI");

namespace {

TEST(CannUserFlags, StringsCrossIntoTheGraphLibrary) {
  ge::Operator op(std::string("my_node"), std::string("Data"));
  EXPECT_EQ(op.GetName(), "my_node");  // std::string returned by the library
  ge::AscendString type;
  ASSERT_EQ(op.GetOpType(type), ge::GRAPH_SUCCESS);
  EXPECT_STREQ(type.GetString(), "Data");

  op.SetAttr("label", std::string("a std::string attribute"));
  std::string label;
  ASSERT_EQ(op.GetAttr("label", label), ge::GRAPH_SUCCESS);
  EXPECT_EQ(label, "a std::string attribute");

  ge::Graph graph(
      std::string("g"));  // NOLINT(clang-diagnostic-deprecated-declarations): CANN deprecates it; users still call it
  EXPECT_EQ(graph.GetName(), "g");
}

}  // namespace
