// Bounded polling before sleeping, shared by every waiter of the runtime (host and device
// process). Why poll at all: on the VMs this runs on, waking a thread whose CPU went idle costs
// an inter-processor interrupt and a VM exit, 20-60 us (bench/wake_latency.cc measures it),
// far more than a small kernel. Why yield while polling: on 2 shared cores the thread we wait
// for may need this very core; a poll loop without sched_yield was measured to delay it by a
// whole scheduler slice (milliseconds).
#ifndef TWIN_RUNTIME_INTERNAL_SPIN_WAIT_H_
#define TWIN_RUNTIME_INTERNAL_SPIN_WAIT_H_

#include <sched.h>

#include <chrono>

namespace asc_twin::rt {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls `ready()` for up to `budget`, yielding the core every 16 polls. True once ready;
// false when the budget ran out (the caller then sleeps). `*spent`, when given, gets the
// polling time added (the CPU cost of staying awake).
template <typename Ready>
bool SpinUntil(Ready &&ready, std::chrono::nanoseconds budget, std::chrono::nanoseconds *spent = nullptr) {
  if (ready()) return true;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + budget;
  bool ok = false;
  for (unsigned polls = 1;; ++polls) {
    if (ready()) {
      ok = true;
      break;
    }
    CpuRelax();
    if (polls % 16 != 0) continue;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) break;
    sched_yield();
  }
  if (spent != nullptr) *spent += std::chrono::steady_clock::now() - start;
  return ok;
}

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_SPIN_WAIT_H_
