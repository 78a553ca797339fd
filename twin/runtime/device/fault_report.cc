// Fault reports of the device process (fault_report.h).
#include "twin/runtime/device/fault_report.h"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "twin/common/log/log.h"
#include "twin/runtime/device/device_state.h"
#include "twin/runtime/device/log_relay.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/device/sandbox.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt::device {
namespace {

// Slots of ControlBlock::running_block in use; a thread's slot is freed when it ends (blocks
// of resident launches run on threads started per launch: MakeResident in launch.cc).
std::atomic<uint8_t> g_slot_taken[proto::kMaxDeviceThreads];

constexpr size_t kAltStackBytes = 64 * 1024;

struct ThreadInfo {
  bool ready = false;
  uint32_t slot = proto::kMaxDeviceThreads;  // index into running_block, or none
  uint32_t block = proto::kNoBlock;
  const char *kernel = nullptr;                // the kernel of the launch this thread works for
  uint32_t launch_slot = proto::kLaunchSlots;  // and its launch slot
  uintptr_t stack_lo = 0, stack_hi = 0;
  void *alt_stack = nullptr;
  ~ThreadInfo() {
    if (!ready) return;
    if (slot < proto::kMaxDeviceThreads) {
      g_control->running_block[slot].mark.store(proto::kNoBlock, std::memory_order_relaxed);
      g_slot_taken[slot].store(0, std::memory_order_release);
    }
    if (alt_stack != nullptr && alt_stack != MAP_FAILED) {
      stack_t off{};
      off.ss_flags = SS_DISABLE;
      sigaltstack(&off, nullptr);
      munmap(alt_stack, kAltStackBytes);
    }
  }
};
thread_local ThreadInfo t_info;

uint32_t TakeThreadSlot() {
  for (uint32_t slot = 0; slot < proto::kMaxDeviceThreads; ++slot) {
    if (g_slot_taken[slot].exchange(1, std::memory_order_acq_rel) == 0) return slot;
  }
  return proto::kMaxDeviceThreads;  // more threads than slots: this one's blocks go unnamed on _exit
}

}  // namespace

void PrepareThread() {
  ThreadInfo &info = t_info;
  info.ready = true;
  info.slot = TakeThreadSlot();
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void *addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      info.stack_lo = reinterpret_cast<uintptr_t>(addr);
      info.stack_hi = info.stack_lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  // Fault handlers run on their own stack, so a stack overflow can be reported too.
  info.alt_stack = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (info.alt_stack != MAP_FAILED) {
    stack_t ss{};
    ss.ss_sp = info.alt_stack;
    ss.ss_size = kAltStackBytes;
    sigaltstack(&ss, nullptr);
  }
}

void MarkBlock(const LaunchRequest &request, uint32_t block) {
  ThreadInfo &info = t_info;
  if (!info.ready) PrepareThread();
  info.block = block;
  info.kernel = request.kernel->name.c_str();
  info.launch_slot = request.launch_slot;
  if (info.slot < proto::kMaxDeviceThreads) {
    const uint32_t mark = block == proto::kNoBlock ? proto::kNoBlock : proto::RunningMark(request.launch_slot, block);
    g_control->running_block[info.slot].mark.store(mark, std::memory_order_relaxed);
  }
}

// Publishes the fault report `line` (the first fault wins) for launch slot `launch_slot`, logs
// it in the device log, and wakes every waiting host thread.
void PublishCrash(uint32_t launch_slot, const char *line) {
  uint32_t expected = 0;
  if (!g_control->crash_written.compare_exchange_strong(expected, 2)) return;  // the first fault wins
  g_control->crash_slot = launch_slot;
  snprintf(g_control->crash_cause, proto::kMessageBytes, "%s", line);
  g_control->crash_written.store(1, std::memory_order_release);
  char logged[proto::kMessageBytes + 64];
  snprintf(logged, sizeof(logged), "device 0: %s (error %d)", line, ACL_ERROR_RT_AICORE_EXCEPTION);
  // The process ends next; its end ends the relay too (PID namespace): the line first.
  AwaitRelayed(RelayLine(ascend_twin::log::Level::kError, ascend_twin::log::kRuntime, __FILE__, __LINE__, logged), 500);
  for (proto::LaunchSlot &slot : g_control->slots) {  // every waiting host thread learns it
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&slot.done_seq), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
  }
}

