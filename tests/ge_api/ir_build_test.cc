// aclgrph* error paths and contracts: options, compile failures with the holder's message,
// atomic save, temp files. The OM-equals-atc check is test_ir_build_om.py.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "ge/ge_ir_build.h"
#include "offline/add_graph.h"
#include "tests/ge_api/test_env.h"

namespace {

using Options = std::map<ge::AscendString, ge::AscendString>;

class IrBuildTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ge_api_test::SetUpTwinEnvironment(); }
  void TearDown() override { ge::aclgrphBuildFinalize(); }

  static ge::graphStatus Init(Options options) { return ge::aclgrphBuildInitialize(options); }

  // Runs `call` with stderr captured; returns what it printed.
  template <typename F>
  static std::string Stderr(F call) {
    testing::internal::CaptureStderr();
    call();
    return testing::internal::GetCapturedStderr();
  }
};

std::string ReadAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST_F(IrBuildTest, BuildBeforeInitializeFails) {
  ge::ModelBufferData model;
  const std::string err = Stderr(
      [&] { EXPECT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(1024), Options{}, model), ge::GRAPH_FAILED); });
  EXPECT_NE(err.find("aclgrphBuildModel: aclgrphBuildInitialize has not been called"), std::string::npos) << err;
}

TEST_F(IrBuildTest, SocVersionIsRequiredAndMustBeKnown) {
  std::string err = Stderr([] { EXPECT_EQ(Init({}), ge::GRAPH_PARAM_INVALID); });
  EXPECT_NE(err.find("the global option ge.socVersion is required"), std::string::npos) << err;
  err = Stderr([] { EXPECT_EQ(Init({{"ge.socVersion", "Ascend999Z"}}), ge::GRAPH_PARAM_INVALID); });
  EXPECT_NE(err.find("ge.socVersion=\"Ascend999Z\" is not a known SoC"), std::string::npos) << err;
  EXPECT_NE(err.find("Ascend910B1"), std::string::npos) << "the known SoCs are listed: " << err;
  // Still not initialized: a build fails.
  ge::ModelBufferData model;
  Stderr([&] { EXPECT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(1024), Options{}, model), ge::GRAPH_FAILED); });
}

TEST_F(IrBuildTest, UnknownGlobalOptionOnlyWarns) {
  const std::string err = Stderr([] {
    EXPECT_EQ(Init({{"ge.socVersion", "Ascend910B1"}, {"ge.noSuchOption", "1"}}), ge::GRAPH_SUCCESS);
  });
  EXPECT_NE(err.find("[WARNING]"), std::string::npos) << err;
  EXPECT_NE(err.find("unknown global option \"ge.noSuchOption\""), std::string::npos) << err;
}

TEST_F(IrBuildTest, DeprecatedStringOverloadsWork) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_EQ(ge::aclgrphBuildInitialize(std::map<std::string, std::string>{{"ge.socVersion", "Ascend910B1"}}),
            ge::GRAPH_SUCCESS);
  ge::ModelBufferData model;
  const std::string err = Stderr([&] {
    EXPECT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(1024), std::map<std::string, std::string>{{"bogus", "1"}},
                                    model),
              ge::GRAPH_PARAM_INVALID);
  });
#pragma GCC diagnostic pop
  EXPECT_NE(err.find("build option \"bogus\" is not supported"), std::string::npos) << err;
}

TEST_F(IrBuildTest, UnknownOrInvalidBuildOptionsAreOneLine) {
  ASSERT_EQ(Init({{"ge.socVersion", "Ascend910B1"}}), ge::GRAPH_SUCCESS);
  const ge::Graph graph = add_graph::BuildAddGraph(1024);
  const std::vector<std::pair<Options, std::string>> cases = {
      {{{"ge.noSuchBuildOption", "1"}}, "build option \"ge.noSuchBuildOption\" is not supported"},
      {{{"input_format", "XYZ"}}, "input_format=\"XYZ\" is invalid"},
      {{{"log", "loud"}}, "log=\"loud\" is invalid"},
      {{{"input_shape", "data_x:a,b"}}, "build option input_shape='data_x:a,b' is invalid"},
      {{{"input_shape_range", "data_x:1~4"}}, "input_shape_range item [data_x:1~4]"},
  };
  for (const auto &c : cases) {
    ge::ModelBufferData model;
    const std::string err =
        Stderr([&] { EXPECT_EQ(ge::aclgrphBuildModel(graph, c.first, model), ge::GRAPH_PARAM_INVALID); });
    EXPECT_NE(err.find(c.second), std::string::npos) << err;
    EXPECT_EQ(err.find("Traceback"), std::string::npos) << err;
    EXPECT_EQ(model.data, nullptr);
  }
  EXPECT_TRUE(ge_api_test::ListDir(ge_api_test::GeTempDir()).empty());
}

