// Devices, contexts and streams.
#include <algorithm>
#include <atomic>
#include <chrono>

#include "acl/acl.h"
#include "twin/runtime/internal/capture.h"
#include "twin/runtime/src/api_common.h"

using namespace asc_twin::rt;

namespace {
// CANN's maximum AI Core operator timeout on A2 parts; larger requests are clamped to it.
constexpr uint32_t kMaxOpExecuteTimeoutSeconds = 1091;
std::atomic<uint32_t> g_op_wait_timeout_seconds{0};
void SetOpWaitTimeoutSeconds(uint32_t seconds) { g_op_wait_timeout_seconds.store(seconds); }
}  // namespace

extern "C" {

aclError aclrtSetDevice(int32_t deviceId) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtSetDevice");
  return Report(runtime->SetDevice(deviceId));
}

aclError aclrtResetDevice(int32_t deviceId) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtResetDevice");
  return Report(runtime->ResetDevice(deviceId));
}

aclError aclrtGetDevice(int32_t *deviceId) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtGetDevice");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtGetDevice", deviceId);
  StatusOr<std::shared_ptr<Context>> current = runtime->CurrentContext();
  if (!current.ok()) return Report(Prefixed("aclrtGetDevice", current.status()));
  *deviceId = current.value()->device().id();
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtGetDeviceCount");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtGetDeviceCount", count);
  *count = kDeviceCount;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtGetRunMode");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtGetRunMode", runMode);
  *runMode = ACL_HOST;  // the application runs on the host, as with a PCIe card
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC("aclrtSynchronizeDevice");
  return Report(Prefixed("aclrtSynchronizeDevice", runtime->SynchronizeDevice()));
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtCreateContext");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtCreateContext", context);
  StatusOr<std::shared_ptr<Context>> created = runtime->CreateContext(deviceId);
  if (!created.ok()) return Report(Prefixed("aclrtCreateContext", created.status()));
  *context = created.value().get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtDestroyContext");
  return Report(runtime->DestroyContext(context));
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtSetCurrentContext");
  return Report(runtime->SetCurrentContext(context));
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtGetCurrentContext");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtGetCurrentContext", context);
  StatusOr<std::shared_ptr<Context>> current = runtime->CurrentContext();
  if (!current.ok()) return Report(Prefixed("aclrtGetCurrentContext", current.status()));
  *context = current.value().get();
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *stream) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtCreateStream");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtCreateStream", stream);
  StatusOr<std::shared_ptr<Stream>> created = runtime->CreateStream();
  if (!created.ok()) return Report(Prefixed("aclrtCreateStream", created.status()));
  *stream = created.value().get();
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtDestroyStream");
  return Report(runtime->DestroyStream(stream));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC("aclrtSynchronizeStream");
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed("aclrtSynchronizeStream", found.status()));
  if (std::shared_ptr<Capture> capture = found.value()->capture()) {
    // Nothing runs while capturing, so a wait means the program expects results it cannot get.
    capture->Invalidate("aclrtSynchronizeStream was called on a capturing stream");
    return Report(Status(ACL_ERROR_RT_STREAM_MODEL,
                         "aclrtSynchronizeStream: the stream is being captured "
                         "(aclmdlRICaptureBegin); the capture is now invalidated"));
  }
  // A failed launch is reported as is: its message is the one line naming kernel and block.
  return Report(found.value()->Synchronize());
}

// Twin-internal, for libascendc_runtime.so: a `<<<>>>` launch that could not start (its binary
// refused, say) has no status of its own to return, so it is recorded on its stream, in order,
// and the stream's next synchronize returns it, as a failed launch through ACL would be.
aclError __asc_twin_stream_report_failure(aclrtStream stream, aclError code, const char *message) {
  ACL_TWIN_REQUIRE_RUNTIME("__asc_twin_stream_report_failure");
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(found.status());
  Status failure(code == ACL_SUCCESS ? ACL_ERROR_INVALID_PARAM : code, message ? message : "launch failed");
  found.value()->Enqueue([failure] { return failure; });
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC("aclrtSynchronizeStreamWithTimeout");
  if (timeout < -1 || timeout == 0) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStreamWithTimeout: timeout " +
                                                      std::to_string(timeout) +
                                                      " must be -1 (wait forever) or > 0 ms"));
  }
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed("aclrtSynchronizeStreamWithTimeout", found.status()));
  if (timeout == -1) return Report(found.value()->Synchronize());
  return Report(found.value()->SynchronizeFor(std::chrono::milliseconds(timeout)));
}

aclError aclrtSetOpWaitTimeout(uint32_t timeout) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtSetOpWaitTimeout");
  // The twin has no event waits yet (aclrtStreamWaitEvent); the value is kept for them.
  SetOpWaitTimeoutSeconds(timeout);
  return ACL_SUCCESS;
}

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtSetOpExecuteTimeOut");
  DeviceProcess::SetExecuteTimeoutMs(uint64_t{std::min<uint32_t>(timeout, kMaxOpExecuteTimeoutSeconds)} * 1000);
  return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t *const timeoutMs) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtGetOpExecuteTimeout");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtGetOpExecuteTimeout", timeoutMs);
  *timeoutMs = static_cast<uint32_t>(std::min<uint64_t>(DeviceProcess::ExecuteTimeoutMs(), UINT32_MAX));
  return ACL_SUCCESS;
}

}  // extern "C"
