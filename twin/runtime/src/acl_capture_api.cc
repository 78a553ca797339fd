// ACL graph entry points (aclmdlRI*): capture on a stream, replay, dump, destroy. See capture.h.
#include <cstdio>
#include <fstream>
#include <memory>
#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/runtime/internal/capture.h"
#include "twin/runtime/src/api_common.h"
#include "twin/runtime/src/live_handles.h"

using namespace asc_twin::rt;

namespace {

LiveHandles<const ModelRI> g_model_ris("modelRI", "aclmdlRI", ACL_ERROR_INVALID_PARAM);
thread_local int t_capture_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

StatusOr<std::shared_ptr<const ModelRI>> FindModelRI(const char *api, aclmdlRI modelRI) {
  return g_model_ris.Find(api, modelRI);
}

Status CheckMode(const char *api, int mode) {
  if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || mode == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL ||
      mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
    return Status();
  }
  return Status(ACL_ERROR_INVALID_PARAM,
                std::string(api) + ": mode " + std::to_string(mode) + " is not an aclmdlRICaptureMode");
}

}  // namespace

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
  constexpr const char *api = "aclmdlRICaptureBegin";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  const int raw_mode = RawEnum(mode);
  const Status valid = CheckMode(api, raw_mode);
  if (!valid.ok()) return Report(valid);
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed(api, found.status()));
  if (stream == nullptr) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": the default stream cannot be captured; "
                                                                     "create a stream with aclrtCreateStream"));
  }
  if (found.value()->capture() != nullptr) {
    return Report(Status(ACL_ERROR_RT_STREAM_MODEL, std::string(api) + ": the stream is already being captured"));
  }
  // Tasks queued before the capture run as usual; only later ones are recorded.
  found.value()->SetCapture(std::make_shared<Capture>(found.value().get(), raw_mode));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI) {
  constexpr const char *api = "aclmdlRICaptureGetInfo";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, status);
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed(api, found.status()));
  std::shared_ptr<Capture> capture = found.value()->capture();
  *status = capture == nullptr       ? ACL_MODEL_RI_CAPTURE_STATUS_NONE
            : capture->invalidated() ? ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
                                     : ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  if (modelRI != nullptr) *modelRI = nullptr;  // the aclmdlRI exists once the capture ends
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI) {
  constexpr const char *api = "aclmdlRICaptureEnd";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, modelRI);
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed(api, found.status()));
  std::shared_ptr<Capture> capture = found.value()->capture();
  if (capture == nullptr) {
    return Report(Status(ACL_ERROR_RT_STREAM_MODEL, std::string(api) + ": the stream is not being captured"));
  }
  if (capture->origin() != found.value().get()) {
    return Report(Status(ACL_ERROR_RT_STREAM_MODEL, std::string(api) +
                                                        ": the stream joined the capture through an "
                                                        "event wait; end it on the stream that began it"));
  }
  found.value()->SetCapture(nullptr);
  StatusOr<std::vector<CapturedTask>> tasks = capture->Finish();
  if (!tasks.ok()) return Report(Prefixed(api, tasks.status()));
  *modelRI = g_model_ris.Add(std::make_shared<const ModelRI>(std::move(tasks.value())));
  return ACL_SUCCESS;
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode) {
  constexpr const char *api = "aclmdlRICaptureThreadExchangeMode";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, mode);
  const int wanted = RawEnum(*mode);
  const Status valid = CheckMode(api, wanted);
  if (!valid.ok()) return Report(valid);
  *mode = static_cast<aclmdlRICaptureMode>(t_capture_mode);
  t_capture_mode = wanted;
  return ACL_SUCCESS;
}

aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
  constexpr const char *api = "aclmdlRIExecuteAsync";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<const ModelRI>> ri = FindModelRI(api, modelRI);
  if (!ri.ok()) return Report(ri.status());
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed(api, found.status()));
  std::shared_ptr<const ModelRI> held = ri.value();  // a destroy after this call waits for the run
  found.value()->Enqueue([held] { return held->Replay(); }, "MODEL_RI");
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugPrint(aclmdlRI modelRI) {
  constexpr const char *api = "aclmdlRIDebugPrint";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<const ModelRI>> ri = FindModelRI(api, modelRI);
  if (!ri.ok()) return Report(ri.status());
  std::fputs(ri.value()->Json().c_str(), stdout);
  return ACL_SUCCESS;
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char *path, uint32_t flags) {
  constexpr const char *api = "aclmdlRIDebugJsonPrint";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, path);
  if (flags != 0) {
    return Report(Status(ACL_ERROR_INVALID_PARAM,
                         std::string(api) + ": flags is " + std::to_string(flags) + "; only 0 is supported"));
  }
  StatusOr<std::shared_ptr<const ModelRI>> ri = FindModelRI(api, modelRI);
  if (!ri.ok()) return Report(ri.status());
  // Written beside the target and renamed over it: a failed write leaves no half file.
  const std::string temp = std::string(path) + ".tmp." + std::to_string(getpid());
  const std::string json = ri.value()->Json();
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << json;
    if (!out.flush()) {
      std::remove(temp.c_str());
      return Report(Status(ACL_ERROR_INVALID_FILE, std::string(api) + ": cannot write '" + path + "'"));
    }
  }
  if (std::rename(temp.c_str(), path) != 0) {
    std::remove(temp.c_str());
    return Report(Status(ACL_ERROR_INVALID_FILE, std::string(api) + ": cannot write '" + path + "'"));
  }
  return ACL_SUCCESS;
}

aclError aclmdlRIDestroy(aclmdlRI modelRI) {
  constexpr const char *api = "aclmdlRIDestroy";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<const ModelRI>> ri = FindModelRI(api, modelRI);
  if (!ri.ok()) return Report(ri.status());
  g_model_ris.Erase(modelRI);
  return ACL_SUCCESS;
}

}  // extern "C"
