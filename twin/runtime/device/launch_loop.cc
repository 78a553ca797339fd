// The launch slots' dispatchers of the device process (launch_loop.h).
#include "twin/runtime/device/launch_loop.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "twin/common/log/log.h"
#include "twin/runtime/device/device_state.h"
#include "twin/runtime/device/fault_report.h"
#include "twin/runtime/device/image_server.h"
#include "twin/runtime/device/log_relay.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/device/sandbox.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/spin_wait.h"

namespace asc_twin::rt::device {
namespace {

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
uint64_t g_private_baseline = 0;  // set by StartLaunchLoops
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

}  // namespace

// The dispatcher of launch slot `index`. `seen`: the submit_seq already handled, read before
// the host was told the process is ready (reading it here instead lost a launch submitted while
// the pool started: the watchdog then killed the device with no block to name).
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
      status =
          Status(ACL_ERROR_RT_INVALID_HANDLE, "launch of an unknown kernel (binary " + std::to_string(slot.binary_id) +
                                                  ", kernel " + std::to_string(slot.kernel_index) + ")");
    } else {
      const uint64_t args_size = std::min<uint64_t>(slot.args_size, proto::kMaxArgBytes);
      FillLaunch(&request, kernel, slot.blocks, slot.args, args_size, *shared.soc, shared.table);
      request.launch_slot = index;
      printed.clear();
      request.print_out = &printed;
      SetThreadLaunch(kernel->name.c_str(), index);
      slot.phase.store(proto::kPhaseBlocks, std::memory_order_relaxed);
      const auto started = std::chrono::steady_clock::now();
      status = RunLaunchInProcess(request, shared.pool);
      CheckKeptMemory(
          index, *kernel,
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started).count());
      SetThreadLaunch(nullptr, index);
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

void StartLaunchLoops(DeviceShared &shared, const uint32_t *seen) {
  g_private_baseline = PrivateResidentBytes();
  for (uint32_t i = 1; i < proto::kLaunchSlots; ++i) {
    std::thread([&shared, i, first = seen[i]] { LaunchLoop(shared, i, first); }).detach();
  }
  LaunchLoop(shared, 0, seen[0]);
}

}  // namespace asc_twin::rt::device
