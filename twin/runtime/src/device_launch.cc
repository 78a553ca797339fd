// DeviceProcess, launches: the launch slots of the control block, waiting for a launch (the
// watchdog), what a launch reports when the device process dies or is killed under it, and the
// in-process mode's launches. The rest of DeviceProcess (start, stop, requests) is in
// device_process.cc.
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "twin/runtime/device/image_loader.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/internal/device_process.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/launch_print.h"
#include "twin/runtime/internal/spin_wait.h"

namespace asc_twin::rt {
static_assert(kMaxArgsSize == proto::kMaxArgBytes, "the launch limit is the launch slot's size");
namespace {

using Clock = std::chrono::steady_clock;

// CANN's default AI Core operator timeout on A2 parts (aclrtSetOpExecuteTimeOut(0) restores it).
constexpr uint64_t kDefaultExecuteTimeoutMs = 1091 * 1000;
std::atomic<uint64_t> g_execute_timeout_ms{kDefaultExecuteTimeoutMs};

// The host polls this long for a launch to finish before sleeping on the futex: a sleeping
// host costs a wake-up (tens of us on a VM) when the device finishes.
constexpr auto kLaunchSpin = std::chrono::microseconds(100);

void FutexWait(std::atomic<uint32_t> *word, uint32_t expected, long timeout_ns) {
  struct timespec ts {
    0, timeout_ns
  };
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void FutexWake(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
}

// Where the launch `seq` of slot `index` was when the device process died or was killed
// without a fault report: "block B" (the lowest of its blocks a thread was running), or why no
// block can be named.
std::string WhereLaunchWas(const proto::ControlBlock &control, uint32_t index, uint32_t seq) {
  uint32_t block = proto::kNoBlock;
  for (const auto &running : control.running_block) {
    const uint32_t mark = running.mark.load();
    if (mark != proto::kNoBlock && proto::MarkSlot(mark) == index) block = std::min(block, proto::MarkBlock(mark));
  }
  if (block != proto::kNoBlock) return "block " + std::to_string(block);
  const proto::LaunchSlot &slot = control.slots[index];
  if (slot.accepted_seq.load() != seq) return "(no block started: the device never took the launch)";
  switch (slot.phase.load()) {
    case proto::kPhasePreparing:
      return "(no block started: the device was preparing the launch)";
    case proto::kPhaseBlocks:
      return "(between blocks: no block was running, the device's own launch code stalled; a kernel may have "
             "corrupted device-process memory)";
    default:
      return "(all blocks had returned; the device was reporting the result)";
  }
}

}  // namespace

void DeviceProcess::SetExecuteTimeoutMs(uint64_t ms) {
  g_execute_timeout_ms.store(ms == 0 ? kDefaultExecuteTimeoutMs : ms);
}
uint64_t DeviceProcess::ExecuteTimeoutMs() { return g_execute_timeout_ms.load(); }

Status DeviceProcess::DeathStatusLocked(const std::string &kernel, uint32_t index, const char *how,
                                        const int *reaped_status) {
  proto::ControlBlock &control = *arena_->control();
  int status = reaped_status != nullptr ? *reaped_status : 0;
  if (pid_ > 0) {
    // A fault handler that reported re-raises its signal at once; give it a moment, then kill.
    bool reaped = false;
    for (int i = 0; i < 2000 && !reaped; ++i) {
      const pid_t got = waitpid(pid_, &status, WNOHANG);
      reaped = got == pid_ || (got < 0 && errno == ECHILD);
      if (!reaped) std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    if (!reaped) {
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid_ = -1;
  }
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  std::string line;
  // 1: a complete report; 2: the handler died while writing it (e.g. a second fault).
  if (control.crash_written.load() == 1 && control.crash_cause[0] != '\0') {
    line = CrashCause();
    if (WIFEXITED(status) && line.find("exit(") != std::string::npos) {
      line += " with status " + std::to_string(WEXITSTATUS(status));
    }
  } else {
    line = "kernel " + kernel + " " + WhereLaunchWas(control, index, control.slots[index].submit_seq.load()) +
           ": the device process " + how + " (" + DescribeExit(status) + ")";
  }
  return Status(ACL_ERROR_RT_AICORE_EXCEPTION, line + "; the device was reset and restarts on the next launch");
}

Status DeviceProcess::Launch(const LaunchRequest &request) {
  const Kernel &kernel = *request.kernel;
  if (request.args_size > proto::kMaxArgBytes) {
    return Status(ACL_ERROR_INVALID_PARAM, "launch of kernel " + kernel.name +
                                               ": argsSize=" + std::to_string(request.args_size) + " exceeds " +
                                               std::to_string(proto::kMaxArgBytes) + " bytes");
  }
  constexpr uint32_t kAllSlots = (1u << proto::kLaunchSlots) - 1;
  std::unique_lock<std::mutex> lock(mutex_);
  slot_free_.wait(lock, [&] { return busy_slots_ != kAllSlots; });
  Status running = EnsureRunningLocked();
  if (!running.ok()) {
    return Status(running.code() == ACL_ERROR_RT_INVALID_HANDLE ? running.code() : ACL_ERROR_RT_AICORE_EXCEPTION,
                  "kernel " + kernel.name + ": " + running.message());
  }
  // The lowest free slot: its dispatcher is the one most likely still polling for work.
  uint32_t index = 0;
  while (busy_slots_ & (1u << index)) ++index;
  busy_slots_ |= 1u << index;
  const uint64_t generation = generation_;
  proto::LaunchSlot &slot = arena_->control()->slots[index];
  slot.binary_id = kernel.binary_id;
  slot.kernel_index = kernel.index;
  slot.blocks = request.blocks;
  slot.args_size = request.args_size;
  std::memcpy(slot.args, request.args.data(), request.args_size);
  const uint32_t seq = slot.submit_seq.load(std::memory_order_relaxed) + 1;
  slot.submit_seq.store(seq, std::memory_order_seq_cst);
  if (slot.device_waiting.load(std::memory_order_seq_cst) != 0) FutexWake(&slot.submit_seq);
  lock.unlock();
  Status result = AwaitLaunch(kernel, index, seq, generation);
  lock.lock();
  busy_slots_ &= ~(1u << index);
  slot_free_.notify_one();
  return result;
}

Status DeviceProcess::AwaitLaunch(const Kernel &kernel, uint32_t index, uint32_t seq, uint64_t generation) {
  proto::ControlBlock &control = *arena_->control();
  proto::LaunchSlot &slot = control.slots[index];
  const uint64_t timeout_ms = ExecuteTimeoutMs();
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  // The dispatcher may share this core (it polls for launches): let it take this one now. On
  // another core the yield returns at once, well within the shortest launch.
  sched_yield();
  SpinUntil([&] { return slot.done_seq.load(std::memory_order_acquire) == seq; }, kLaunchSpin);
  while (slot.done_seq.load(std::memory_order_acquire) != seq) {
    slot.host_waiting.store(1, std::memory_order_seq_cst);
    const uint32_t seen = slot.done_seq.load(std::memory_order_seq_cst);
    if (seen != seq && control.crash_written.load() == 0) FutexWait(&slot.done_seq, seen, 2 * 1000 * 1000);
    slot.host_waiting.store(0, std::memory_order_relaxed);
    if (slot.done_seq.load(std::memory_order_acquire) == seq) break;
    std::lock_guard<std::mutex> lock(mutex_);
    // Another launch's waiter may have handled the end of this device process already.
    if (failed_generation_ == generation) return GenerationFailureFor(kernel, index);
    if (generation_ != generation || pid_ <= 0) {
      return Status(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel " + kernel.name +
                                                       ": the device process ended while it ran; the device was "
                                                       "reset and restarts on the next launch");
    }
    Status ended = Status::Ok();
    int status = 0;
    const pid_t got = waitpid(pid_, &status, WNOHANG);
    if (got == pid_ || (got < 0 && errno == ECHILD)) {
      pid_ = -1;  // reaped here: its exit status goes along
      ended = DeathStatusLocked(kernel.name, index, "died", got > 0 ? &status : nullptr);
    } else if (control.crash_written.load() != 0) {
      ended = DeathStatusLocked(kernel.name, index, "died", nullptr);
    } else if (Clock::now() >= deadline) {
      const std::string where = WhereLaunchWas(control, index, seq);
      kill(pid_, SIGKILL);
      while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      pid_ = -1;
      if (socket_ >= 0) close(socket_);
      socket_ = -1;
      ended = Status(ACL_ERROR_RT_AICORE_TIMEOUT,
                     "kernel " + kernel.name + " " + where +
                         ": still running after the operator execution timeout of " + std::to_string(timeout_ms) +
                         " ms (aclrtSetOpExecuteTimeOut); the device was reset and restarts on the next launch");
    }
    if (!ended.ok()) {
      // The launch whose block faulted (per the report), or this one (a watchdog kill, or a
      // death with no report); the other launches in flight learn it from here.
      const bool reported = ended.code() != ACL_ERROR_RT_AICORE_TIMEOUT && control.crash_written.load() == 1;
      RecordGenerationFailureLocked(generation, reported ? control.crash_slot : index, ended);
      return GenerationFailureFor(kernel, index);
    }
  }
  // The blocks' printf output, before the status: CANN prints it at the synchronize, also when
  // a block failed.
  const uint64_t printed = std::min<uint64_t>(slot.print_bytes, proto::kPrintSlotBytes);
  if (printed > 0) EmitLaunchPrint(nullptr, std::string(control.print_text[index], printed));
  // The device's report, checked as any reply: a status that is no ACL code is a device fault.
  const int32_t reported = slot.status;
  if (reported == ACL_SUCCESS) return Status::Ok();
  const std::string message(slot.message, strnlen(slot.message, proto::kMessageBytes));
  if (!proto::IsReplyStatus(reported)) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (generation_ == generation) KillLocked();  // a new device process at the next launch
    return Status(ACL_ERROR_RT_AICORE_EXCEPTION, "kernel " + kernel.name + ": the device process reported status " +
                                                     std::to_string(reported) +
                                                     ", which is no ACL error code; the device was reset and "
                                                     "restarts on the next launch");
  }
  return Status(reported, message);
}

void DeviceProcess::RecordGenerationFailureLocked(uint64_t generation, uint32_t slot, const Status &failure) {
  failed_generation_ = generation;
  failure_slot_ = slot;
  generation_failure_ = failure;
}

Status DeviceProcess::GenerationFailureFor(const Kernel &kernel, uint32_t index) const {
  if (failure_slot_ == index) return generation_failure_;
  return Status(generation_failure_.code(),
                "kernel " + kernel.name + ": the device was reset while it ran: " + generation_failure_.message());
}

Status DeviceProcess::LaunchInProcess(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &publish) {
  std::shared_ptr<const Kernel> local;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (retired_) {
      return Status(ACL_ERROR_RT_INVALID_HANDLE,
                    "kernel " + request.kernel->name + ": the device it was loaded on has been reset; load it again");
    }
    auto it = local_images_.find(request.kernel->binary_id);
    if (it != local_images_.end() && request.kernel->index < it->second->kernels.size()) {
      local = std::shared_ptr<const Kernel>(it->second, &it->second->kernels[request.kernel->index]);
    }
  }
  if (local == nullptr) return Status(ACL_ERROR_RT_INVALID_HANDLE, "kernel " + request.kernel->name + " is not loaded");
  LaunchRequest here = request;
  here.kernel = std::move(local);
  return RunLaunchInProcess(here, pool, publish);
}

// The host's RunLaunch: the blocks run in the device process of the kernel's binary.
Status RunLaunch(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &publish) {
  DeviceProcess *device = request.kernel->device;
  if (device == nullptr)
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, "kernel " + request.kernel->name + " has no device");
  if (device->in_process()) return device->LaunchInProcess(request, pool, publish);
  return device->Launch(request);
}

}  // namespace asc_twin::rt