TEST_F(IrBuildTest, AtcOptionsAreAcceptedAndTheOmSaves) {
  ASSERT_EQ(Init({{"ge.socVersion", "Ascend910B1"}}), ge::GRAPH_SUCCESS);
  ge::ModelBufferData model;
  const Options options = {{"input_format", "ND"},
                           {"input_shape", "data_x:2048;data_y:2048"},
                           {"input_shape_range", "data_x:[2048];data_y:[2048~2048]"},  // one-value range: static
                           {"log", "error"}};
  testing::internal::CaptureStdout();
  ASSERT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(2048), options, model), ge::GRAPH_SUCCESS);
  const std::string out = testing::internal::GetCapturedStdout();
  // The holder's own prints reach the caller's stdout; atc's banner does not.
  EXPECT_NE(out.find("PY_COMPILE_CALLBACK_ENTER=1 mode=offline soc=Ascend910B1"), std::string::npos) << out;
  EXPECT_EQ(out.find("ATC"), std::string::npos) << out;
  ASSERT_NE(model.data, nullptr);
  ASSERT_GT(model.length, 4u);
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(model.data.get()), 4), "IMOD");
  EXPECT_TRUE(ge_api_test::ListDir(ge_api_test::GeTempDir()).empty()) << "temp files left";

  const std::string dir = ge_api_test::TestTmp() + "/save_ok";
  mkdir(dir.c_str(), 0755);
  ASSERT_EQ(ge::aclgrphSaveModel((dir + "/add_sample").c_str(), model), ge::GRAPH_SUCCESS);
  EXPECT_EQ(ge_api_test::ListDir(dir), std::vector<std::string>{"add_sample.om"});
  const std::string saved = ReadAll(dir + "/add_sample.om");
  EXPECT_EQ(saved, std::string(reinterpret_cast<const char *>(model.data.get()), model.length));
  struct stat st {};
  ASSERT_EQ(stat((dir + "/add_sample.om").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
  // The std::string overload writes the same file again (replaced whole).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  ASSERT_EQ(ge::aclgrphSaveModel(dir + "/add_sample", model), ge::GRAPH_SUCCESS);
#pragma GCC diagnostic pop
  EXPECT_EQ(ge_api_test::ListDir(dir), std::vector<std::string>{"add_sample.om"});
}

TEST_F(IrBuildTest, CompileFailureCarriesTheHoldersError) {
  ASSERT_EQ(Init({{"ge.socVersion", "Ascend910B1"}}), ge::GRAPH_SUCCESS);
  ge::ModelBufferData model;
  // 1000 elements: the add_custom holder's compile() refuses counts that are not multiples of 1024.
  testing::internal::CaptureStdout();
  const std::string err = Stderr([&] {
    EXPECT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(1000, "bad_shape"), Options{}, model), ge::GRAPH_FAILED);
  });
  testing::internal::GetCapturedStdout();
  EXPECT_NE(err.find("aclgrphBuildModel: graph 'bad_shape' failed to compile for Ascend910B1: "), std::string::npos)
      << err;
  EXPECT_NE(err.find("must be a positive multiple of 1024"), std::string::npos) << err;
  EXPECT_EQ(err.find("Traceback"), std::string::npos) << err;
  EXPECT_EQ(model.data, nullptr);
  EXPECT_TRUE(ge_api_test::ListDir(ge_api_test::GeTempDir()).empty()) << "temp files left";
}

