// The live handles of one kind of ACL object (aclrtEvent, aclmdlRI): every handle a caller passes
// is looked up here, so a null, destroyed or forged one is an error naming the call, never a crash.
#ifndef TWIN_RUNTIME_SRC_LIVE_HANDLES_H_
#define TWIN_RUNTIME_SRC_LIVE_HANDLES_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "twin/runtime/src/api_common.h"

namespace asc_twin::rt {

template <typename T>
class LiveHandles {
 public:
  // argument: the parameter's name in the API ("event"); type: the ACL type ("aclrtEvent");
  // not_live: the error code of a handle that is not in the table.
  LiveHandles(const char *argument, const char *type, aclError not_live)
      : argument_(argument), type_(type), not_live_(not_live) {}

  // Registers the object; its address is the handle.
  void *Add(std::shared_ptr<T> object) {
    void *handle = const_cast<void *>(static_cast<const void *>(object.get()));
    std::lock_guard<std::mutex> lock(mutex_);
    live_[handle] = std::move(object);
    return handle;
  }

  StatusOr<std::shared_ptr<T>> Find(const char *api, void *handle) const {
    if (handle == nullptr) return NullArgument(api, argument_);
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(handle);
    if (it == live_.end()) {
      return Status(not_live_, std::string(api) + ": " + argument_ + " is not a live " + type_);
    }
    return it->second;
  }

  void Erase(void *handle) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_.erase(handle);
  }

 private:
  const char *argument_;
  const char *type_;
  aclError not_live_;
  mutable std::mutex mutex_;
  std::map<void *, std::shared_ptr<T>> live_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_SRC_LIVE_HANDLES_H_
