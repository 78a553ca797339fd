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
  Enqueue([shared, pool] { return RunLaunch(*shared, *pool); });
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
    Status status = task();
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
    // A worker is draining: poll briefly (cheap for short tasks), then sleep.
    lock.unlock();
    const auto deadline = std::chrono::steady_clock::now() + kSyncSpin;
    int polls = 0;
    while (busy_.load(std::memory_order_acquire)) {
      if (++polls % 64 == 0) {
        if (std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::yield();
      }
    }
    lock.lock();
    ++waiters_;
    idle_.wait(lock, [this] { return !draining_; });
    --waiters_;
  }
  Status status = std::move(first_error_);
  first_error_ = Status::Ok();
  return status;
}

}  // namespace asc_twin::rt
