// Launch-overhead benchmark of the runtime twin: median and p90 microseconds of
// aclrtLaunchKernel + aclrtSynchronizeStream for kernels given on the command line.
//
//   launch_overhead --binary=<test device binary> [--add_custom=<bisheng add_custom binary>]
//                   [--iterations=N]
//
// Each case names a binary and kernel, a block count, how to build its arguments and how many
// bytes one launch moves (for GB/s), so another kernel plugs in by adding a row to Cases().
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

struct BenchCase {
  std::string label;
  std::string binary;  // key of the --<key>=<path> argument
  std::string kernel;
  uint32_t blocks;
  // Builds the argument slots; may allocate device memory (released by *cleanup).
  std::function<std::vector<uint64_t>(std::function<void()> *cleanup)> make_args;
  double bytes_moved = 0;  // per launch, for GB/s (0: not reported)
};

std::vector<uint64_t> NoArgs(std::function<void()> *) { return {0}; }

// add_custom(x, y, z, total_length, tile_num) on `total` floats of device memory.
std::function<std::vector<uint64_t>(std::function<void()> *)> AddArgs(uint32_t total, uint32_t tile_num) {
  return [total, tile_num](std::function<void()> *cleanup) {
    const size_t bytes = size_t{total} * sizeof(float);
    void *x = nullptr, *y = nullptr, *z = nullptr;
    aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    std::vector<float> host(total);
    for (uint32_t i = 0; i < total; ++i) host[i] = static_cast<float>(i % 1000) * 0.5f;
    aclrtMemcpy(x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    *cleanup = [x, y, z] {
      aclrtFree(x);
      aclrtFree(y);
      aclrtFree(z);
    };
    return std::vector<uint64_t>{reinterpret_cast<uint64_t>(x), reinterpret_cast<uint64_t>(y),
                                 reinterpret_cast<uint64_t>(z), total, tile_num};
  };
}

std::vector<BenchCase> Cases() {
  // add_custom: 48 blocks x 8 tiles x 2 buffers x 2048 floats (8 KiB tiles).
  constexpr uint32_t kAddTotal = 48u * 8u * 2u * 2048u;
  return {
      {"empty kernel, 1 block", "binary", "empty_kernel", 1, NoArgs},
      {"empty kernel, 8 blocks", "binary", "empty_kernel", 8, NoArgs},
      {"empty kernel, 48 blocks", "binary", "empty_kernel", 48, NoArgs},
      {"add_custom 16 floats, 1 block", "add_custom", "add_custom", 1, AddArgs(16, 1), 12.0 * 16},
      {"add_custom 1.5M floats, 48 blk", "add_custom", "add_custom", 48, AddArgs(kAddTotal, 8), 12.0 * kAddTotal},
  };
}

bool Check(aclError rc, const char *what) {
  if (rc == ACL_SUCCESS) return true;
  const char *msg = aclGetRecentErrMsg();
  std::fprintf(stderr, "launch_overhead: %s failed with %d: %s\n", what, rc, msg ? msg : "");
  return false;
}

double Percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * static_cast<double>(values.size() - 1))];
}

}  // namespace

int main(int argc, char **argv) {
  std::map<std::string, std::string> paths;  // --binary=..., --add_custom=...
  int iterations = 5000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--iterations=", 0) == 0) {
      iterations = std::max(10, std::atoi(arg.c_str() + 13));
    } else if (arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      paths[arg.substr(2, eq - 2)] = arg.substr(eq + 1);
    } else {
      std::fprintf(stderr, "launch_overhead: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  if (paths.count("binary") == 0) {
    std::fprintf(stderr, "launch_overhead: --binary=<test device binary> is required\n");
    return 2;
  }

  if (!Check(aclInit(nullptr), "aclInit") || !Check(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
  aclrtStream stream = nullptr;
  if (!Check(aclrtCreateStream(&stream), "aclrtCreateStream")) return 1;
  std::map<std::string, aclrtBinHandle> binaries;
  for (const auto &[key, path] : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "launch_overhead: cannot read --%s=%s\n", key.c_str(), path.c_str());
      return 2;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!Check(aclrtBinaryLoadFromData(bytes.data(), bytes.size(), nullptr, &binaries[key]),
               "aclrtBinaryLoadFromData")) {
      return 1;
    }
  }
  std::printf("SoC %s, %d iterations per case (after %d warm-up)\n", aclrtGetSocName(), iterations, iterations / 10);
  std::printf("| %-31s | %10s | %10s | %10s | %12s |\n", "case (launch + synchronize)", "median us", "p90 us",
              "min us", "GB/s @median");
  std::printf("|%s|%s|%s|%s|%s|\n", std::string(33, '-').c_str(), std::string(12, '-').c_str(),
              std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(14, '-').c_str());
  for (const BenchCase &bench : Cases()) {
    if (binaries.count(bench.binary) == 0) {
      std::printf("| %-31s | %10s | %10s | %10s | %12s |\n", bench.label.c_str(), "skipped", "", "",
                  ("no --" + bench.binary).c_str());
      continue;
    }
    aclrtFuncHandle func = nullptr;
    if (!Check(aclrtBinaryGetFunction(binaries[bench.binary], bench.kernel.c_str(), &func),
               "aclrtBinaryGetFunction")) {
      return 1;
    }
    std::function<void()> cleanup;
    const std::vector<uint64_t> args = bench.make_args(&cleanup);
    std::vector<double> micros;
    micros.reserve(static_cast<size_t>(iterations));
    for (int i = -iterations / 10; i < iterations; ++i) {
      const auto start = std::chrono::steady_clock::now();
      if (!Check(aclrtLaunchKernel(func, bench.blocks, args.data(), args.size() * 8, stream), "aclrtLaunchKernel") ||
          !Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) {
        return 1;
      }
      const auto stop = std::chrono::steady_clock::now();
      if (i >= 0) micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    }
    if (cleanup) cleanup();
    const double median = Percentile(micros, 0.5);
    char gbps[32] = "-";
    if (bench.bytes_moved > 0) std::snprintf(gbps, sizeof(gbps), "%.2f", bench.bytes_moved / median / 1e3);
    std::printf("| %-31s | %10.2f | %10.2f | %10.2f | %12s |\n", bench.label.c_str(), median, Percentile(micros, 0.9),
                Percentile(micros, 0.0), gbps);
  }
  for (auto &entry : binaries) Check(aclrtBinaryUnLoad(entry.second), "aclrtBinaryUnLoad");
  Check(aclrtDestroyStream(stream), "aclrtDestroyStream");
  Check(aclrtResetDevice(0), "aclrtResetDevice");
  Check(aclFinalize(), "aclFinalize");
  return 0;
}
