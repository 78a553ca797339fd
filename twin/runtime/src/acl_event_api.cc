// aclrtEvent entry points: live events by handle (a stale handle is an error, never a crash).
#include <memory>

#include "acl/acl.h"
#include "twin/runtime/internal/event.h"
#include "twin/runtime/src/api_common.h"
#include "twin/runtime/src/live_handles.h"

using namespace asc_twin::rt;

namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE;

LiveHandles<Event> g_events("event", "aclrtEvent", ACL_ERROR_RT_INVALID_HANDLE);

StatusOr<std::shared_ptr<Event>> FindEvent(const char *api, aclrtEvent event) { return g_events.Find(api, event); }

aclError Create(const char *api, aclrtEvent *event, uint32_t flag) {
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, event);
  if ((flag & ~kKnownEventFlags) != 0) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": flag " + std::to_string(flag) +
                                                      " has bits other than ACL_EVENT_SYNC, "
                                                      "ACL_EVENT_CAPTURE_STREAM_PROGRESS and ACL_EVENT_TIME_LINE"));
  }
  *event = g_events.Add(std::make_shared<Event>(flag));
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent *event) { return Create("aclrtCreateEvent", event, ACL_EVENT_SYNC); }

aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  return Create("aclrtCreateEventWithFlag", event, flag);
}

aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  return Create("aclrtCreateEventExWithFlag", event, flag);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  constexpr const char *api = "aclrtDestroyEvent";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<Event>> found = FindEvent(api, event);
  if (!found.ok()) return Report(found.status());
  g_events.Erase(event);  // queued records and waits hold the event weakly: they become no-ops
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  constexpr const char *api = "aclrtRecordEvent";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<Event>> found = FindEvent(api, event);
  if (!found.ok()) return Report(found.status());
  StatusOr<std::shared_ptr<Stream>> queue = runtime->FindStream(stream);
  if (!queue.ok()) return Report(Prefixed(api, queue.status()));
  found.value()->Record(queue.value());
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  constexpr const char *api = "aclrtStreamWaitEvent";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  StatusOr<std::shared_ptr<Event>> found = FindEvent(api, event);
  if (!found.ok()) return Report(found.status());
  StatusOr<std::shared_ptr<Stream>> queue = runtime->FindStream(stream);
  if (!queue.ok()) return Report(Prefixed(api, queue.status()));
  return Report(Prefixed(api, found.value()->QueueWait(queue.value())));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  constexpr const char *api = "aclrtSynchronizeEvent";
  ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC(api);
  StatusOr<std::shared_ptr<Event>> found = FindEvent(api, event);
  if (!found.ok()) return Report(found.status());
  found.value()->Synchronize();
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  constexpr const char *api = "aclrtQueryEventStatus";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, status);
  StatusOr<std::shared_ptr<Event>> found = FindEvent(api, event);
  if (!found.ok()) return Report(found.status());
  *status = found.value()->Complete() ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return ACL_SUCCESS;
}

}  // extern "C"
