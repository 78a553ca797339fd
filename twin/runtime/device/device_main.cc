// The twin device process: runs kernel blocks for one host process, so that a faulting kernel
// takes down this process, never the host. Started by the host (src/device_spawn.cc) with
// the descriptors and arguments described in protocol.h:
//   asc_twin_device <gm base hex> <gm size hex> <soc version> <npu arch> <ub size> <host pid>
// Once started it sandboxes itself (sandbox.h): kernels may use memory, futexes and clocks,
// nothing that reaches the host; a forbidden system call is a fault like a wild store.
// Kernel images arrive over the socket, are validated completely (image_check.h) and only then
// written to a memfd and mapped with dlopen (image_server.h). Launches arrive through the control
// block (launch_loop.h). A fatal signal in a block (or exit() from a kernel) writes "kernel K block
// B: cause" to the control block before the process dies (fault_report.h); the host turns it into
// the launch's error and starts anew. This file is the start-up: mapping, sandbox, handshake.
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "twin/common/log/log.h"
#include "twin/runtime/device/device_state.h"
#include "twin/runtime/device/fault_report.h"
#include "twin/runtime/device/image_server.h"
#include "twin/runtime/device/launch_loop.h"
#include "twin/runtime/device/log_relay.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/device/sandbox.h"
#include "twin/runtime/internal/env_knob.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt::device {

proto::ControlBlock *g_control = nullptr;
uintptr_t g_gm_base = 0;
uint64_t g_gm_size = 0;

namespace {

// The worker pool's size, counted before the filters (glibc reads /sys to count the cores).
unsigned g_pool_threads = 1;

// glibc reads /proc/sys/vm/overcommit_memory the first time a thread arena's heap shrinks
// (check_may_shrink_heap; the answer is kept for the process). Under the filters that openat is
// forbidden, and any block's free() could be the first (it killed asc-devkit's
// quant_group_matmul at random), so one heap shrinks now: a thread started while the main thread
// is the only one gets an arena of its own, and 4 MiB freed is far above the trim threshold.
void ShrinkAThreadArenaOnce() {
  std::thread([] {
    constexpr size_t kChunks = 256, kChunkBytes = 16 << 10;  // below the mmap threshold: heap memory
    void *chunks[kChunks];
    for (void *&chunk : chunks) chunk = std::malloc(kChunkBytes);
    for (size_t i = kChunks; i > 0; --i) std::free(chunks[i - 1]);  // newest first: all into the top
  }).join();
}

// Everything the sandbox needs before the filters: the log relay, the memory meter, the limits
// and privileges. "" or what failed.
std::string PrepareSandbox(const SocSpec &soc) {
  ShrinkAThreadArenaOnce();  // before the log relay starts the first other thread
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
  const uint32_t threads = std::min<uint32_t>(
      proto::kMaxDeviceThreads, g_pool_threads + proto::kLaunchSlots + 2 + soc.ai_core_cnt + soc.vector_core_cnt);
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
  StartLaunchLoops(*shared, seen);
}

}  // namespace
}  // namespace asc_twin::rt::device

int main(int argc, char **argv) { return asc_twin::rt::device::Main(argc, argv); }
