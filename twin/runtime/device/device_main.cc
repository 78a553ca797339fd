// The twin device process: runs kernel blocks for one host process, so that a faulting kernel
// takes down this process, never the host. Started by the host (src/device_spawn.cc) with
// the descriptors and arguments described in protocol.h:
//   asc_twin_device <gm base hex> <gm size hex> <soc version> <npu arch> <ub size> <host pid>
// Once started it sandboxes itself (sandbox.h): kernels may use memory, futexes and clocks,
// nothing that reaches the host; a forbidden system call is a fault like a wild store.
// Kernel images arrive over the socket, are validated completely (image_check.h) and only then
// written to a memfd and mapped with dlopen. Launches arrive through the control block. A fatal
// signal in a block (or exit() from a kernel) writes "kernel K block B: cause" to the control
// block before the process dies; the host turns it into the launch's error and starts anew.
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "asc_twin/aicore_abi.h"
#include "twin/common/log/log.h"
#include "twin/runtime/device/fd_io.h"
#include "twin/runtime/device/image_check.h"
#include "twin/runtime/device/image_loader.h"
#include "twin/runtime/device/log_relay.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/device/sandbox.h"
#include "twin/runtime/internal/elf_image.h"
#include "twin/runtime/internal/env_knob.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/spin_wait.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt::device {
namespace {

proto::ControlBlock *g_control = nullptr;
uintptr_t g_gm_base = 0;
uint64_t g_gm_size = 0;

// Slots of ControlBlock::running_block in use; a thread's slot is freed when it ends (blocks
// of resident launches run on threads started per launch: MakeResident in launch.cc).
std::atomic<uint8_t> g_slot_taken[proto::kMaxDeviceThreads];

constexpr size_t kAltStackBytes = 64 * 1024;

struct ThreadInfo {
  bool ready = false;
  uint32_t slot = proto::kMaxDeviceThreads;  // index into running_block, or none
  uint32_t block = proto::kNoBlock;
  const char *kernel = nullptr;  // the kernel of the launch this thread works for
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
  AwaitRelayed(RelayLine(ascend_twin::log::Level::kError, ascend_twin::log::kRuntime, __FILE__, __LINE__, logged),
               500);
  for (proto::LaunchSlot &slot : g_control->slots) {  // every waiting host thread learns it
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&slot.done_seq), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
  }
}

void WriteCrash(const char *cause_format, ...) __attribute__((format(printf, 1, 2)));
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

const char *SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    default: return "signal";
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
    const char *what = info->si_code == FPE_INTDIV ? "integer divide by zero"
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

void InstallFaultHandlers() {
  struct sigaction action {};
  action.sa_sigaction = &OnFatalSignal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) sigaction(sig, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  std::atexit(&OnExit);
}

// ---- the socket: binaries and host-range mappings ----

std::mutex g_images_mutex;
std::map<uint64_t, std::shared_ptr<LoadedImage>> g_images;
// Bumped under g_images_mutex whenever g_images changes: a dispatcher's cached kernel is valid
// while it is unchanged (no lock or map lookup per launch).
std::atomic<uint64_t> g_images_generation{0};

// The request being answered (ServeSocket is one thread): the reply echoes it (protocol.h).
proto::RequestHeader g_request{};

void Reply(const Status &status, const std::vector<uint8_t> &payload = {}) {
  const size_t message_bytes = std::min<size_t>(status.message().size(), proto::kMaxReplyMessageBytes);
  proto::ReplyHeader header{status.code(), static_cast<uint32_t>(message_bytes), payload.size(), g_request.type,
                            g_request.sequence};
  if (!WriteAll(proto::kSocketFd, &header, sizeof(header)) ||
      !WriteAll(proto::kSocketFd, status.message().data(), message_bytes) ||
      !WriteAll(proto::kSocketFd, payload.data(), payload.size())) {
    _exit(0);  // the host is gone
  }
}

