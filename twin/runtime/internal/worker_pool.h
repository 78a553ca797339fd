// Persistent worker threads that run blocks of launches and drain streams. Idle workers spin
// briefly before sleeping so that back-to-back launches do not pay a wake-up each time.
#ifndef TWIN_RUNTIME_INTERNAL_WORKER_POOL_H_
#define TWIN_RUNTIME_INTERNAL_WORKER_POOL_H_

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace asc_twin::rt {

class WorkerPool {
 public:
  // threads == 0: hardware concurrency - 1, at least 1.
  explicit WorkerPool(unsigned threads = 0);  // 0: DefaultThreads()
  // One worker per core but one (the synchronizing host thread runs blocks too).
  static unsigned DefaultThreads();
  ~WorkerPool();  // runs the jobs already posted, then joins
  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  void Post(std::function<void()> job);
  unsigned size() const { return static_cast<unsigned>(threads_.size()); }
  // Threads that run the blocks of a launch a host thread waits for: the workers and the host
  // thread (benchmarks size their C contenders with it).
  unsigned block_threads() const { return size() + 1; }
  // Workers asleep (not polling): a Post then pays a wake-up (a futex wake and, when their
  // core is idle, an inter-processor interrupt). A hint: it may change at once.
  int sleeping() const { return sleepers_.load(std::memory_order_relaxed); }

 private:
  void Loop();
  bool SpinForWork() const;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  std::atomic<size_t> queued_{0};
  std::atomic<int> sleepers_{0};  // written under mutex_, read without it by sleeping()
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_WORKER_POOL_H_
