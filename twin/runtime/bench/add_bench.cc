// The twin's benchmark: bandwidth of an AddCustom-style Ascend C kernel launched through ACL
// against a plain multithreaded C add on the same buffers, plus launch overhead of an empty
// kernel. Prints a table, or one JSON object per row with --json (read by add_bench.py, which
// adds numpy). Never asserts on time; exits non-zero only if an ACL call fails or the kernel's
// result differs from the C add.
//
//   add_bench --add=<add_custom.aicore.o> --empty=<binary with empty_kernel>
//             [--sizes=1024,16384,...] [--tile_num=N] [--seconds=S] [--launch_reps=N] [--json]
#include <dirent.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "twin/runtime/bench/bench_flags.h"
#include "twin/runtime/bench/c_add.h"
#include "twin/runtime/internal/device.h"

namespace {

constexpr uint32_t kElemsPerBlock = 1024;  // the kernel's block: 1024 float32
constexpr double kBytesPerElem = 12.0;     // read x, read y, write z

struct Options {
  std::string add_path;
  std::string empty_path;
  std::vector<uint64_t> sizes{1u << 10, 1u << 14, 1u << 18, 1u << 20, 1u << 22, 1u << 24, 1u << 25};
  // Tiles per buffer: a block makes tile_num x 2 (double buffer) trips. 4 is the Ascend C
  // sample's tiling (ops/add_custom: 128-float tiles), so the API's per-call cost is measured.
  uint32_t tile_num = 4;
  double seconds = 1.0;     // measuring time budget per size and contender
  int launch_reps = 20000;  // launch-overhead repetitions per case (0: skip)
  bool json = false;
};

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "add_bench: %s\n", what.c_str());
  std::exit(1);
}

void Check(aclError rc, const char *what) {
  if (rc == ACL_SUCCESS) return;
  const char *msg = aclGetRecentErrMsg();
  Die(std::string(what) + " failed with " + std::to_string(rc) + ": " + (msg ? msg : ""));
}

std::vector<uint64_t> ParseSizes(const std::string &text) {
  std::vector<uint64_t> sizes;
  size_t at = 0;
  while (at < text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const uint64_t n = std::strtoull(text.substr(at, comma - at).c_str(), nullptr, 10);
    if (n == 0 || n % kElemsPerBlock != 0 || n / kElemsPerBlock > 65535) {
      Die("--sizes: '" + text.substr(at, comma - at) + "' is not a multiple of 1024 with at most 65535 blocks");
    }
    sizes.push_back(n);
    at = comma + 1;
  }
  return sizes;
}

Options ParseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *flag) { return asc_twin::bench::FlagValue(arg, flag); };
    if (const char *v = value("--add=")) {
      o.add_path = v;
    } else if (const char *v = value("--empty=")) {
      o.empty_path = v;
    } else if (const char *v = value("--sizes=")) {
      o.sizes = ParseSizes(v);
    } else if (const char *v = value("--tile_num=")) {
      o.tile_num = static_cast<uint32_t>(std::atoi(v));
    } else if (const char *v = value("--seconds=")) {
      o.seconds = std::atof(v);
    } else if (const char *v = value("--launch_reps=")) {
      o.launch_reps = std::atoi(v);
    } else if (arg == "--json") {
      o.json = true;
    } else {
      Die("unknown argument '" + arg + "'");
    }
  }
  if (o.add_path.empty() || o.empty_path.empty()) Die("--add=<add_custom binary> and --empty=<binary> are required");
  if (o.tile_num == 0 || kElemsPerBlock % (2 * o.tile_num * 8) != 0) {
    Die("--tile_num must split 1024 floats into 2 x tile_num tiles of whole 32-byte blocks");
  }
  return o;
}

aclrtBinHandle LoadBinary(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  aclrtBinHandle handle = nullptr;
  Check(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &handle), "aclrtBinaryLoadFromData");
  return handle;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

