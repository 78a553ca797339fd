#include "twin/runtime/internal/stream.h"

#include "twin/runtime/internal/capture.h"
#include "twin/runtime/internal/device_process.h"

#include <chrono>
#include <thread>

namespace asc_twin::rt {
namespace {
constexpr auto kSyncSpin = std::chrono::microseconds(100);
// A deferrable launch (stream.h) synchronized within this long after it was queued counts as
// "launch, then synchronize": the stream's next one defers its drain to the synchronizer. A longer gap means
// the host worked meanwhile and wants the kernel to overlap with that work.
constexpr auto kSyncFollowsWindow = std::chrono::microseconds(20);

// The stream whose drain this thread deferred. `pending` is the cheap check every ACL call
// makes; the holder posts the drain if the thread ends with it still deferred.
thread_local bool t_deferred_pending = false;
struct DeferredDrainHolder {
  std::weak_ptr<Stream> stream;
  ~DeferredDrainHolder() {
    if (auto held = stream.lock()) held->FlushDeferredDrain();
  }
};
thread_local DeferredDrainHolder t_deferred;
}  // namespace

void Stream::FlushDeferredDrainOfThisThread() {
  if (!t_deferred_pending) return;
  t_deferred_pending = false;
  std::shared_ptr<Stream> stream = t_deferred.stream.lock();
  t_deferred.stream.reset();
  if (stream != nullptr) stream->FlushDeferredDrain();
}

void Stream::FlushDeferredDrain() {
  bool post = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!drain_deferred_) return;
    drain_deferred_ = false;
    defer_launches_ = false;  // the host went on with other calls: it wants asynchrony here
    if (!draining_ && !drain_posted_ && !tasks_.empty()) {
      drain_posted_ = true;
      post = true;
    }
  }
  if (post) PostDrain();
}

void Stream::PostDrain() {
  std::weak_ptr<Stream> weak = weak_from_this();
  pool_->Post([weak] {
    if (auto stream = weak.lock()) stream->DrainFromPool();
  });
}

void Stream::Enqueue(Task task, const char *kind) {
  FlushDeferredDrainOfThisThread();  // a deferred launch (any stream) must not wait on this one
  EnqueueTask(std::move(task), false, kind);
}

std::shared_ptr<Capture> Stream::capture() {
  std::lock_guard<std::mutex> lock(mutex_);
  return capture_;
}

void Stream::SetCapture(std::shared_ptr<Capture> capture) {
  std::lock_guard<std::mutex> lock(mutex_);
  capture_ = std::move(capture);
}

bool Stream::RunOneTask() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (draining_ || tasks_.empty()) return false;
  draining_ = true;
  Task task = std::move(tasks_.front());
  tasks_.pop_front();
  lock.unlock();
  Status status;
  {
    ScopedLaunchPublisher publishing(&publisher_);
    status = task();
  }
  task = nullptr;
  lock.lock();
  if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
  draining_ = false;
  if (tasks_.empty()) busy_.store(false, std::memory_order_release);
  // A drain posted while this thread ran the task found the stream busy and returned.
  const bool post = !tasks_.empty() && !drain_posted_;
  if (post) drain_posted_ = true;
  if (waiters_ > 0) idle_.notify_all();
  lock.unlock();
  if (post) PostDrain();
  return true;
}

void Stream::EnqueueTask(Task task, bool deferrable_launch, const char *kind) {
  bool post = false;
  bool deferred = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (capture_ != nullptr) {  // recorded, not run: aclmdlRIExecuteAsync replays it
      capture_->Record(std::move(task), kind, this);
      return;
    }
    const bool idle = tasks_.empty() && !draining_ && !drain_posted_;
    tasks_.push_back(std::move(task));
    busy_.store(true, std::memory_order_release);
    if (deferrable_launch) last_deferrable_enqueue_ = std::chrono::steady_clock::now();
    if (drain_deferred_) {  // a second task before a synchronize: this stream is used asynchronously
      drain_deferred_ = false;
      defer_launches_ = false;
    } else if (deferrable_launch && defer_launches_ && idle) {
      drain_deferred_ = true;
      deferred = true;
    }
    if (!deferred && !draining_ && !drain_posted_) {
      drain_posted_ = true;
      post = true;
    }
  }
  if (post) PostDrain();
  if (deferred) {
    t_deferred.stream = weak_from_this();
    t_deferred_pending = true;
  }
}

