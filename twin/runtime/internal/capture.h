// ACL graph capture (aclmdlRICaptureBegin ... aclmdlRICaptureEnd): while a stream is captured,
// the tasks queued on it — launches, async copies, event records and waits — are recorded in
// issue order instead of run, together with those of every stream that joined the capture by
// waiting on an event recorded in it. aclmdlRIExecuteAsync replays the recording as one task
// on the stream it is given. Tasks of different streams replay in the order they were issued,
// which honours every dependency the streams and events expressed (each was issued after what
// it depends on), with no concurrency between the captured streams.
#ifndef TWIN_RUNTIME_INTERNAL_CAPTURE_H_
#define TWIN_RUNTIME_INTERNAL_CAPTURE_H_

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/stream.h"

namespace asc_twin::rt {

struct CapturedTask {
  Stream::Task task;
  std::string kind;    // KERNEL, MEMCPY_ASYNC, EVENT_RECORD, EVENT_WAIT, ...
  const void *stream;  // the stream it was issued on (for the JSON dump)
};

class Capture {
 public:
  Capture(Stream *origin, int mode) : origin_(origin), mode_(mode) {}
  void Record(Stream::Task task, const char *kind, const Stream *stream);
  // Invalidates the capture (an unsafe call was made while it ran): aclmdlRICaptureEnd fails.
  void Invalidate(const std::string &reason);
  // A stream that joined through an event wait; aclmdlRICaptureEnd detaches it.
  void Join(const std::shared_ptr<Stream> &stream);
  Stream *origin() const { return origin_; }
  int mode() const { return mode_; }
  bool invalidated();
  // Detaches every joined stream and returns the recording (or the invalidation reason).
  StatusOr<std::vector<CapturedTask>> Finish();

 private:
  Stream *const origin_;
  const int mode_;
  std::mutex mutex_;
  std::vector<CapturedTask> tasks_;
  std::vector<std::weak_ptr<Stream>> joined_;
  std::string invalid_reason_;
};

// What aclmdlRICaptureEnd returns (aclmdlRI): the recorded tasks, replayable any number of times.
class ModelRI {
 public:
  explicit ModelRI(std::vector<CapturedTask> tasks) : tasks_(std::move(tasks)) {}
  const std::vector<CapturedTask> &tasks() const { return tasks_; }
  // Runs every task in order; the first failure is returned (later tasks still run, as on a stream).
  Status Replay() const;
  // The JSON aclmdlRIDebugJsonPrint writes.
  std::string Json() const;

 private:
  std::vector<CapturedTask> tasks_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_CAPTURE_H_
