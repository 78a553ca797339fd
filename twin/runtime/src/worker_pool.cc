#include "twin/runtime/internal/worker_pool.h"

#include <chrono>

#include "twin/runtime/internal/spin_wait.h"

namespace asc_twin::rt {
namespace {

// How long an idle worker polls for new work before sleeping. Short: the machine is shared.
constexpr auto kIdleSpin = std::chrono::microseconds(50);

}  // namespace

unsigned WorkerPool::DefaultThreads() {
  // One core is left to the host thread: it runs blocks too while it drains a stream or waits
  // in a synchronize, so workers + that thread = the cores, and nothing is oversubscribed.
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 1 ? cores - 1 : 1;
}

WorkerPool::WorkerPool(unsigned threads) {
  if (threads == 0) threads = DefaultThreads();
  threads_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &thread : threads_) thread.join();
}

void WorkerPool::Post(std::function<void()> job) {
  bool wake_one = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
    queued_.fetch_add(1, std::memory_order_release);
    wake_one = sleepers_.load(std::memory_order_relaxed) > 0;
  }
  if (wake_one) wake_.notify_one();
}

bool WorkerPool::SpinForWork() const {
  return SpinUntil([this] { return queued_.load(std::memory_order_acquire) != 0; }, kIdleSpin);
}

void WorkerPool::Loop() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      while (jobs_.empty()) {
        if (stopping_) return;
        lock.unlock();
        const bool found = SpinForWork();
        lock.lock();
        if (found || !jobs_.empty() || stopping_) continue;
        ++sleepers_;
        wake_.wait(lock, [this] { return !jobs_.empty() || stopping_; });
        --sleepers_;
      }
      job = std::move(jobs_.front());
      jobs_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    job();
  }
}

}  // namespace asc_twin::rt
