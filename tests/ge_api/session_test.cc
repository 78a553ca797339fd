// ge::Session end to end on the CPU twin: GEInitialize -> AddGraph -> RunGraph (compiles once
// through the child-process compiler, runs in-process with libascendcl.so) on random data of two
// sizes, exact against a scalar reference; and every misuse gives one line + a non-SUCCESS status.
// Tests run in file order (the first one needs GE not yet initialized).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ge/ge_api.h"
#include "offline/add_graph.h"
#include "tests/ge_api/test_env.h"

namespace {

using Options = std::map<ge::AscendString, ge::AscendString>;

ge::Tensor FloatTensor(const std::vector<float> &values) {
  ge::TensorDesc desc(ge::Shape(std::vector<int64_t>{static_cast<int64_t>(values.size())}), ge::FORMAT_ND,
                      ge::DT_FLOAT);
  return ge::Tensor(desc, reinterpret_cast<const uint8_t *>(values.data()), values.size() * sizeof(float));
}

std::vector<float> RandomFloats(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
  std::vector<float> v(n);
  for (float &f : v) f = dist(rng);
  return v;
}

// One error line in GEGetErrorMsg naming `needle`; stderr captured so the log stays readable.
template <typename F>
std::string ExpectFails(F call, ge::Status *status) {
  testing::internal::CaptureStderr();
  *status = call();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(*status, ge::SUCCESS);
  EXPECT_NE(err.find("[ERROR] GE("), std::string::npos) << err;
  return ge::GEGetErrorMsg();
}

class SessionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ge_api_test::SetUpTwinEnvironment(); }
};

TEST_F(SessionTest, CallsBeforeGEInitializeFail) {
  ge::Status status = ge::SUCCESS;
  testing::internal::CaptureStderr();
  ge::Session session(Options{});
  testing::internal::GetCapturedStderr();
  std::string msg = ExpectFails([&] { return session.AddGraph(1, add_graph::BuildAddGraph(1024)); }, &status);
  EXPECT_NE(msg.find("Session::AddGraph: GEInitialize has not been called"), std::string::npos) << msg;
  std::vector<ge::Tensor> outputs;
  msg = ExpectFails([&] { return session.RunGraph(1, {}, outputs); }, &status);
  EXPECT_NE(msg.find("Session::RunGraph: GEInitialize has not been called"), std::string::npos) << msg;
}

TEST_F(SessionTest, GEInitializeRejectsBadOptions) {
  ge::Status status = ge::SUCCESS;
  std::string msg = ExpectFails([] { return ge::GEInitialize(Options{{"ge.exec.deviceId", "x"}}); }, &status);
  EXPECT_NE(msg.find("ge.exec.deviceId=\"x\" is not a device id"), std::string::npos) << msg;
  msg = ExpectFails([] { return ge::GEInitialize(Options{{"ge.socVersion", "Ascend999Z"}}); }, &status);
  EXPECT_NE(msg.find("ge.socVersion=\"Ascend999Z\" is not a known SoC"), std::string::npos) << msg;
}