void Stream::EnqueueLaunch(LaunchRequest request) {
  FlushDeferredDrainOfThisThread();
  // In-process, only a one-block launch is cheaper inline than on a woken worker; a launch bound
  // for a device process runs there whichever host thread submits it, so every one may wait
  // for the synchronizer (a host worker's wake-up would only add to its latency).
  const DeviceProcess *device = request.kernel->device;
  const bool deferrable = request.blocks == 1 || (device != nullptr && !device->in_process());
  auto shared = std::make_shared<LaunchRequest>(std::move(request));
  WorkerPool *pool = pool_;
  // Published to this stream's synchronizers through the ScopedLaunchPublisher of DrainLocked.
  EnqueueTask([shared, pool] { return RunLaunch(*shared, *pool); }, deferrable, "KERNEL");
}

void Stream::PublishLaunch(const std::shared_ptr<LaunchState> &launch) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    running_launch_ = launch;
    if (launch != nullptr) {
      launches_published_.fetch_add(1, std::memory_order_release);
      wake = waiters_ > 0;
    }
  }
  if (wake) idle_.notify_all();  // sleeping synchronizers come and help
}

void Stream::DrainFromPool() {
  std::unique_lock<std::mutex> lock(mutex_);
  drain_posted_ = false;
  if (!draining_) DrainLocked(lock);
}

void Stream::DrainLocked(std::unique_lock<std::mutex> &lock) {
  draining_ = true;
  while (!tasks_.empty()) {
    Task task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    Status status;
    {
      ScopedLaunchPublisher publishing(&publisher_);  // launches inside the task get helpers
      status = task();
    }
    task = nullptr;  // release what the task holds (e.g. a binary) before re-locking
    lock.lock();
    if (!status.ok() && first_error_.ok()) first_error_ = std::move(status);
  }
  draining_ = false;
  busy_.store(false, std::memory_order_release);
  if (waiters_ > 0) idle_.notify_all();
}

Status Stream::Synchronize() {
  std::unique_lock<std::mutex> lock(mutex_);
  drain_deferred_ = false;  // the deferred launch, if any, runs on this thread below
  if (last_deferrable_enqueue_ != std::chrono::steady_clock::time_point{}) {
    // Learn whether the next one-block launch should wait for a synchronizer (see stream.h).
    defer_launches_ = std::chrono::steady_clock::now() - last_deferrable_enqueue_ <= kSyncFollowsWindow;
    last_deferrable_enqueue_ = std::chrono::steady_clock::time_point{};
  }
  for (;;) {
    if (tasks_.empty() && !draining_) break;
    if (!draining_) {
      DrainLocked(lock);  // nobody is on it yet: run the tasks on this thread
      continue;
    }
    // A worker is draining: help with the launch in flight, then poll briefly (cheap for short
    // tasks) until the queue is idle or another launch starts, then sleep.
    std::shared_ptr<LaunchState> launch = running_launch_;
    const uint64_t seen = launches_published_.load(std::memory_order_acquire);
    lock.unlock();
    if (launch != nullptr) HelpLaunch(*launch);
    launch.reset();
    const auto deadline = std::chrono::steady_clock::now() + kSyncSpin;
    int polls = 0;
    bool spun_out = false;
    while (busy_.load(std::memory_order_acquire) && launches_published_.load(std::memory_order_acquire) == seen) {
      if (++polls % 64 == 0) {
        if (std::chrono::steady_clock::now() >= deadline) {
          spun_out = true;
          break;
        }
        std::this_thread::yield();
      }
    }
    lock.lock();
    if (!spun_out) continue;
    ++waiters_;
    idle_.wait(lock, [&] { return !draining_ || launches_published_.load(std::memory_order_relaxed) != seen; });
    --waiters_;
  }
  Status status = std::move(first_error_);
  first_error_ = Status::Ok();
  return status;
}

Status Stream::SynchronizeFor(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool post = false;
  std::unique_lock<std::mutex> lock(mutex_);
  drain_deferred_ = false;
  if (!tasks_.empty() && !draining_ && !drain_posted_) {
    drain_posted_ = true;  // a pool worker runs the tasks, so this thread can stop waiting
    post = true;
  }
  if (post) {
    lock.unlock();
    PostDrain();
    lock.lock();
  }
  ++waiters_;
  const bool idle = idle_.wait_until(lock, deadline, [&] { return tasks_.empty() && !draining_ && !drain_posted_; });
  --waiters_;
  if (!idle) {
    return Status(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                  "aclrtSynchronizeStreamWithTimeout: the stream's tasks did not "
                  "finish within " +
                      std::to_string(timeout.count()) + " ms");
  }
  Status status = std::move(first_error_);
  first_error_ = Status::Ok();
  return status;
}

}  // namespace asc_twin::rt
