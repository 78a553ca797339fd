#include "twin/runtime/internal/stream.h"

#include <chrono>
#include <thread>

namespace asc_twin::rt {
namespace {
constexpr auto kSyncSpin = std::chrono::microseconds(100);
}  // namespace

void Stream::Enqueue(Task task) {
  bool post = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
    busy_.store(true, std::memory_order_release);
    if (!draining_ && !drain_posted_) {
      drain_posted_ = true;
      post = true;
    }
  }
  if (post) {
    std::weak_ptr<Stream> weak = weak_from_this();
    pool_->Post([weak] {
      if (auto stream = weak.lock()) stream->DrainFromPool();
    });
  }
}

void Stream::EnqueueLaunch(LaunchRequest request) {
  auto shared = std::make_shared<LaunchRequest>(std::move(request));
  WorkerPool *pool = pool_;
  // Published to this stream's synchronizers through the ScopedLaunchPublisher of DrainLocked.
  Enqueue([shared, pool] { return RunLaunch(*shared, *pool); });
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
    idle_.wait(lock, [&] {
      return !draining_ || launches_published_.load(std::memory_order_relaxed) != seen;
    });
    --waiters_;
  }
  Status status = std::move(first_error_);
  first_error_ = Status::Ok();
  return status;
}

}  // namespace asc_twin::rt