TEST_F(SessionTest, RunsAddOnRandomDataOfTwoSizes) {
  ASSERT_EQ(ge::GEInitialize(Options{{"ge.exec.deviceId", "0"}, {"ge.graphRunMode", "0"}}), ge::SUCCESS);
  std::mt19937 rng(ge_api_test::TestSeed());
  ge::Session session(Options{});
  const std::vector<size_t> sizes = {1024u * (1 + rng() % 8), 1024u * (16 + rng() % 48)};
  for (uint32_t graph_id = 0; graph_id < sizes.size(); ++graph_id) {
    const size_t n = sizes[graph_id];
    ASSERT_EQ(session.AddGraph(graph_id, add_graph::BuildAddGraph(static_cast<int64_t>(n))), ge::SUCCESS);
    EXPECT_TRUE(session.IsGraphNeedRebuild(graph_id));
    for (int run = 0; run < 2; ++run) {  // the second run reuses the compiled, loaded model
      const std::vector<float> x = RandomFloats(rng, n);
      const std::vector<float> y = RandomFloats(rng, n);
      std::vector<ge::Tensor> outputs;
      testing::internal::CaptureStdout();
      ASSERT_EQ(session.RunGraph(graph_id, {FloatTensor(x), FloatTensor(y)}, outputs), ge::SUCCESS)
          << ge::GEGetErrorMsg();
      const std::string out = testing::internal::GetCapturedStdout();
      if (run == 0) {
        EXPECT_NE(out.find("PY_COMPILE_CALLBACK_ENTER=1"), std::string::npos) << out;
      } else {
        EXPECT_EQ(out.find("PY_COMPILE_CALLBACK_ENTER"), std::string::npos) << "compiled twice: " << out;
      }
      EXPECT_FALSE(session.IsGraphNeedRebuild(graph_id));
      ASSERT_EQ(outputs.size(), 1u);
      const ge::TensorDesc desc = outputs[0].GetTensorDesc();
      EXPECT_EQ(desc.GetDataType(), ge::DT_FLOAT);
      EXPECT_EQ(desc.GetFormat(), ge::FORMAT_ND);
      EXPECT_EQ(desc.GetShape().GetDims(), std::vector<int64_t>{static_cast<int64_t>(n)});
      ASSERT_EQ(outputs[0].GetSize(), n * sizeof(float));
      const auto *z = reinterpret_cast<const float *>(outputs[0].GetData());
      size_t mismatches = 0;
      for (size_t i = 0; i < n; ++i) {
        const float expected = x[i] + y[i];
        // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bit-exact on purpose (fp32 add is exact here)
        if (std::memcmp(&z[i], &expected, sizeof(float)) != 0 && mismatches++ < 5) {
          ADD_FAILURE() << "n=" << n << " element " << i << ": " << z[i] << " != " << expected;
        }
      }
      EXPECT_EQ(mismatches, 0u) << "n=" << n;
    }
  }
  EXPECT_TRUE(ge_api_test::ListDir(ge_api_test::GeTempDir()).empty()) << "temp files left";
}

