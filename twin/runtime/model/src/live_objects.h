// Registry of live objects handed out by aclCreateDataBuffer / aclmdlCreateDataset /
// aclmdlCreateDesc, so a destroy (or use) of a handle that was never created or is already
// destroyed returns ACL_ERROR_INVALID_PARAM instead of freeing it twice. Destroyed objects are
// freed only after kQuarantine later destroys, so a new object does not get a just-destroyed
// handle's address (which would make a double destroy hit it).
#ifndef TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_
#define TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_

#include <deque>
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
  // True if it was live; then it is no longer live and will be deleted later.
  bool Retire(const T *object) {
    const T *doomed = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (live_.erase(object) == 0) return false;
      quarantine_.push_back(object);
      if (quarantine_.size() > kQuarantine) {
        doomed = quarantine_.front();
        quarantine_.pop_front();
      }
    }
    delete doomed;
    return true;
  }

 private:
  static constexpr size_t kQuarantine = 1024;
  std::mutex mutex_;
  std::unordered_set<const T *> live_;
  std::deque<const T *> quarantine_;
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_LIVE_OBJECTS_H_