TEST_F(IrBuildTest, KernelThatDoesNotCompileReportsTheCompilerDiagnostics) {
  ASSERT_EQ(Init({{"ge.socVersion", "Ascend910B1"}}), ge::GRAPH_SUCCESS);
  const std::string source = ge_api_test::TestTmp() + "/broken_kernel.asc";
  std::ofstream(source) << "#include \"kernel_operator.h\"\nthis is not Ascend C;\n";
  setenv("ADD_CUSTOM_KERNEL_SOURCE", source.c_str(), 1);
  ge::ModelBufferData model;
  testing::internal::CaptureStdout();
  const std::string err = Stderr([&] {
    EXPECT_EQ(ge::aclgrphBuildModel(add_graph::BuildAddGraph(1024, "broken"), Options{}, model), ge::GRAPH_FAILED);
  });
  testing::internal::GetCapturedStdout();
  unsetenv("ADD_CUSTOM_KERNEL_SOURCE");
  EXPECT_NE(err.find("aclgrphBuildModel: graph 'broken' failed to compile for Ascend910B1: "), std::string::npos)
      << err;
  EXPECT_NE(err.find("kernel add_custom failed to compile"), std::string::npos) << err;
  EXPECT_NE(err.find("broken_kernel.asc"), std::string::npos) << "the compiler's diagnostics follow: " << err;
  EXPECT_TRUE(ge_api_test::ListDir(ge_api_test::GeTempDir()).empty()) << "temp files left";
}

TEST_F(IrBuildTest, SaveErrorsLeaveNothing) {
  const uint8_t om_bytes[] = {'I', 'M', 'O', 'D', 0, 1, 2, 3};
  ge::ModelBufferData model;
  model.data.reset(new uint8_t[sizeof om_bytes], std::default_delete<uint8_t[]>());
  std::copy(om_bytes, om_bytes + sizeof om_bytes, model.data.get());
  model.length = sizeof om_bytes;

  const std::string missing_dir = ge_api_test::TestTmp() + "/no_such_dir/model";
  std::string err = Stderr([&] { EXPECT_EQ(ge::aclgrphSaveModel(missing_dir.c_str(), model), ge::GRAPH_FAILED); });
  EXPECT_NE(err.find("aclgrphSaveModel: cannot write " + missing_dir + ".om"), std::string::npos) << err;

  // A read-only directory (root ignores permissions: then a directory in /proc stands in).
  const std::string ro = ge_api_test::TestTmp() + "/read_only";
  mkdir(ro.c_str(), 0555);
  chmod(ro.c_str(), 0555);
  const std::string target = geteuid() == 0 ? std::string("/proc/self/ge_api_test_model") : ro + "/model";
  err = Stderr([&] { EXPECT_EQ(ge::aclgrphSaveModel(target.c_str(), model), ge::GRAPH_FAILED); });
  EXPECT_NE(err.find("cannot write " + target + ".om"), std::string::npos) << err;
  EXPECT_TRUE(ge_api_test::ListDir(ro).empty());

  const std::string dir = ge_api_test::TestTmp() + "/save_bad";
  mkdir(dir.c_str(), 0755);
  ge::ModelBufferData empty;
  err = Stderr([&] { EXPECT_EQ(ge::aclgrphSaveModel((dir + "/m").c_str(), empty), ge::GRAPH_PARAM_INVALID); });
  EXPECT_NE(err.find("the model buffer is empty"), std::string::npos) << err;
  ge::ModelBufferData not_om = model;
  not_om.data.reset(new uint8_t[8](), std::default_delete<uint8_t[]>());
  err = Stderr([&] { EXPECT_EQ(ge::aclgrphSaveModel((dir + "/m").c_str(), not_om), ge::GRAPH_PARAM_INVALID); });
  EXPECT_NE(err.find("is not an offline model"), std::string::npos) << err;
  err = Stderr(
      [&] { EXPECT_EQ(ge::aclgrphSaveModel(static_cast<const char *>(nullptr), model), ge::GRAPH_PARAM_INVALID); });
  EXPECT_NE(err.find("output_file is null or empty"), std::string::npos) << err;
  EXPECT_TRUE(ge_api_test::ListDir(dir).empty());
}

TEST_F(IrBuildTest, IrVersion) {
  int32_t major = -1, minor = -1, patch = -1;
  ASSERT_EQ(ge::aclgrphGetIRVersion(&major, &minor, &patch), ge::GRAPH_SUCCESS);
  EXPECT_EQ(major, ge::IR_MAJOR_VERSION);
  EXPECT_EQ(minor, ge::IR_MINOR_VERSION);
  EXPECT_EQ(patch, ge::IR_PATCH_VERSION);
  Stderr([&] { EXPECT_EQ(ge::aclgrphGetIRVersion(nullptr, &minor, &patch), ge::GRAPH_PARAM_INVALID); });
}

}  // namespace