TEST_F(SessionTest, MisuseGivesOneLineAndTheProcessLives) {
  ASSERT_EQ(ge::GEInitialize(Options{{"ge.exec.deviceId", "0"}}), ge::SUCCESS);
  ge::Session session(Options{});
  constexpr int64_t kN = 2048;
  ASSERT_EQ(session.AddGraph(7, add_graph::BuildAddGraph(kN)), ge::SUCCESS);
  ASSERT_EQ(session.CompileGraph(7), ge::SUCCESS) << ge::GEGetErrorMsg();
  const std::vector<float> ones(kN, 1.0f);
  std::vector<ge::Tensor> outputs;
  ge::Status status = ge::SUCCESS;

  std::string msg = ExpectFails([&] { return session.AddGraph(7, add_graph::BuildAddGraph(kN)); }, &status);
  EXPECT_NE(msg.find("graph id 7 is already added"), std::string::npos) << msg;
  msg = ExpectFails([&] { return session.RunGraph(99, {FloatTensor(ones), FloatTensor(ones)}, outputs); }, &status);
  EXPECT_NE(msg.find("Session::RunGraph: graph id 99 is not in this session"), std::string::npos) << msg;
  msg = ExpectFails([&] { return session.RunGraph(7, {FloatTensor(ones)}, outputs); }, &status);
  EXPECT_NE(msg.find("1 input tensors given, the graph takes 2"), std::string::npos) << msg;
  msg = ExpectFails(
      [&] {
        return session.RunGraph(7, {FloatTensor(ones), FloatTensor(ones), FloatTensor(ones)}, outputs);
      },
      &status);
  EXPECT_NE(msg.find("3 input tensors given, the graph takes 2"), std::string::npos) << msg;
  const std::vector<float> short_input(kN / 2, 1.0f);
  msg = ExpectFails(
      [&] {
        return session.RunGraph(7, {FloatTensor(ones), FloatTensor(short_input)}, outputs);
      },
      &status);
  EXPECT_NE(msg.find("input 1 (data_y) has dtype 0, dims [1024], 4096 bytes; the graph takes dtype 0, dims [2048], "
                     "8192 bytes"),
            std::string::npos)
      << msg;
  ge::Tensor ints = FloatTensor(ones);
  ge::TensorDesc int_desc = ints.GetTensorDesc();
  int_desc.SetDataType(ge::DT_INT32);
  ints.SetTensorDesc(int_desc);
  msg = ExpectFails([&] { return session.RunGraph(7, {ints, FloatTensor(ones)}, outputs); }, &status);
  EXPECT_NE(msg.find("input 0 (data_x) has dtype 3"), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
  msg = ExpectFails([&] { return session.BuildGraph(7, std::vector<ge::Tensor>{FloatTensor(ones)}); }, &status);
  EXPECT_NE(msg.find("Session::BuildGraph: graph 7: 1 input tensors given"), std::string::npos) << msg;
  msg = ExpectFails([&] { return session.RunGraphWithStreamAsync(7, nullptr, {}, outputs); }, &status);
  EXPECT_NE(msg.find("stream is null"), std::string::npos) << msg;

  // After all that the graph still runs.
  ASSERT_EQ(session.RunGraph(7, {FloatTensor(ones), FloatTensor(ones)}, outputs), ge::SUCCESS);
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(reinterpret_cast<const float *>(outputs[0].GetData())[kN - 1], 2.0f);

  // RunGraphWithStreamAsync on the caller's stream.
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const std::vector<float> twos(kN, 2.0f);
  ASSERT_EQ(session.RunGraphWithStreamAsync(7, stream, {FloatTensor(ones), FloatTensor(twos)}, outputs), ge::SUCCESS);
  EXPECT_EQ(reinterpret_cast<const float *>(outputs[0].GetData())[0], 3.0f);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);

  ASSERT_EQ(session.RemoveGraph(7), ge::SUCCESS);
  msg = ExpectFails([&] { return session.RunGraph(7, {FloatTensor(ones), FloatTensor(ones)}, outputs); }, &status);
  EXPECT_NE(msg.find("graph id 7 is not in this session"), std::string::npos) << msg;
  msg = ExpectFails([&] { return session.RemoveGraph(7); }, &status);
  EXPECT_NE(msg.find("Session::RemoveGraph: graph id 7 is not in this session"), std::string::npos) << msg;

  // A graph that does not compile: the holder's reason, non-SUCCESS, the session keeps working.
  ASSERT_EQ(session.AddGraph(8, add_graph::BuildAddGraph(1000, "bad_shape")), ge::SUCCESS);
  testing::internal::CaptureStdout();
  msg = ExpectFails([&] { return session.RunGraph(8, {}, outputs); }, &status);
  testing::internal::GetCapturedStdout();
  EXPECT_NE(msg.find("Session::RunGraph: graph 'bad_shape' failed to compile"), std::string::npos) << msg;
  EXPECT_NE(msg.find("multiple of 1024"), std::string::npos) << msg;

  // After GEFinalize every call fails cleanly.
  ASSERT_EQ(session.AddGraph(9, add_graph::BuildAddGraph(kN)), ge::SUCCESS);
  ASSERT_EQ(ge::GEFinalize(), ge::SUCCESS);
  msg = ExpectFails([&] { return session.RunGraph(9, {FloatTensor(ones), FloatTensor(ones)}, outputs); }, &status);
  EXPECT_NE(msg.find("GEInitialize has not been called (or GEFinalize was called since)"), std::string::npos) << msg;
  EXPECT_EQ(ge::GEGetErrorMsgV2().GetString(), ge::GEGetErrorMsg());

  // GE comes back: the session's graphs are still added and compile again.
  ASSERT_EQ(ge::GEInitialize(Options{{"ge.exec.deviceId", "0"}}), ge::SUCCESS);
  testing::internal::CaptureStdout();
  ASSERT_EQ(session.RunGraph(9, {FloatTensor(ones), FloatTensor(ones)}, outputs), ge::SUCCESS) << ge::GEGetErrorMsg();
  testing::internal::GetCapturedStdout();
  EXPECT_EQ(reinterpret_cast<const float *>(outputs[0].GetData())[kN / 2], 2.0f);
  ASSERT_EQ(ge::GEFinalize(), ge::SUCCESS);
}

}  // namespace