void SetThreadLaunch(const char *kernel, uint32_t launch_slot) {
  t_info.kernel = kernel;
  t_info.launch_slot = launch_slot;
}

void WriteCrash(const char *cause_format, ...) {
  if (g_control->crash_written.load(std::memory_order_relaxed) != 0) return;  // the first fault wins
  const char *kernel = t_info.kernel;
  char cause[proto::kMessageBytes];
  va_list args;
  va_start(args, cause_format);
  vsnprintf(cause, sizeof(cause), cause_format, args);
  va_end(args);
  char line[proto::kMessageBytes];
  const uint32_t block = t_info.block;
  if (block != proto::kNoBlock) {
    snprintf(line, sizeof(line), "kernel %s block %u: %s", kernel ? kernel : "?", block, cause);
  } else if (kernel == nullptr) {  // the loader or the start-up: no kernel of a launch to name
    snprintf(line, sizeof(line), "outside any launch (loading an image or serving a request): %s", cause);
  } else {
    snprintf(line, sizeof(line), "kernel %s (outside any block: in the device's launch code): %s",
             kernel ? kernel : "?", cause);
  }
  PublishCrash(t_info.launch_slot, line);
}

namespace {

const char *SignalName(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV";
    case SIGBUS:
      return "SIGBUS";
    case SIGFPE:
      return "SIGFPE";
    case SIGILL:
      return "SIGILL";
    case SIGABRT:
      return "SIGABRT";
    case SIGTRAP:
      return "SIGTRAP";
    case SIGSYS:
      return "SIGSYS";
    default:
      return "signal";
  }
}

void OnFatalSignal(int sig, siginfo_t *info, void *ucontext) {
  if (sig == SIGSYS && info->si_code == 1 /* SYS_SECCOMP */) {
    // The sandbox refused a system call (sandbox.h): a kernel fault; the device restarts clean.
    char cause[256];
    DescribeTrap(info, ucontext, cause, sizeof(cause));
    WriteCrash("%s", cause);
    _exit(128 + SIGSYS);
  }
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  const ThreadInfo &thread = t_info;
  if (sig == SIGSEGV || sig == SIGBUS) {
    if (thread.stack_lo != 0 && addr + (1u << 20) >= thread.stack_lo && addr < thread.stack_lo + 65536) {
      WriteCrash("stack overflow (%s at %p, below the block's %zu KiB stack)", SignalName(sig), info->si_addr,
                 static_cast<size_t>((thread.stack_hi - thread.stack_lo) >> 10));
    } else if (addr >= g_gm_base && addr - g_gm_base < g_gm_size) {
      WriteCrash("%s: GM access at %p is not inside a live device allocation (out of bounds, freed, or a guard page)",
                 SignalName(sig), info->si_addr);
    } else {
      WriteCrash("%s: invalid memory access at %p (outside device memory)", SignalName(sig), info->si_addr);
    }
  } else if (sig == SIGFPE) {
    const char *what = info->si_code == FPE_INTDIV   ? "integer divide by zero"
                       : info->si_code == FPE_INTOVF ? "integer overflow"
                                                     : "arithmetic exception";
    WriteCrash("SIGFPE: %s at %p", what, info->si_addr);
  } else if (sig == SIGABRT) {
    WriteCrash("SIGABRT: the kernel called abort() (or failed an assertion)");
  } else if (sig == SIGILL) {
    WriteCrash("SIGILL: illegal instruction at %p", info->si_addr);
  } else {
    WriteCrash("%s (signal %d)", SignalName(sig), sig);
  }
  // SA_RESETHAND restored the default action: returning re-runs the faulting instruction (or
  // abort() raises again) and the process ends with this signal.
  // The init of a PID namespace ignores a signal it sends itself: then end here.
  if (sig != SIGSEGV && sig != SIGBUS && sig != SIGFPE && sig != SIGILL) {
    raise(sig);
    _exit(128 + sig);
  }
}

void OnExit() {
  if (t_info.block != proto::kNoBlock) WriteCrash("the kernel called exit()");
}

}  // namespace

void InstallFaultHandlers() {
  struct sigaction action {};
  action.sa_sigaction = &OnFatalSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) sigaction(sig, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  std::atexit(&OnExit);
}

}  // namespace asc_twin::rt::device
