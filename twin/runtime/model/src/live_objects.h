// Registry of live objects handed out by aclCreateDataBuffer / aclmdlCreateDataset /
// aclmdlCreateDesc, so a destroy (or use) of a handle that was never created or is already
// destroyed returns ACL_ERROR_INVALID_PARAM instead of freeing it twice. (An address reused by a
// later create is indistinguishable from the old handle, as with any pointer-typed handle.)
#ifndef TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_
#define TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_

#include <mutex>
#include <unordered_set>

namespace asc_twin::model {

template <typename T>
class LiveObjects {
 public:
  static LiveObjects &Get() {
    static LiveObjects *registry = new LiveObjects();  // never destroyed: usable in atexit code
    return *registry;
  }
  T *Add(T *object) {
    if (object != nullptr) {
      std::lock_guard<std::mutex> lock(mutex_);
      live_.insert(object);
    }
    return object;
  }
  bool Contains(const T *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.count(object) != 0;
  }
  // True (and forgotten) if it was live.
  bool Remove(const T *object) {
    std::lock_guard<std::mutex> lock(mutex_);
    return live_.erase(object) != 0;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<const T *> live_;
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_
