// Where a launch after idle loses its time, measured without the runtime: a parent process
// hands a request to a child through a shared word (as the host hands a launch to the device
// process) and times until the child acknowledges it. The child either sleeps on a futex at
// once, or first polls for a budget (yielding, as spin_wait.h does); the parent waits idle
// between requests. Prints one table; asserts nothing.
//
//   bazel run -c opt //twin/runtime/bench:wake_latency [-- --reps=N]
#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "twin/runtime/internal/spin_wait.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Shared {
  std::atomic<uint32_t> request;
  std::atomic<uint32_t> ack;
  std::atomic<uint32_t> sleeping;
};
constexpr uint32_t kStop = 0xffffffffu;

void FutexWait(std::atomic<uint32_t> *word, uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT, expected, nullptr, nullptr, 0);
}
void FutexWake(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

[[noreturn]] void Child(Shared *shared, std::chrono::microseconds poll_budget) {
  uint32_t seen = 0;
  for (;;) {
    auto arrived = [&] { return shared->request.load(std::memory_order_acquire) != seen; };
    while (!asc_twin::rt::SpinUntil(arrived, poll_budget)) {
      shared->sleeping.store(1, std::memory_order_seq_cst);
      if (shared->request.load(std::memory_order_seq_cst) == seen) FutexWait(&shared->request, seen);
      shared->sleeping.store(0, std::memory_order_relaxed);
    }
    seen = shared->request.load(std::memory_order_acquire);
    if (seen == kStop) _exit(0);
    shared->ack.store(seen, std::memory_order_release);
  }
}

struct Row {
  double median_us, p90_us;
};

// One case: a fresh child with `poll_budget`, `reps` requests each after `idle` of sleep.
// `same_cpu`: both processes pinned to CPU 0 (the wake-up needs no other core).
Row Measure(std::chrono::microseconds poll_budget, std::chrono::microseconds idle, bool same_cpu, int reps) {
  auto *shared =
      static_cast<Shared *>(mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (shared == MAP_FAILED) {
    std::perror("mmap");
    std::exit(1);
  }
  cpu_set_t saved;
  sched_getaffinity(0, sizeof(saved), &saved);
  if (same_cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    sched_setaffinity(0, sizeof(one), &one);
  }
  const pid_t child = fork();
  if (child == 0) Child(shared, poll_budget);
  std::vector<double> us;
  for (int i = 1; i <= reps; ++i) {
    if (idle.count() > 0) std::this_thread::sleep_for(idle);
    const auto start = Clock::now();
    shared->request.store(static_cast<uint32_t>(i), std::memory_order_seq_cst);
    if (shared->sleeping.load(std::memory_order_seq_cst) != 0) FutexWake(&shared->request);
    asc_twin::rt::SpinUntil([&] { return shared->ack.load(std::memory_order_acquire) == static_cast<uint32_t>(i); },
                            std::chrono::seconds(10));
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  shared->request.store(kStop, std::memory_order_seq_cst);
  FutexWake(&shared->request);
  waitpid(child, nullptr, 0);
  sched_setaffinity(0, sizeof(saved), &saved);
  munmap(shared, sizeof(Shared));
  std::sort(us.begin(), us.end());
  return Row{us[us.size() / 2], us[us.size() * 9 / 10]};
}

}  // namespace

int main(int argc, char **argv) {
  int reps = 300;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--reps=", 7) == 0) {
      reps = std::max(10, std::atoi(argv[i] + 7));
    } else {
      std::fprintf(stderr, "wake_latency: unknown argument '%s' (takes --reps=N)\n", argv[i]);
      return 2;
    }
  }
  std::printf("cross-process hand-off (request -> acknowledged), %d reps per row, %u CPUs\n\n", reps,
              std::thread::hardware_concurrency());
  std::printf("| %-34s | %-16s | %9s | %9s |\n", "waiter", "idle before", "median us", "p90 us");
  std::printf("|------------------------------------|------------------|----------:|----------:|\n");
  using std::chrono::microseconds;
  struct Case {
    const char *waiter;
    microseconds budget;
    bool same_cpu;
    microseconds idle;
  };
  const Case cases[] = {
      {"sleeps at once", microseconds(0), false, microseconds(0)},
      {"sleeps at once", microseconds(0), false, microseconds(1000)},
      {"sleeps at once", microseconds(0), false, microseconds(10000)},
      {"sleeps at once, same CPU", microseconds(0), true, microseconds(1000)},
      {"polls 2 ms (yielding), then sleeps", microseconds(2000), false, microseconds(0)},
      {"polls 2 ms (yielding), then sleeps", microseconds(2000), false, microseconds(1000)},
      {"polls 2 ms (yielding), then sleeps", microseconds(2000), false, microseconds(10000)},
  };
  for (const Case &c : cases) {
    const int n = c.idle.count() >= 10000 ? std::max(10, reps / 5) : reps;
    const Row row = Measure(c.budget, c.idle, c.same_cpu, n);
    char idle[32];
    std::snprintf(idle, sizeof(idle), c.idle.count() == 0 ? "none" : "%lld ms",
                  static_cast<long long>(c.idle.count() / 1000));
    std::printf("| %-34s | %-16s | %9.2f | %9.2f |\n", c.waiter, idle, row.median_us, row.p90_us);
    std::fflush(stdout);
  }
  return 0;
}