Status Refused(const std::string &what) { return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " + what); }

void MapHost(const uint64_t *fields) {
  void *want = reinterpret_cast<void *>(fields[0]);
  const uint64_t span = (fields[1] + 4095) / 4096 * 4096;
  void *got = mmap(want, span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, proto::kGmFd,
                   static_cast<off_t>(fields[2]));
  if (got == MAP_FAILED || got != want) {
    if (got != MAP_FAILED) munmap(got, span);
    char text[160];
    std::snprintf(text, sizeof(text),
                  "the device process cannot map host range [%p, +%llu) at the same address: %s", want,
                  static_cast<unsigned long long>(fields[1]), got == MAP_FAILED ? strerror(errno) : "moved");
    Reply(Status(ACL_ERROR_RT_MEMORY_ALLOCATION, text));
    return;
  }
  Reply(Status::Ok());
}

void ServeSocket() {
  for (;;) {
    proto::RequestHeader header{};
    if (!ReadAll(proto::kSocketFd, &header, sizeof(header))) _exit(0);  // the host is gone
    g_request = header;
    if (header.payload_bytes > (uint64_t{1} << 32)) _exit(3);
    std::vector<uint8_t> payload(header.payload_bytes);
    if (!ReadAll(proto::kSocketFd, payload.data(), payload.size())) _exit(0);
    switch (header.type) {
      case proto::kLoadBinary: {
        if (payload.size() < 9) {
          Reply(Refused("empty"));
          break;
        }
        uint64_t id = 0;
        std::memcpy(&id, payload.data(), 8);
        StatusOr<std::shared_ptr<LoadedImage>> image = LoadImage(payload.data() + 8, payload.size() - 8);
        if (!image.ok()) {
          Reply(image.status());
          break;
        }
        std::vector<uint8_t> infos(8 * image.value()->kernels.size());
        for (size_t i = 0; i < image.value()->kernels.size(); ++i) {
          std::memcpy(infos.data() + 8 * i, &image.value()->kernels[i].params, 4);
          std::memcpy(infos.data() + 8 * i + 4, &image.value()->kernels[i].args_size, 4);
        }
        {
          std::lock_guard<std::mutex> lock(g_images_mutex);
          g_images[id] = image.value();
          g_images_generation.fetch_add(1, std::memory_order_release);
        }
        Reply(Status::Ok(), infos);
        break;
      }
      case proto::kUnloadBinary: {
        uint64_t id = 0;
        if (payload.size() >= 8) std::memcpy(&id, payload.data(), 8);
        std::shared_ptr<LoadedImage> doomed;  // closed after the lock
        {
          std::lock_guard<std::mutex> lock(g_images_mutex);
          auto it = g_images.find(id);
          if (it != g_images.end()) {
            doomed = it->second;
            g_images.erase(it);
            g_images_generation.fetch_add(1, std::memory_order_release);
          }
        }
        Reply(Status::Ok());
        break;
      }
      case proto::kMapHost: {
        uint64_t fields[3] = {};
        if (payload.size() >= 24) std::memcpy(fields, payload.data(), 24);
        MapHost(fields);
        break;
      }
      case proto::kUnmapHost: {
        uint64_t fields[2] = {};
        if (payload.size() >= 16) std::memcpy(fields, payload.data(), 16);
        munmap(reinterpret_cast<void *>(fields[0]), (fields[1] + 4095) / 4096 * 4096);
        Reply(Status::Ok());
        break;
      }
      default:
        Reply(Status(ACL_ERROR_RT_INTERNAL_ERROR, "unknown request " + std::to_string(header.type)));
    }
  }
}

// ---- launches ----

// Mirrors the host's allocation table: GM check ranges, and page protections (live allocations
// read/write, everything else in the arena inaccessible). Shared by the slots' dispatchers: a
// sync changes only the pages of allocations that came or went, so launches running on other
// slots keep their memory accessible throughout.
class TableMirror {
 public:
  explicit TableMirror(MemoryTable *table) : table_(table) {}
  void Sync() {
    const uint64_t seq = g_control->table_seq.load(std::memory_order_acquire);
    // The common case, every launch of a steady workload: nothing changed, no lock taken.
    if (seq == synced_.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t synced = synced_.load(std::memory_order_relaxed);  // only written under the lock
    if (seq == synced && synced != UINT64_MAX) return;
    std::vector<proto::TableEntry> entries;
    uint64_t before = 0;
    do {
      before = g_control->table_seq.load(std::memory_order_acquire);
      if (before & 1) continue;
      const uint32_t count = std::min(g_control->table_count, proto::kMaxTableEntries);
      entries.assign(g_control->table, g_control->table + count);
      std::atomic_thread_fence(std::memory_order_acquire);
    } while ((before & 1) || g_control->table_seq.load(std::memory_order_acquire) != before);
    if (synced == UINT64_MAX) mprotect(reinterpret_cast<void *>(g_gm_base), g_gm_size, PROT_NONE);
    std::map<uintptr_t, uint64_t> mapped;  // arena pages now read/write: base -> bytes
    std::vector<std::pair<uintptr_t, uint64_t>> ranges;
    ranges.reserve(entries.size());
    for (const proto::TableEntry &entry : entries) {
      ranges.emplace_back(entry.base, entry.accessible);
      if (entry.flags & proto::kEntryInArena) mapped[entry.base] = (entry.accessible + 4095) / 4096 * 4096;
    }
    for (const auto &[base, bytes] : mapped_) {  // gone (or resized): inaccessible again
      auto it = mapped.find(base);
      if (it == mapped.end() || it->second != bytes) mprotect(reinterpret_cast<void *>(base), bytes, PROT_NONE);
    }
    for (const auto &[base, bytes] : mapped) {
      auto it = mapped_.find(base);
      if (it == mapped_.end() || it->second != bytes) {
        mprotect(reinterpret_cast<void *>(base), bytes, PROT_READ | PROT_WRITE);
      }
    }
    mapped_ = std::move(mapped);
    table_->ReplaceWith(ranges);
    synced_.store(before, std::memory_order_release);
  }

 private:
  MemoryTable *table_;
  std::mutex mutex_;
  std::atomic<uint64_t> synced_{UINT64_MAX};  // the table_seq mirrored, once the mirror is complete
  std::map<uintptr_t, uint64_t> mapped_;
};

// What the dispatchers of all launch slots share: the worker pool their blocks run on and the
// mirrored allocation table.
struct DeviceShared {
  explicit DeviceShared(unsigned workers) : pool(workers) {}
  const SocSpec *soc = nullptr;
  WorkerPool pool;
  MemoryTable table;
  TableMirror mirror{&table};
};

// The dispatcher of launch slot `index`. `seen`: the submit_seq already handled, read before
// the host was told the process is ready (reading it here instead lost a launch submitted while
// the pool started: the watchdog then killed the device with no block to name).
// A dispatcher's last kernel, valid while g_images_generation is unchanged: a steady stream of
// launches finds its kernel without a lock. (The reference it holds keeps an unloaded image
// mapped until this dispatcher's next launch.)
class KernelCache {
 public:
  const std::shared_ptr<const Kernel> &Find(uint64_t binary_id, uint32_t kernel_index) {
    const uint64_t generation = g_images_generation.load(std::memory_order_acquire);
    if (generation == generation_ && binary_id == binary_id_ && kernel_index == kernel_index_) return kernel_;
    std::lock_guard<std::mutex> lock(g_images_mutex);
    kernel_.reset();
    auto it = g_images.find(binary_id);
    if (it != g_images.end() && kernel_index < it->second->kernels.size()) {
      kernel_ = std::shared_ptr<const Kernel>(it->second, &it->second->kernels[kernel_index]);
    }
    generation_ = g_images_generation.load(std::memory_order_relaxed);  // stable under the lock
    binary_id_ = binary_id;
    kernel_index_ = kernel_index;
    return kernel_;
  }

 private:
  uint64_t generation_ = UINT64_MAX;
  uint64_t binary_id_ = 0;
  uint32_t kernel_index_ = 0;
  std::shared_ptr<const Kernel> kernel_;
};

// Copies a launch's printf text into its slot's area for the host; text beyond the area is cut
// at a line end and replaced by one line saying so. Returns the bytes written.
uint64_t CopyPrinted(const std::string &text, char (&area)[proto::kPrintSlotBytes]) {
  if (text.size() <= proto::kPrintSlotBytes) {
    std::memcpy(area, text.data(), text.size());
    return text.size();
  }
  char note[192];
  const size_t last_fit = text.rfind('\n', proto::kPrintSlotBytes - sizeof(note) - 1);
  const size_t keep = last_fit == std::string::npos ? 0 : last_fit + 1;
  const int note_len = std::snprintf(note, sizeof(note),
                                     "[WARNING] printf: %zu bytes of this launch's output not printed, beyond the "
                                     "%zu bytes one launch passes back\n",
                                     text.size() - keep, proto::kPrintSlotBytes);
  std::memcpy(area, text.data(), keep);
  std::memcpy(area + keep, note, static_cast<size_t>(note_len));
  return keep + static_cast<size_t>(note_len);
}

// Anonymous resident memory when the dispatchers started: what the device process needs.
uint64_t g_private_baseline = 0;
// What a launch may leave resident beyond that (an AI core has no heap; the runtime's own
// growth, thread stacks and the table mirror, stays far below).
constexpr uint64_t kKeptLimitBytes = uint64_t{128} << 20;
// Touching that much memory takes launches at least this long in all (the kernel zeroes each
// page it hands out, at well under 128 GB/s), so the meter's pread waits until launches since
// the last reading add up to it: at most one reading per millisecond of kernel time.
constexpr int64_t kMeterEveryNs = 1000 * 1000;
std::atomic<int64_t> g_unmetered_ns{0};

// Memory a kernel kept after its launch ends the device process, which frees it.
void CheckKeptMemory(uint32_t index, const Kernel &kernel, int64_t launch_ns) {
  if (g_unmetered_ns.fetch_add(launch_ns, std::memory_order_relaxed) + launch_ns < kMeterEveryNs) return;
  g_unmetered_ns.store(0, std::memory_order_relaxed);
  const uint64_t now = PrivateResidentBytes();
  if (now <= g_private_baseline + kKeptLimitBytes) return;
  char line[proto::kMessageBytes];
  std::snprintf(line, sizeof(line),
                "kernel %s left the device process holding %.1f MiB more than at its start (at most %llu MiB may "
                "stay after a launch: an AI core has no heap)",
                kernel.name.c_str(), static_cast<double>(now - g_private_baseline) / (1 << 20),
                static_cast<unsigned long long>(kKeptLimitBytes >> 20));
  PublishCrash(index, line);
  _exit(5);
}

[[noreturn]] void LaunchLoop(DeviceShared &shared, uint32_t index, uint32_t seen) {
  proto::LaunchSlot &slot = g_control->slots[index];
  KernelCache kernels;
  LaunchRequest request;  // reused: its argument buffer keeps its capacity
  std::string printed;    // the launch's printf text, copied to print_text for the host
  const std::chrono::nanoseconds budget = std::chrono::microseconds(slot.spin_budget_us);
  for (;;) {
    // Stay awake for the spin budget after each launch: a launch that finds the dispatcher
    // asleep pays a cross-process wake-up (README "Launch latency").
    std::chrono::nanoseconds spent{0};
    auto submitted = [&] { return slot.submit_seq.load(std::memory_order_acquire) != seen; };
    while (!SpinUntil(submitted, budget, &spent)) {
      slot.device_sleeps.fetch_add(1, std::memory_order_relaxed);
      slot.device_waiting.store(1, std::memory_order_seq_cst);
      if (slot.submit_seq.load(std::memory_order_seq_cst) == seen) {
        syscall(SYS_futex, reinterpret_cast<uint32_t *>(&slot.submit_seq), FUTEX_WAIT, seen, nullptr, nullptr, 0);
      }
      slot.device_waiting.store(0, std::memory_order_relaxed);
      if (submitted()) break;
    }
    slot.device_spin_ns.fetch_add(static_cast<uint64_t>(spent.count()), std::memory_order_relaxed);
    seen = slot.submit_seq.load(std::memory_order_acquire);
    slot.phase.store(proto::kPhasePreparing, std::memory_order_relaxed);
    slot.accepted_seq.store(seen, std::memory_order_release);
    shared.mirror.Sync();
    const std::shared_ptr<const Kernel> &kernel = kernels.Find(slot.binary_id, slot.kernel_index);
    Status status;
    if (kernel == nullptr) {
      status = Status(ACL_ERROR_RT_INVALID_HANDLE, "launch of an unknown kernel (binary " +
                                                       std::to_string(slot.binary_id) + ", kernel " +
                                                       std::to_string(slot.kernel_index) + ")");
    } else {
      const uint64_t args_size = std::min<uint64_t>(slot.args_size, proto::kMaxArgBytes);
      FillLaunch(&request, kernel, slot.blocks, slot.args, args_size, *shared.soc, shared.table);
      request.launch_slot = index;
      printed.clear();
      request.print_out = &printed;
      t_info.kernel = kernel->name.c_str();
      t_info.launch_slot = index;
      slot.phase.store(proto::kPhaseBlocks, std::memory_order_relaxed);
      const auto started = std::chrono::steady_clock::now();
      status = RunLaunchInProcess(request, shared.pool);
      CheckKeptMemory(index, *kernel,
                      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started)
                          .count());
      t_info.kernel = nullptr;
      slot.device_inline_launches.store(InlineLaunchCount(), std::memory_order_relaxed);
    }
    slot.phase.store(proto::kPhaseReporting, std::memory_order_relaxed);
    slot.print_bytes = CopyPrinted(printed, g_control->print_text[index]);
    printed.clear();
    slot.status = status.code();
    if (status.ok()) {
      slot.message[0] = '\0';
    } else {
      std::snprintf(slot.message, proto::kMessageBytes, "%s", status.message().c_str());
      // CANN's device-side log (debug/device-0/device-<host pid>_<stamp>.log, through the
      // relay); the host logs the same cause in its plog when it reports the launch.
      char logged[proto::kMessageBytes + 64];
      std::snprintf(logged, sizeof(logged), "device 0: %s (error %d)", status.message().c_str(), status.code());
      RelayLine(ascend_twin::log::Level::kError, ascend_twin::log::kRuntime, __FILE__, __LINE__, logged);
    }
    slot.phase.store(proto::kPhaseIdle, std::memory_order_relaxed);
    slot.done_seq.store(seen, std::memory_order_seq_cst);
    if (slot.host_waiting.load(std::memory_order_seq_cst) != 0) {
      syscall(SYS_futex, reinterpret_cast<uint32_t *>(&slot.done_seq), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
    }
    // The host thread polling for this launch may share this core: let it see the result now,
    // not after this dispatcher's next 16 polls (on another core the yield returns at once).
    sched_yield();
  }
}

// The worker pool's size, counted before the filters (glibc reads /sys to count the cores).
unsigned g_pool_threads = 1;

// Everything the sandbox needs before the filters: the log relay, the memory meter, the limits
// and privileges. "" or what failed.
std::string PrepareSandbox(const SocSpec &soc) {
  std::string failed = StartLogRelay();
  if (!failed.empty()) return "log relay: " + failed;
  const int meter = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (meter < 0 || dup2(meter, kMeterFd) != kMeterFd) return std::string("/proc/self/statm: ") + strerror(errno);
  if (meter != kMeterFd) close(meter);
  // Two malloc arenas: the address-space limit stays predictable (each arena reserves 64 MiB).
  mallopt(M_ARENA_MAX, 2);
  // Threads at once: the worker pool, the dispatchers, the socket thread, and one per block of a
  // resident launch (at most the SoC's cores).
  g_pool_threads = WorkerPool::DefaultThreads();
  const uint32_t threads = std::min<uint32_t>(proto::kMaxDeviceThreads, g_pool_threads + proto::kLaunchSlots + 2 +
                                                                              soc.ai_core_cnt + soc.vector_core_cnt);
  failed = Harden(LimitsFor(g_gm_size, threads));
  if (!failed.empty()) return failed;
  return InstallProcessFilter(getpid());
}

int Main(int argc, char **argv) {
  if (argc < 7) {
    std::fprintf(stderr, "asc_twin_device: started by libascendcl only\n");
    return 2;
  }
  g_gm_base = std::strtoull(argv[1], nullptr, 16);
  g_gm_size = std::strtoull(argv[2], nullptr, 16);
  void *control = mmap(nullptr, sizeof(proto::ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, proto::kControlFd, 0);
  if (control == MAP_FAILED) return 3;
  g_control = static_cast<proto::ControlBlock *>(control);
  close(proto::kControlFd);
  // The host's pid from the host: in a PID namespace of its own, getppid() is 0.
  ascend_twin::log::SetDeviceProcess(0, static_cast<int>(std::strtol(argv[6], nullptr, 10)));
  std::string failure;
  void *gm = mmap(reinterpret_cast<void *>(g_gm_base), g_gm_size, PROT_NONE,
                  MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, proto::kGmFd, 0);
  if (gm == MAP_FAILED || reinterpret_cast<uintptr_t>(gm) != g_gm_base) {
    failure = std::string("cannot map device memory at the host's address: ") + strerror(errno);
  }
  const SocSpec *soc = FindSoc(argv[3]);
  if (failure.empty() && soc == nullptr) failure = std::string("unknown SoC ") + argv[3];
  InstallFaultHandlers();
  PrepareThread();
  g_block_mark = &MarkBlock;
  if (failure.empty()) {
    const std::string sandbox = PrepareSandbox(*soc);
    if (!sandbox.empty()) failure = "cannot sandbox the device process: " + sandbox;
  }
  uint32_t seen[proto::kLaunchSlots];
  for (uint32_t i = 0; i < proto::kLaunchSlots; ++i) seen[i] = g_control->slots[i].submit_seq.load();
  // Held by this thread (it runs slot 0's dispatcher and never returns) until the process ends:
  // the host's liveness check (protocol.h, ControlBlock::device_alive).
  pthread_mutex_lock(&g_control->device_alive);
  Reply(failure.empty() ? Status::Ok() : Status(ACL_ERROR_RT_INTERNAL_ERROR, failure));
  if (!failure.empty()) return 4;
  std::thread(&ServeSocket).detach();  // the loader: under the process filter alone
  // This thread runs slot 0's dispatcher and starts the others and the worker pool: they and
  // every thread they start run kernels, under the kernel filter too.
  const std::string kernel_filter = InstallKernelFilter();
  if (!kernel_filter.empty()) {
    WriteCrash("cannot sandbox the device process: %s", kernel_filter.c_str());
    return 4;
  }
  // Tests only: start the dispatchers late, so that the host's first requests and launch come
  // before them (the race that once lost that launch).
  if (const uint64_t delay = EnvUnsigned("ASCEND_TWIN_DEVICE_START_DELAY_US", 0, 9999999)) usleep(delay);
  // Never destroyed: an exit() in a kernel must not join the pool's workers (one of them may
  // be the caller); the dispatchers run until the process ends.
  auto *shared = new DeviceShared(g_pool_threads);
  shared->soc = soc;
  g_private_baseline = PrivateResidentBytes();
  for (uint32_t i = 1; i < proto::kLaunchSlots; ++i) {
    std::thread([shared, i, first = seen[i]] { LaunchLoop(*shared, i, first); }).detach();
  }
  LaunchLoop(*shared, 0, seen[0]);
}

}  // namespace
}  // namespace asc_twin::rt::device

int main(int argc, char **argv) { return asc_twin::rt::device::Main(argc, argv); }