template <typename F>
double MicrosOf(F &&f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

using asc_twin_bench::CAdd;  // the plain C contender (bench/c_add.h, shared with om_bench)

struct DeviceBuffers {
  void *x = nullptr, *y = nullptr, *z = nullptr;
  explicit DeviceBuffers(uint64_t n) {
    const size_t bytes = n * sizeof(float);
    Check(aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    Check(aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    Check(aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
  }
  ~DeviceBuffers() {
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
  }
};

struct AddRow {
  uint64_t n;
  uint32_t blocks;
  int reps;
  double kernel_us, c_us;
  double paired_speed;  // median over the rounds of C add time / kernel time, timed back to back
};

// One size: random inputs, one checked launch, warm-up, then kernel and C add timed in
// alternation (so both see the same machine load) until the time budget is spent.
AddRow MeasureAdd(aclrtFuncHandle add, aclrtStream stream, uint64_t n, const Options &o, unsigned c_threads,
                  std::mt19937 &rng) {
  DeviceBuffers dev(n);
  std::vector<float> hx(n), hy(n), want(n);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (uint64_t i = 0; i < n; ++i) {
    hx[i] = dist(rng);
    hy[i] = dist(rng);
  }
  const size_t bytes = n * sizeof(float);
  Check(aclrtMemcpy(dev.x, bytes, hx.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  Check(aclrtMemcpy(dev.y, bytes, hy.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
  Check(aclrtMemset(dev.z, bytes, 0, bytes), "aclrtMemset");

  const uint32_t blocks = static_cast<uint32_t>(n / kElemsPerBlock);
  struct {
    uint64_t x, y, z, total, tile_num;
  } args{reinterpret_cast<uint64_t>(dev.x), reinterpret_cast<uint64_t>(dev.y), reinterpret_cast<uint64_t>(dev.z), n,
         o.tile_num};
  auto launch = [&] {
    Check(aclrtLaunchKernel(add, blocks, &args, sizeof(args), stream), "aclrtLaunchKernel");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  };
  const auto *x = static_cast<const float *>(dev.x);
  const auto *y = static_cast<const float *>(dev.y);
  auto *z = static_cast<float *>(dev.z);

  // Check once: the kernel's z against the C add's.
  launch();
  CAdd(hx.data(), hy.data(), want.data(), n, c_threads);
  if (std::memcmp(z, want.data(), bytes) != 0) {
    for (uint64_t i = 0; i < n; ++i) {
      if (z[i] != want[i]) Die("kernel result differs at " + std::to_string(i) + " of " + std::to_string(n));
    }
  }

  // Warm-up: both contenders, until ~10% of the budget or 3 rounds.
  const double warm_us = std::max(1.0, o.seconds * 0.1e6);
  double spent = 0;
  for (int r = 0; r < 3 || spent < warm_us; ++r) {
    spent += MicrosOf(launch);
    spent += MicrosOf([&] { CAdd(x, y, z, n, c_threads); });
    if (r > 1000) break;
  }
  std::vector<double> kernel_us, c_us;
  spent = 0;
  while ((kernel_us.size() < 5 || spent < o.seconds * 1e6) && kernel_us.size() < 20000) {
    const double k = MicrosOf(launch);
    // Untimed pause: the runtime's idle workers poll for ~50 us after a launch; let them go to
    // sleep so they do not take CPU from the C add's threads. Busy, not sleeping: a sleeping
    // benchmark gives its core away on this shared machine and waits to get it back.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
    while (std::chrono::steady_clock::now() < until) {
    }
    const double c = MicrosOf([&] { CAdd(x, y, z, n, c_threads); });
    kernel_us.push_back(k);
    c_us.push_back(c);
    spent += k + c;
  }
  // Each kernel run and the C add right after it saw nearly the same machine: the median of their
  // ratios moves less with the load of other processes than the ratio of the two medians.
  std::vector<double> pairs;
  for (size_t i = 0; i < kernel_us.size(); ++i) pairs.push_back(c_us[i] / kernel_us[i]);
  return AddRow{n, blocks, static_cast<int>(kernel_us.size()), Median(kernel_us), Median(c_us), Median(pairs)};
}

struct LaunchRow {
  uint32_t blocks;
  int idle_us;
  int reps;
  double median_us, p90_us;
  // CPU time per launch: the host process's, the device process's (all its threads), and the
  // part of it the device's dispatcher spent polling for work; dispatcher sleeps per launch.
  double host_cpu_us, device_cpu_us, spin_us, sleeps;
  double faults;  // minor page faults per launch, host and device process together
};

double ProcessCpuUs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// CPU time of another process, all threads, from the scheduler's per-thread nanosecond
// counters (/proc/<pid>/task/*/schedstat); 0 when there is no such process.
double OtherProcessCpuUs(pid_t pid) {
  if (pid <= 0) return 0;
  double total_ns = 0;
  const std::string tasks = "/proc/" + std::to_string(pid) + "/task";
  DIR *dir = opendir(tasks.c_str());
  if (dir == nullptr) return 0;
  while (const dirent *entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream in(tasks + "/" + entry->d_name + "/schedstat");
    double ns = 0;
    if (in >> ns) total_ns += ns;
  }
  closedir(dir);
  return total_ns / 1e3;
}

// Minor page faults of this process plus another one (/proc/<pid>/stat field 10; 0 if none).
uint64_t MinorFaults(pid_t other) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  uint64_t faults = static_cast<uint64_t>(usage.ru_minflt);
  if (other > 0) {
    std::ifstream in("/proc/" + std::to_string(other) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = text.rfind(')');  // the command name may hold spaces
    if (close != std::string::npos) {
      std::istringstream fields(text.substr(close + 2));
      std::string field;
      for (int i = 3; i <= 10 && fields >> field; ++i) {
        if (i == 10) faults += std::strtoull(field.c_str(), nullptr, 10);
      }
    }
  }
  return faults;
}

struct CpuSnapshot {
  double host_us, device_us, spin_us;
  uint64_t sleeps, faults;
  static CpuSnapshot Take(asc_twin::rt::DeviceProcess *device) {
    const asc_twin::rt::DeviceProcess::Stats stats = device->stats();
    return CpuSnapshot{ProcessCpuUs(), OtherProcessCpuUs(stats.pid), stats.dispatcher_spin_ns / 1e3,
                       stats.dispatcher_sleeps, MinorFaults(stats.pid)};
  }
};

// Back to back (idle_us = 0), or after idle_us without work: by then the runtime's waiters may
// have gone to sleep and the launch pays for waking them (README "Launch latency").
LaunchRow MeasureLaunch(aclrtFuncHandle empty, aclrtStream stream, asc_twin::rt::DeviceProcess *device, uint32_t blocks,
                        int reps, int idle_us) {
  uint64_t no_args = 0;
  auto launch = [&] {
    Check(aclrtLaunchKernel(empty, blocks, &no_args, sizeof(no_args), stream), "aclrtLaunchKernel");
    Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
  };
  for (int i = 0; i < std::max(3, reps / 10); ++i) launch();
  std::vector<double> us;
  us.reserve(static_cast<size_t>(reps));
  const CpuSnapshot before = CpuSnapshot::Take(device);
  for (int i = 0; i < reps; ++i) {
    if (idle_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
    us.push_back(MicrosOf(launch));
  }
  const CpuSnapshot after = CpuSnapshot::Take(device);
  std::sort(us.begin(), us.end());
  const double n = reps;
  return LaunchRow{blocks,
                   idle_us,
                   reps,
                   Median(us),
                   us[us.size() * 9 / 10],
                   (after.host_us - before.host_us) / n,
                   (after.device_us - before.device_us) / n,
                   (after.spin_us - before.spin_us) / n,
                   static_cast<double>(after.sleeps - before.sleeps) / n,
                   static_cast<double>(after.faults - before.faults) / n};
}

double GBps(uint64_t n, double us) { return kBytesPerElem * static_cast<double>(n) / us / 1e3; }

}  // namespace

int main(int argc, char **argv) {
  const Options o = ParseOptions(argc, argv);
  Check(aclInit(nullptr), "aclInit");
  Check(aclrtSetDevice(0), "aclrtSetDevice");
  aclrtStream stream = nullptr;
  Check(aclrtCreateStream(&stream), "aclrtCreateStream");
  aclrtBinHandle add_bin = LoadBinary(o.add_path);
  aclrtBinHandle empty_bin = LoadBinary(o.empty_path);
  aclrtFuncHandle add = nullptr, empty = nullptr;
  Check(aclrtBinaryGetFunction(add_bin, "add_custom", &add), "aclrtBinaryGetFunction(add_custom)");
  Check(aclrtBinaryGetFunction(empty_bin, "empty_kernel", &empty), "aclrtBinaryGetFunction(empty_kernel)");

  // The C add gets as many threads as run a launch's blocks.
  const unsigned c_threads = asc_twin::rt::Runtime::Get()->pool().block_threads();
  const unsigned seed = static_cast<unsigned>(std::random_device{}());
  std::mt19937 rng(seed);
  if (o.json) {
    std::printf("{\"kind\": \"setup\", \"soc\": \"%s\", \"threads\": %u, \"tile_num\": %u, \"seed\": %u}\n",
                aclrtGetSocName(), c_threads, o.tile_num, seed);
  } else {
    std::printf(
        "SoC %s; kernel add_custom, 1024 floats a block, 2 x %u tiles of %u floats; C add on %u threads; "
        "seed %u\n\n",
        aclrtGetSocName(), o.tile_num, kElemsPerBlock / 2 / o.tile_num, c_threads, seed);
    std::printf("| %10s | %6s | %5s | %10s | %10s | %10s | %10s | %8s | %6s |\n", "elements", "blocks", "reps",
                "kernel us", "kernel GB/s", "C us", "C GB/s", "kernel/C", "paired");
    std::printf(
        "|-----------:|-------:|------:|-----------:|------------:|-----------:|-----------:|---------:|-------:|\n");
  }
  std::fflush(stdout);
  for (uint64_t n : o.sizes) {
    const AddRow r = MeasureAdd(add, stream, n, o, c_threads, rng);
    if (o.json) {
      std::printf(
          "{\"kind\": \"add\", \"n\": %llu, \"blocks\": %u, \"reps\": %d, \"kernel_us\": %.3f, \"c_us\": %.3f, "
          "\"paired_speed\": %.4f}\n",
          static_cast<unsigned long long>(n), r.blocks, r.reps, r.kernel_us, r.c_us, r.paired_speed);
    } else {
      std::printf("| %10llu | %6u | %5d | %10.1f | %11.2f | %10.1f | %10.2f | %8.2f | %6.2f |\n",
                  static_cast<unsigned long long>(n), r.blocks, r.reps, r.kernel_us, GBps(n, r.kernel_us), r.c_us,
                  GBps(n, r.c_us), r.c_us / r.kernel_us, r.paired_speed);
    }
    std::fflush(stdout);
  }
  if (!o.json) {
    std::printf("\n| %-40s | %5s | %9s | %9s | %8s | %11s | %13s | %10s | %13s | %13s |\n", "launch + synchronize",
                "reps", "median us", "p90 us", "x b2b", "host CPU us", "device CPU us", "polling us", "sleeps/launch",
                "faults/launch");
    std::printf(
        "|------------------------------------------|------:|----------:|----------:|---------:|------------:|"
        "--------------:|-----------:|--------------:|--------------:|\n");
  }
  asc_twin::rt::DeviceProcess *device =
      asc_twin::rt::Runtime::Get()->CurrentContext().value()->device().process().get();
  for (const uint32_t blocks : {1u, 48u}) {
    double back_to_back = 0;
    for (const int idle_us : {0, 1000, 10000}) {
      if (o.launch_reps <= 0) break;
      // Idle cases sleep per repetition: fewer of them (10 ms x 1000 = 10 s otherwise).
      const int reps = idle_us == 0 ? o.launch_reps : std::max(10, o.launch_reps / (idle_us >= 10000 ? 100 : 20));
      const LaunchRow r = MeasureLaunch(empty, stream, device, blocks, reps, idle_us);
      if (idle_us == 0) back_to_back = r.median_us;
      if (o.json) {
        std::printf(
            "{\"kind\": \"launch\", \"blocks\": %u, \"idle_us\": %d, \"reps\": %d, \"median_us\": %.3f, "
            "\"p90_us\": %.3f, \"host_cpu_us\": %.3f, \"device_cpu_us\": %.3f, \"spin_us\": %.3f, "
            "\"sleeps\": %.4f, \"faults\": %.4f}\n",
            r.blocks, r.idle_us, r.reps, r.median_us, r.p90_us, r.host_cpu_us, r.device_cpu_us, r.spin_us, r.sleeps,
            r.faults);
      } else {
        char label[64];
        std::snprintf(label, sizeof(label), "empty kernel, %2u block%s, %s", blocks, blocks == 1 ? " " : "s",
                      idle_us == 0      ? "back to back"
                      : idle_us == 1000 ? "after 1 ms idle"
                                        : "after 10 ms idle");
        std::printf("| %-40s | %5d | %9.2f | %9.2f | %8.2f | %11.2f | %13.2f | %10.2f | %13.3f | %13.3f |\n", label,
                    r.reps, r.median_us, r.p90_us, r.median_us / back_to_back, r.host_cpu_us, r.device_cpu_us,
                    r.spin_us, r.sleeps, r.faults);
      }
      std::fflush(stdout);
    }
  }
  Check(aclrtBinaryUnLoad(add_bin), "aclrtBinaryUnLoad");
  Check(aclrtBinaryUnLoad(empty_bin), "aclrtBinaryUnLoad");
  Check(aclrtDestroyStream(stream), "aclrtDestroyStream");
  Check(aclrtResetDevice(0), "aclrtResetDevice");
  Check(aclFinalize(), "aclFinalize");
  return 0;
}
