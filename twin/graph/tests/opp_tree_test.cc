// CANN's OPP tree under ASCEND_OPP_PATH, after the ASCEND_CUSTOM_OPP_PATH roots: vendors in the
// order of vendors/config.ini's load_priority, then op_proto/custom, then built-in; missing
// directories are skipped. Every library here is a copy of libtest_opp.so.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "ge_twin/graph_c_api.h"
#include "graph/ge_error_codes.h"
#include "test_support.h"

using ge_twin_test::CallC;

namespace {
void PlaceLibrary(const std::string &path) {
  size_t slash = path.rfind('/');
  ASSERT_TRUE(ge_twin_test::MakeDirs(path.substr(0, slash)));
  ASSERT_TRUE(ge_twin_test::CopyFile(ge_twin_test::Runfile("twin/graph/tests/libtest_opp.so"), path));
}

// Loads custom_roots with ASCEND_OPP_PATH = opp (unset if empty); returns the loaded paths.
std::vector<std::string> Load(const std::string &custom_roots, const std::string &opp, std::string *error = nullptr) {
  if (opp.empty()) {
    unsetenv("ASCEND_OPP_PATH");
  } else {
    setenv("ASCEND_OPP_PATH", opp.c_str(), 1);
  }
  auto r = CallC(GeTwinGraphLoadOppLibraries, custom_roots.c_str());
  unsetenv("ASCEND_OPP_PATH");
  if (error != nullptr) *error = r.error;
  std::vector<std::string> paths;
  if (r.status != ge::GRAPH_SUCCESS) return paths;
  const auto loaded = ge_twin_test::Response<ge::twin::capi::LoadedLibraries>(r);
  for (const auto &p : loaded.paths()) paths.push_back(p);
  return paths;
}
}  // namespace

TEST(OppTree, OrderIsCustomRootsVendorsByPriorityCustomThenBuiltIn) {
  const std::string arch_dir = "/lib/linux/" + ge_twin_test::HostArch();
  std::string custom = ge_twin_test::MakeTempDir();
  std::string opp = ge_twin_test::MakeTempDir();
  PlaceLibrary(custom + "/libcust_opapi.so");
  PlaceLibrary(opp + "/vendors/va/op_proto" + arch_dir + "/liba.so");
  PlaceLibrary(opp + "/vendors/vb/op_proto" + arch_dir + "/libb2.so");
  PlaceLibrary(opp + "/vendors/vb/op_proto" + arch_dir + "/libb1.so");
  PlaceLibrary(opp + "/vendors/unlisted/op_proto" + arch_dir + "/libunlisted.so");  // not in load_priority
  PlaceLibrary(opp + "/vendors/vb/op_proto/lib/linux/not_this_arch/libother.so");
  PlaceLibrary(opp + "/op_proto/custom/libcustom.so");
  PlaceLibrary(opp + "/op_proto/custom/nested/libignored.so");  // not recursive
  PlaceLibrary(opp + "/built-in/op_proto" + arch_dir + "/libbuiltin.so");
  ge_twin_test::WriteFile(opp + "/vendors/config.ini",
                          "# vendors, highest priority first\n[vendors]\nload_priority = vb, missing ,va\n");

  std::string error;
  std::vector<std::string> loaded = Load(custom, opp, &error);
  std::vector<std::string> expected = {
      custom + "/libcust_opapi.so",
      opp + "/vendors/vb/op_proto" + arch_dir + "/libb1.so",
      opp + "/vendors/vb/op_proto" + arch_dir + "/libb2.so",
      opp + "/vendors/va/op_proto" + arch_dir + "/liba.so",
      opp + "/op_proto/custom/libcustom.so",
      opp + "/built-in/op_proto" + arch_dir + "/libbuiltin.so",
  };
  EXPECT_EQ(loaded, expected) << error;

  // Without the custom roots the tree alone loads, in the same order.
  expected.erase(expected.begin());
  EXPECT_EQ(Load("", opp), expected);
}

TEST(OppTree, MissingPartsAreSkipped) {
  const std::string arch_dir = "/lib/linux/" + ge_twin_test::HostArch();
  std::string opp = ge_twin_test::MakeTempDir();
  EXPECT_TRUE(Load("", opp).empty());                      // an empty tree
  EXPECT_TRUE(Load("", opp + "/does_not_exist").empty());  // no tree at all
  PlaceLibrary(opp + "/built-in/op_proto" + arch_dir + "/libbuiltin.so");
  PlaceLibrary(opp + "/vendors/va/op_proto" + arch_dir + "/liba.so");  // no config.ini: no vendor
  std::string error;
  EXPECT_EQ(Load("", opp, &error), std::vector<std::string>{opp + "/built-in/op_proto" + arch_dir + "/libbuiltin.so"})
      << error;
}

TEST(OppTree, UnreadableVendorConfigIsAnErrorNamingIt) {
  std::string opp = ge_twin_test::MakeTempDir();
  ASSERT_TRUE(ge_twin_test::MakeDirs(opp + "/vendors/config.ini"));  // a directory, not a file
  std::string error;
  EXPECT_TRUE(Load("", opp, &error).empty());
  EXPECT_EQ(error.rfind("ASCEND_OPP_PATH vendors config '" + opp + "/vendors/config.ini' cannot be read", 0), 0u)
      << error;
}

// A malformed config.ini (read by the one C++ ini reader, //twin/platform:ini_file) is an error
// naming the file and the line; nothing is loaded.
TEST(OppTree, MalformedVendorConfigIsAnErrorNamingTheLine) {
  const std::string arch_dir = "/lib/linux/" + ge_twin_test::HostArch();
  struct Case {
    std::string text;
    std::string cause;
  };
  const std::vector<Case> cases = {
      {"load_priority va\n", ":1: expected '[section]' or 'key=value', got 'load_priority va'"},
      {"load_priority=va\nload_priority=vb\n", ":2: key 'load_priority' appears twice in the file"},
      {"[vendors\nload_priority=va\n", ":1: section header '[vendors' does not end with ']'"},
  };
  for (const auto &c : cases) {
    std::string opp = ge_twin_test::MakeTempDir();
    PlaceLibrary(std::string(opp).append("/vendors/va/op_proto").append(arch_dir).append("/liba.so"));
    const std::string config = opp + "/vendors/config.ini";
    ge_twin_test::WriteFile(config, c.text);
    std::string error;
    EXPECT_TRUE(Load("", opp, &error).empty());
    EXPECT_EQ(error, std::string("ASCEND_OPP_PATH vendors config '")
                         .append(config)
                         .append("' cannot be read: ")
                         .append(config)
                         .append(c.cause));
  }
  std::string opp = ge_twin_test::MakeTempDir();
  ASSERT_TRUE(ge_twin_test::MakeDirs(opp + "/vendors"));
  ge_twin_test::WriteFile(opp + "/vendors/config.ini", "[a]\nload_priority=va\n[b]\nload_priority=vb\n");
  std::string error;
  EXPECT_TRUE(Load("", opp, &error).empty());
  EXPECT_EQ(error, "ASCEND_OPP_PATH vendors config '" + opp + "/vendors/config.ini' sets load_priority in 2 sections");
}
