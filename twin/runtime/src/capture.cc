#include "twin/runtime/internal/capture.h"

#include <cstdio>
#include <map>

#include "acl/acl.h"

namespace asc_twin::rt {

void Capture::Record(Stream::Task task, const char *kind, const Stream *stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  tasks_.push_back({std::move(task), kind, stream});
}

void Capture::Invalidate(const std::string &reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (invalid_reason_.empty()) invalid_reason_ = reason;
}

bool Capture::invalidated() {
  std::lock_guard<std::mutex> lock(mutex_);
  return !invalid_reason_.empty();
}

void Capture::Join(const std::shared_ptr<Stream> &stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  joined_.push_back(stream);  // kept as a weak_ptr
}

StatusOr<std::vector<CapturedTask>> Capture::Finish() {
  std::vector<std::weak_ptr<Stream>> joined;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    joined.swap(joined_);
  }
  for (const std::weak_ptr<Stream> &weak : joined) {
    if (std::shared_ptr<Stream> stream = weak.lock()) stream->SetCapture(nullptr);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!invalid_reason_.empty()) {
    return Status(ACL_ERROR_RT_STREAM_MODEL, "the capture was invalidated: " + invalid_reason_);
  }
  return std::move(tasks_);
}

Status ModelRI::Replay() const {
  Status first;
  for (const CapturedTask &captured : tasks_) {
    Status status = captured.task();
    if (!status.ok() && first.ok()) first = std::move(status);
  }
  return first;
}

std::string ModelRI::Json() const {
  std::map<const void *, int> stream_ids;  // streams numbered in order of first use
  for (const CapturedTask &captured : tasks_) stream_ids.emplace(captured.stream, 0);
  int next = 0;
  for (const CapturedTask &captured : tasks_) {
    int &id = stream_ids[captured.stream];
    if (id == 0) id = ++next;
  }
  std::string json = "{\n  \"streams\": " + std::to_string(next) + ",\n  \"tasks\": [";
  for (size_t i = 0; i < tasks_.size(); ++i) {
    json += i == 0 ? "\n" : ",\n";
    json += "    {\"index\": " + std::to_string(i) + ", \"type\": \"" + tasks_[i].kind +
            "\", \"stream\": " + std::to_string(stream_ids[tasks_[i].stream]) + "}";
  }
  json += tasks_.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return json;
}

}  // namespace asc_twin::rt
