// ACL graph capture and events, in the user's situation of asc-devkit's 04_aclgraph: copies in,
// a launch, a copy out captured once on one stream (and across two streams joined by events),
// replayed several times on new random host data each time, checked element by element; plus
// events outside capture, and the misuse cases.
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "acl/acl.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

class Capture : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    bytes_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(bytes_.data(), bytes_.size(), nullptr, &bin_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "vadd_f32", &vadd_));
    ACL_OK(aclrtCreateStream(&main_));
    ACL_OK(aclrtCreateStream(&compute_));
    for (void **host : {&hx_, &hy_, &hz_}) ACL_OK(aclrtMallocHost(host, kBytes));
    for (void **dev : {&dx_, &dy_, &dz_}) ACL_OK(aclrtMalloc(dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  }
  void TearDown() override {
    for (void *host : {hx_, hy_, hz_}) EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
    for (void *dev : {dx_, dy_, dz_}) EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(compute_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(main_), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }
  void Launch(aclrtStream stream) {
    uint64_t args[4] = {reinterpret_cast<uint64_t>(dx_), reinterpret_cast<uint64_t>(dy_),
                        reinterpret_cast<uint64_t>(dz_), kCount};
    ACL_OK(aclrtLaunchKernel(vadd_, 8, args, sizeof(args), stream));
  }
  // New random inputs in the host buffers, the output poisoned (NaN pattern).
  void FillHost() {
    std::uniform_real_distribution<float> dist(-1000.0f, 1000.0f);
    for (uint64_t i = 0; i < kCount; ++i) {
      static_cast<float *>(hx_)[i] = dist(Rng());
      static_cast<float *>(hy_)[i] = dist(Rng());
    }
    std::memset(hz_, 0xff, kBytes);
  }
  void CheckHostSum(int run) {
    const float *x = static_cast<float *>(hx_), *y = static_cast<float *>(hy_), *z = static_cast<float *>(hz_);
    for (uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << "element " << i << ", run " << run;
  }

  static constexpr uint64_t kCount = 8 * 2048;
  static constexpr size_t kBytes = kCount * sizeof(float);
  std::vector<uint8_t> bytes_;
  aclrtBinHandle bin_ = nullptr;
  aclrtFuncHandle vadd_ = nullptr;
  aclrtStream main_ = nullptr, compute_ = nullptr;
  void *hx_ = nullptr, *hy_ = nullptr, *hz_ = nullptr, *dx_ = nullptr, *dy_ = nullptr, *dz_ = nullptr;
};

TEST_F(Capture, SingleStreamTasksAreRecordedNotRunThenReplayedEachTime) {
  FillHost();
  ACL_OK(aclmdlRICaptureBegin(main_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  aclmdlRI ri = nullptr;
  ACL_OK(aclmdlRICaptureGetInfo(main_, &status, &ri));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  ACL_OK(aclrtMemcpyAsync(dx_, kBytes, hx_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_));
  ACL_OK(aclrtMemcpyAsync(dy_, kBytes, hy_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_));
  ASSERT_NO_FATAL_FAILURE(Launch(main_));
  ACL_OK(aclrtMemcpyAsync(hz_, kBytes, dz_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, main_));
  ACL_OK(aclmdlRICaptureEnd(main_, &ri));
  ASSERT_NE(ri, nullptr);
  ACL_OK(aclmdlRICaptureGetInfo(main_, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  // Nothing ran during the capture: the output is still the poison.
  uint32_t untouched;
  std::memcpy(&untouched, hz_, sizeof(untouched));
  EXPECT_EQ(untouched, 0xffffffffu);
  for (int run = 0; run < 4; ++run) {
    FillHost();  // each replay copies what the host buffers hold then
    ACL_OK(aclmdlRIExecuteAsync(ri, main_));
    ACL_OK(aclrtSynchronizeStream(main_));
    ASSERT_NO_FATAL_FAILURE(CheckHostSum(run));
  }
  const std::string json_path = ::testing::TempDir() + "/ri_single.json";
  ACL_OK(aclmdlRIDebugJsonPrint(ri, json_path.c_str(), 0));
  std::stringstream json;
  json << std::ifstream(json_path).rdbuf();
  EXPECT_NE(json.str().find("\"type\": \"KERNEL\""), std::string::npos) << json.str();
  EXPECT_EQ(aclmdlRIDebugJsonPrint(ri, json_path.c_str(), 1), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_EQ(aclmdlRIExecuteAsync(ri, main_), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(TakeErrMsg().find("not a live aclmdlRI"), std::string::npos);
}

TEST_F(Capture, SecondStreamJoinsThroughEventsAndReplaysInDependencyOrder) {
  aclrtEvent x_ready = nullptr, done = nullptr;
  ACL_OK(aclrtCreateEventExWithFlag(&x_ready, ACL_EVENT_SYNC));
  ACL_OK(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC));
  ACL_OK(aclmdlRICaptureBegin(main_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ACL_OK(aclrtMemcpyAsync(dx_, kBytes, hx_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_));
  ACL_OK(aclrtRecordEvent(x_ready, main_));
  ACL_OK(aclrtStreamWaitEvent(compute_, x_ready));
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ACL_OK(aclmdlRICaptureGetInfo(compute_, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);  // joined
  ACL_OK(aclrtMemcpyAsync(dy_, kBytes, hy_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, compute_));
  ASSERT_NO_FATAL_FAILURE(Launch(compute_));
  ACL_OK(aclrtRecordEvent(done, compute_));
  ACL_OK(aclrtStreamWaitEvent(main_, done));
  ACL_OK(aclrtMemcpyAsync(hz_, kBytes, dz_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, main_));
  aclmdlRI ri = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(compute_, &ri), ACL_ERROR_RT_STREAM_MODEL);  // not the stream that began
  ACL_OK(aclmdlRICaptureEnd(main_, &ri));
  ACL_OK(aclmdlRICaptureGetInfo(compute_, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);  // detached by the end
  for (int run = 0; run < 3; ++run) {
    FillHost();
    ACL_OK(aclmdlRIExecuteAsync(ri, main_));
    ACL_OK(aclrtSynchronizeStream(main_));
    ASSERT_NO_FATAL_FAILURE(CheckHostSum(run));
  }
  // The second stream runs normally again after the capture.
  FillHost();
  ACL_OK(aclrtMemcpyAsync(dx_, kBytes, hx_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, compute_));
  ACL_OK(aclrtMemcpyAsync(dy_, kBytes, hy_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, compute_));
  ASSERT_NO_FATAL_FAILURE(Launch(compute_));
  ACL_OK(aclrtMemcpyAsync(hz_, kBytes, dz_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, compute_));
  ACL_OK(aclrtSynchronizeStream(compute_));
  ASSERT_NO_FATAL_FAILURE(CheckHostSum(-1));
  ACL_OK(aclmdlRIDestroy(ri));
  ACL_OK(aclrtDestroyEvent(x_ready));
  ACL_OK(aclrtDestroyEvent(done));
}

TEST_F(Capture, EventWaitOrdersTwoLiveStreams) {
  // Outside capture: compute_ waits for main_'s copies before it launches; main_ waits for the
  // launch before copying out. Synchronizing only main_ must see the whole chain done.
  aclrtEvent inputs = nullptr, summed = nullptr;
  ACL_OK(aclrtCreateEvent(&inputs));
  ACL_OK(aclrtCreateEvent(&summed));
  for (int run = 0; run < 3; ++run) {
    FillHost();
    ACL_OK(aclrtMemcpyAsync(dx_, kBytes, hx_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_));
    ACL_OK(aclrtMemcpyAsync(dy_, kBytes, hy_, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_));
    ACL_OK(aclrtRecordEvent(inputs, main_));
    ACL_OK(aclrtStreamWaitEvent(compute_, inputs));
    ASSERT_NO_FATAL_FAILURE(Launch(compute_));
    ACL_OK(aclrtRecordEvent(summed, compute_));
    ACL_OK(aclrtStreamWaitEvent(main_, summed));
    ACL_OK(aclrtMemcpyAsync(hz_, kBytes, dz_, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, main_));
    ACL_OK(aclrtSynchronizeStream(main_));
    ASSERT_NO_FATAL_FAILURE(CheckHostSum(run));
    ACL_OK(aclrtSynchronizeEvent(summed));
    aclrtEventRecordedStatus recorded = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    ACL_OK(aclrtQueryEventStatus(summed, &recorded));
    EXPECT_EQ(recorded, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  }
  ACL_OK(aclrtDestroyEvent(inputs));
  ACL_OK(aclrtDestroyEvent(summed));
}

TEST_F(Capture, MisuseIsOneClearError) {
  aclmdlRI ri = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(main_, &ri), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_NE(TakeErrMsg().find("aclmdlRICaptureEnd: the stream is not being captured"), std::string::npos);
  EXPECT_EQ(aclmdlRICaptureBegin(main_, static_cast<aclmdlRICaptureMode>(7)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclmdlRICaptureBegin(main_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_EQ(aclmdlRICaptureBegin(main_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_MODEL);
  // Waiting for a capturing stream cannot work: the call fails and invalidates the capture.
  EXPECT_EQ(aclrtSynchronizeStream(main_), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_NE(TakeErrMsg().find("the stream is being captured"), std::string::npos);
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ACL_OK(aclmdlRICaptureGetInfo(main_, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  EXPECT_EQ(aclmdlRICaptureEnd(main_, &ri), ACL_ERROR_RT_STREAM_MODEL);
  EXPECT_NE(TakeErrMsg().find("invalidated"), std::string::npos);
  ACL_OK(aclrtSynchronizeStream(main_));  // the capture is over: the stream works again
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  aclrtEvent event = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, 0x100u), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclrtCreateEvent(&event));
  ACL_OK(aclrtStreamWaitEvent(main_, event));  // never recorded: no wait
  ACL_OK(aclrtSynchronizeStream(main_));
  ACL_OK(aclrtDestroyEvent(event));
  EXPECT_EQ(aclrtRecordEvent(event, main_), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_NE(TakeErrMsg().find("not a live aclrtEvent"), std::string::npos);
}

}  // namespace
}  // namespace asc_twin::rt::testing
