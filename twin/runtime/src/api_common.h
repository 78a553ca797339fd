// Shared prologue of the ACL C entry points: fetch the runtime (initialized on first use).
#ifndef TWIN_RUNTIME_SRC_API_COMMON_H_
#define TWIN_RUNTIME_SRC_API_COMMON_H_

#include <cstring>
#include <string>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/internal/error_log.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/stream.h"

namespace asc_twin::rt {

inline Status NotInitialized(const char *api) {
  return Status(ACL_ERROR_UNINITIALIZE, std::string(api) + ": ACL is not initialized; call aclInit first");
}

// Every call of a fork() child (InForkedChild, memory_table.h).
inline Status ForkedChild(const char *api) {
  return Status(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(api) +
                    ": this process is a fork() child of the process that initialized ACL; ACL "
                    "resources cannot be used across fork() (use them in the parent, or start the "
                    "child with exec or the 'spawn' start method)");
}

inline Status NullArgument(const char *api, const char *name) {
  return Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + name + " is null");
}

// The integer in an enum parameter, read without an enum-typed load: C callers may pass any value.
template <typename Enum>
int RawEnum(const Enum &value) {
  static_assert(sizeof(Enum) == sizeof(int), "ACL enums are int-sized");
  int raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

inline Status Prefixed(const char *api, const Status &status) {
  if (status.ok() || status.message().rfind(api, 0) == 0) return status;
  return Status(status.code(), std::string(api) + ": " + status.message());
}

}  // namespace asc_twin::rt

// Declares `runtime` (std::shared_ptr<Runtime>), initializing ACL on first use as CANN does. For
// the synchronizing calls: a one-block launch this thread deferred stays for them to run inline.
#define ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC(api)                                                          \
  if (::asc_twin::rt::InForkedChild()) return ::asc_twin::rt::Report(::asc_twin::rt::ForkedChild(api)); \
  std::shared_ptr<::asc_twin::rt::Runtime> runtime = ::asc_twin::rt::Runtime::GetOrInit();              \
  if (!runtime) return ::asc_twin::rt::Report(::asc_twin::rt::NotInitialized(api))

// Same for every other call, which first posts the drain of a launch this thread deferred (the
// host moved on without synchronizing: the kernel runs asynchronously, see stream.h).
#define ACL_TWIN_REQUIRE_RUNTIME(api)                       \
  ::asc_twin::rt::Stream::FlushDeferredDrainOfThisThread(); \
  ACL_TWIN_REQUIRE_RUNTIME_FOR_SYNC(api)

#define ACL_TWIN_REQUIRE_NOT_NULL(api, arg) \
  if ((arg) == nullptr) return ::asc_twin::rt::Report(::asc_twin::rt::NullArgument(api, #arg))

#endif  // TWIN_RUNTIME_SRC_API_COMMON_H_
