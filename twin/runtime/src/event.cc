#include "twin/runtime/internal/event.h"

#include "twin/runtime/internal/capture.h"

#include "acl/acl.h"

namespace asc_twin::rt {

void Event::CompleteRecord(uint64_t sequence) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (sequence > completed_) completed_ = sequence;
  }
  completed_cv_.notify_all();
}

void Event::Record(const std::shared_ptr<Stream> &stream) {
  if (std::shared_ptr<Capture> capture = stream->capture()) {
    // Inside a recording the order of replay is the dependency: the record is a marker, and
    // the event's real records (outside captures) are untouched.
    {
      std::lock_guard<std::mutex> lock(mutex_);
      captured_in_ = capture;
    }
    stream->Enqueue([] { return Status::Ok(); }, "EVENT_RECORD");
    return;
  }
  std::weak_ptr<Event> self = weak_from_this();
  uint64_t sequence;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sequence = ++issued_;
    recorder_ = stream;
    captured_in_.reset();
  }
  stream->Enqueue(
      [self, sequence] {
        if (std::shared_ptr<Event> event = self.lock()) event->CompleteRecord(sequence);
        return Status::Ok();
      },
      "EVENT_RECORD");
}

Status Event::QueueWait(const std::shared_ptr<Stream> &stream) {
  uint64_t target;
  std::weak_ptr<Stream> recorder;
  std::shared_ptr<Capture> capture;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    target = issued_;
    recorder = recorder_;
    capture = captured_in_.lock();
  }
  if (capture != nullptr && stream->capture() != capture) {
    if (stream->capture() != nullptr) {
      return Status(ACL_ERROR_RT_STREAM_MODEL, "the stream is captured by another capture than the event's record");
    }
    stream->SetCapture(capture);  // the stream joins the capture (CANN's cross-stream capture)
    capture->Join(stream);
  }
  if (capture != nullptr) {
    stream->Enqueue([] { return Status::Ok(); }, "EVENT_WAIT");
    return Status::Ok();
  }
  if (target == 0) return Status::Ok();  // never recorded: nothing to wait for
  std::weak_ptr<Event> self = weak_from_this();
  stream->Enqueue(
      [self, target, recorder] {
        if (std::shared_ptr<Event> event = self.lock()) event->WaitFor(target, recorder);
        return Status::Ok();
      },
      "EVENT_WAIT");
  return Status::Ok();
}

void Event::WaitFor(uint64_t target, const std::weak_ptr<Stream> &recorder) {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (completed_ >= target) return;
    }
    std::shared_ptr<Stream> stream = recorder.lock();
    if (stream == nullptr) return;  // destroyed: its tasks ran (DestroyStream synchronizes)
    if (stream->RunOneTask()) continue;
    std::unique_lock<std::mutex> lock(mutex_);
    // Someone else drains the recorder; the short timeout re-checks whether it still does.
    completed_cv_.wait_for(lock, std::chrono::milliseconds(1), [&] { return completed_ >= target; });
  }
}

void Event::Synchronize() {
  uint64_t target;
  std::weak_ptr<Stream> recorder;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    target = issued_;
    recorder = recorder_;
  }
  if (target != 0) WaitFor(target, recorder);
}

bool Event::Complete() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ >= issued_;
}

}  // namespace asc_twin::rt
