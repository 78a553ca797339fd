// An in-order task queue. Tasks are drained by whoever gets there first: a pool worker (so
// work proceeds asynchronously) or the thread that synchronizes (so launch+synchronize of a
// small kernel runs inline without a thread hand-off). A thread that synchronizes while a
// worker drains helps run the blocks of the launch in flight instead of idling.
//
// Lazy wake: waking a sleeping worker (a futex wake, an inter-processor interrupt in a VM)
// costs more than a one-block kernel. So while a stream's deferrable launches (one-block ones;
// with device isolation, every launch: the blocks run in the device process whoever submits
// them) are followed promptly by aclrtSynchronizeStream (learned per stream,
// kSyncFollowsWindow), such a launch onto an idle queue does not post the drain: the
// synchronizer runs it inline. The deferred
// drain is posted by the next task queued on the stream, by any other ACL call of the launching
// thread (FlushDeferredDrainOfThisThread), or when that thread ends; a stream whose
// synchronize came late (the host overlapped work with it) stops deferring.
#ifndef TWIN_RUNTIME_INTERNAL_STREAM_H_
#define TWIN_RUNTIME_INTERNAL_STREAM_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt {

class Capture;

class Stream : public std::enable_shared_from_this<Stream> {
 public:
  using Task = std::function<Status()>;

  explicit Stream(WorkerPool *pool)
      : pool_(pool), publisher_([this](const std::shared_ptr<LaunchState> &launch) { PublishLaunch(launch); }) {}
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  // Queues a task; it runs after every task queued before it. A failing task does not stop
  // later ones (CANN's default ACL_CONTINUE_ON_FAILURE); its status is kept for Synchronize.
  // While the stream is being captured (capture.h) the task is recorded there instead, under
  // `kind` (what aclmdlRIDebugJsonPrint calls it).
  void Enqueue(Task task, const char *kind = "TASK");
  // Queues a validated kernel launch (or records it, when capturing).
  void EnqueueLaunch(LaunchRequest request);
  // The capture this stream's tasks go to, or nullptr. Set by aclmdlRICaptureBegin (and by an
  // event wait that joins the stream to a capture), cleared by aclmdlRICaptureEnd.
  std::shared_ptr<Capture> capture();
  void SetCapture(std::shared_ptr<Capture> capture);
  // Runs the task at the head of the queue on this thread, if nobody drains the stream; false if
  // there was nothing to run. Event waits use it so a wait never starves the stream it waits on.
  bool RunOneTask();
  // Waits until the queue is empty; returns, and clears, the first failure since the last call.
  Status Synchronize();
  // The same, but gives up after `timeout` with ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (the tasks keep
  // running; a later synchronize reports their status). Never runs tasks on this thread.
  Status SynchronizeFor(std::chrono::milliseconds timeout);
  // Posts the drain a launch of this thread deferred (see above), if any. Cheap when none.
  // Every ACL call but the synchronizing ones makes it.
  static void FlushDeferredDrainOfThisThread();
  // Posts this stream's deferred drain, if any.
  void FlushDeferredDrain();

 private:
  void EnqueueTask(Task task, bool deferrable_launch, const char *kind);
  void PostDrain();
  void DrainFromPool();
  void DrainLocked(std::unique_lock<std::mutex> &lock);
  void PublishLaunch(const std::shared_ptr<LaunchState> &launch);

  WorkerPool *pool_;
  const LaunchPublisher publisher_;  // active while this stream's tasks run (ScopedLaunchPublisher)
  std::mutex mutex_;
  std::condition_variable idle_;
  std::deque<Task> tasks_;
  bool draining_ = false;
  bool drain_posted_ = false;
  bool drain_deferred_ = false;  // a deferrable launch waits for a synchronizer (or a flush)
  bool defer_launches_ = true;   // this stream's deferrable launches are synchronized promptly
  std::chrono::steady_clock::time_point last_deferrable_enqueue_{};
  int waiters_ = 0;
  std::atomic<bool> busy_{false};                // tasks queued or running; polled without the lock
  std::shared_ptr<LaunchState> running_launch_;  // multi-block launch in flight, for helpers
  std::atomic<uint64_t> launches_published_{0};  // polled without the lock
  Status first_error_;
  std::shared_ptr<Capture> capture_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_STREAM_H_
