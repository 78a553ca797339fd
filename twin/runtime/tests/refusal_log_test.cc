// Every refusal leaves one line in CANN's log file, and aclGetRecentErrMsg returns its message:
// a kernel image for another SoC, a malformed kernel image, a malformed OM, a kernel trap (also
// in the device process's own log, debug/device-0/device-<host pid>_<stamp>.log).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

class RefusalLogTest : public AclTest {
 protected:
  void SetUp() override {
    root_ = MakeTempDir("refusal_log");
    setenv("ASCEND_PROCESS_LOG_PATH", root_.c_str(), 1);
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    AclTest::SetUp();  // the device process starts here and inherits the variables
  }
  void TearDown() override {
    AclTest::TearDown();
    unsetenv("ASCEND_PROCESS_LOG_PATH");
  }
  // The plog line holding `message` (one, at ERROR, module ASCENDCL, with the error code).
  void ExpectLogged(const std::string &message, aclError code) {
    ASSERT_FALSE(message.empty());
    const std::string first_line = message.substr(0, message.find('\n'));
    int found = 0;
    for (const std::string &line : LogLinesOf(root_ + "/debug/plog", "plog-" + std::to_string(getpid()) + "_")) {
      if (line.find(first_line) == std::string::npos) continue;
      ++found;
      EXPECT_EQ(line.rfind("[ERROR] ASCENDCL(" + std::to_string(getpid()) + ",", 0), 0u) << line;
      EXPECT_NE(line.find("(error " + std::to_string(code) + ")"), std::string::npos) << line;
    }
    EXPECT_EQ(found, 1) << "'" << first_line << "' in " << root_;
  }
  std::string root_;
};

TEST_F(RefusalLogTest, KernelImageForAnotherSoc) {
  const std::vector<uint8_t> image = ReadFile(KernelPath("k3510"));
  aclrtBinHandle bin = nullptr;
  const aclError got = aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin);
  EXPECT_EQ(got, ACL_ERROR_RT_SOC_VERSION);
  const std::string message = TakeErrMsg();
  EXPECT_NE(message.find("3510"), std::string::npos) << message;
  ExpectLogged(message, got);
}

TEST_F(RefusalLogTest, MalformedKernelImage) {
  std::vector<uint8_t> image = ReadFile(KernelPath("k2201"));
  image.resize(image.size() / 3);
  for (size_t i = 64; i < image.size(); i += 7) image[i] ^= static_cast<uint8_t>(Rng()());
  aclrtBinHandle bin = nullptr;
  const aclError got = aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin);
  ASSERT_NE(got, ACL_SUCCESS);
  ExpectLogged(TakeErrMsg(), got);
}

TEST_F(RefusalLogTest, MalformedOm) {
  std::vector<uint8_t> om(512);
  for (auto &byte : om) byte = static_cast<uint8_t>(Rng()());
  uint32_t id = 0;
  const aclError got = aclmdlLoadFromMem(om.data(), om.size(), &id);
  ASSERT_NE(got, ACL_SUCCESS);
  ExpectLogged(TakeErrMsg(), got);
}

TEST_F(RefusalLogTest, KernelTrapInHostPlogAndDeviceLog) {
  const std::vector<uint8_t> image = ReadFile(KernelPath("k2201"));
  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle trap = nullptr;
  ACL_OK(aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin));
  ACL_OK(aclrtBinaryGetFunction(bin, "trap_on_block", &trap));
  uint64_t args[1] = {2};  // block 2 traps
  ACL_OK(aclrtLaunchKernel(trap, 4, args, sizeof(args), nullptr));
  const aclError got = aclrtSynchronizeStream(nullptr);
  ASSERT_NE(got, ACL_SUCCESS);
  const std::string message = TakeErrMsg();
  EXPECT_NE(message.find("UB capacity exceeded"), std::string::npos) << message;
  ExpectLogged(message, got);
  ACL_OK(aclrtBinaryUnLoad(bin));
  if (std::getenv("ASCEND_TWIN_DEVICE_ISOLATION") == nullptr) {
    // The device's log relay (device/log_relay.h) writes on its own time: waited for.
    bool in_device_log = false;
    for (int i = 0; i < 500 && !in_device_log; ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      for (const std::string &line :
           LogLinesOf(root_ + "/debug/device-0", "device-" + std::to_string(getpid()) + "_")) {
        if (line.find("UB capacity exceeded") != std::string::npos && line.rfind("[ERROR] RUNTIME(", 0) == 0) {
          in_device_log = true;
        }
      }
    }
    EXPECT_TRUE(in_device_log) << "no device log line under " << root_ << "/debug/device-0";
  }
}

}  // namespace
}  // namespace asc_twin::rt::testing
