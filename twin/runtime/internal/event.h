// An ACL event (aclrtEvent): aclrtRecordEvent queues a task that completes the record when the
// stream reaches it; aclrtStreamWaitEvent queues a task that waits for the latest record made
// before the wait was issued (none: no wait). A waiting task runs the recording stream's tasks
// itself when nobody else does, so a wait never waits for a worker it occupies.
#ifndef TWIN_RUNTIME_INTERNAL_EVENT_H_
#define TWIN_RUNTIME_INTERNAL_EVENT_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>

#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/stream.h"

namespace asc_twin::rt {

class Capture;

class Event : public std::enable_shared_from_this<Event> {
 public:
  explicit Event(uint32_t flags) : flags_(flags) {}
  uint32_t flags() const { return flags_; }
  // Queues (or, on a capturing stream, records) the completion of a new record on `stream`.
  void Record(const std::shared_ptr<Stream> &stream);
  // Makes `stream` wait for the latest record; joins it to the capture that record belongs to.
  Status QueueWait(const std::shared_ptr<Stream> &stream);
  // Blocks until the latest record is complete (aclrtSynchronizeEvent).
  void Synchronize();
  // Whether every record made so far is complete (aclrtQueryEventStatus).
  bool Complete();

 private:
  void WaitFor(uint64_t target, const std::weak_ptr<Stream> &recorder);
  void CompleteRecord(uint64_t sequence);

  const uint32_t flags_;
  std::mutex mutex_;
  std::condition_variable completed_cv_;
  uint64_t issued_ = 0;                 // records queued
  uint64_t completed_ = 0;              // the newest record a stream reached
  std::weak_ptr<Stream> recorder_;      // the stream of the latest record
  std::weak_ptr<Capture> captured_in_;  // the capture of the latest record, if it was captured
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_EVENT_H_
