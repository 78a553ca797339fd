// Offline runtime benchmark: aclmdlLoadFromFile time and aclmdlExecute median for OMs given on
// the command line, against a plain multithreaded C add on the same device buffers in the same run.
// Prints one row per OM: elements, load median/min (ms), execute median/p90 (us), achieved GB/s
// (12 bytes moved per element: read x and y, write z), C add median and execute/C (C time over
// execute time: 1.0 = as fast as C), and "paired": the median of that ratio over back-to-back
// pairs of runs; then one JSON line per OM ("OM_BENCH_JSON {...}").
// Usage: om_bench <model.om>...   (device SoC from ASCEND_TWIN_SOC_VERSION)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/runtime/bench/c_add.h"

namespace {

constexpr int kLoadRuns = 20;
constexpr int kWarmupRuns = 5;

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
}

void Check(aclError code, const char *what) {
  if (code != ACL_SUCCESS) {
    const char *msg = aclGetRecentErrMsg();
    std::fprintf(stderr, "om_bench: %s failed, error code %d: %s\n", what, static_cast<int>(code), msg ? msg : "");
    std::exit(1);
  }
}

struct Datasets {
  aclmdlDataset *in = nullptr;
  aclmdlDataset *out = nullptr;
  std::vector<void *> mem;
};

Datasets MakeDatasets(aclmdlDesc *desc) {
  Datasets d;
  d.in = aclmdlCreateDataset();
  d.out = aclmdlCreateDataset();
  for (int side = 0; side < 2; ++side) {
    const size_t count = side == 0 ? aclmdlGetNumInputs(desc) : aclmdlGetNumOutputs(desc);
    for (size_t i = 0; i < count; ++i) {
      const size_t size = side == 0 ? aclmdlGetInputSizeByIndex(desc, i) : aclmdlGetOutputSizeByIndex(desc, i);
      void *mem = nullptr;
      Check(aclrtMalloc(&mem, size, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc");
      if (side == 0) {
        std::vector<float> host(size / sizeof(float), static_cast<float>(i) + 0.5f);
        Check(aclrtMemcpy(mem, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
      }
      d.mem.push_back(mem);
      Check(aclmdlAddDatasetBuffer(side == 0 ? d.in : d.out, aclCreateDataBuffer(mem, size)), "aclmdlAddDatasetBuffer");
    }
  }
  return d;
}

void FreeDatasets(Datasets *d) {
  for (aclmdlDataset *set : {d->in, d->out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
      Check(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i)), "aclDestroyDataBuffer");
    }
    Check(aclmdlDestroyDataset(set), "aclmdlDestroyDataset");
  }
  for (void *mem : d->mem) Check(aclrtFree(mem), "aclrtFree");
}

struct Row {
  size_t elements;
  double load_ms, load_min_ms, exec_us, exec_p90_us, c_add_us;
  double paired_speed;  // median over the runs of C add time / execute time, each pair back to back
};

void PrintRow(const Row &r) {
  // 12 bytes per element (read x and y, write z) in exec_us microseconds -> GB/s
  std::printf("| %10zu | %8.3f | %8.3f | %10.2f | %10.2f | %7.2f | %9.2f | %6.2f | %6.2f |\n", r.elements, r.load_ms,
              r.load_min_ms, r.exec_us, r.exec_p90_us, 12.0 * static_cast<double>(r.elements) / r.exec_us / 1e3,
              r.c_add_us, r.c_add_us / r.exec_us, r.paired_speed);
}

void BenchOne(const char *path, std::vector<Row> *rows) {
  std::vector<double> loads;
  for (int i = 0; i < kLoadRuns; ++i) {
    uint32_t id = 0;
    const auto t0 = Clock::now();
    Check(aclmdlLoadFromFile(path, &id), "aclmdlLoadFromFile");
    loads.push_back(Seconds(t0, Clock::now()));
    Check(aclmdlUnload(id), "aclmdlUnload");
  }
  uint32_t id = 0;
  Check(aclmdlLoadFromFile(path, &id), "aclmdlLoadFromFile");
  aclmdlDesc *desc = aclmdlCreateDesc();
  Check(aclmdlGetDesc(desc, id), "aclmdlGetDesc");
  const size_t elements = aclmdlGetOutputSizeByIndex(desc, 0) / sizeof(float);
  Datasets d = MakeDatasets(desc);
  // The C add on the same device buffers (x, y inputs; z the output), as many threads as cores.
  const auto *x = static_cast<const float *>(d.mem[0]);
  const auto *y = static_cast<const float *>(d.mem[1]);
  auto *z = static_cast<float *>(d.mem[2]);
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  // Enough runs for a stable median without spending long on the large model. Execute and C add
  // alternate, so that both see the same machine load (the host is shared; one after the other,
  // a change of load between the two halves moved the ratio by 0.3).
  const int runs = elements <= (1u << 16) ? 2000 : 40;
  for (int i = 0; i < kWarmupRuns; ++i) {
    Check(aclmdlExecute(id, d.in, d.out), "aclmdlExecute");
    asc_twin_bench::CAdd(x, y, z, elements, threads);
  }
  std::vector<double> execs, c_adds;
  for (int i = 0; i < runs; ++i) {
    auto t0 = Clock::now();
    Check(aclmdlExecute(id, d.in, d.out), "aclmdlExecute");
    execs.push_back(Seconds(t0, Clock::now()));
    t0 = Clock::now();
    asc_twin_bench::CAdd(x, y, z, elements, threads);
    c_adds.push_back(Seconds(t0, Clock::now()));
  }
  const double median = Quantile(execs, 0.5);
  const double c_median = Quantile(c_adds, 0.5);
  // Each execute and the C add right after it saw nearly the same machine: the median of their
  // ratios moves less with the load of other processes than the ratio of the two medians.
  std::vector<double> pairs;
  for (size_t i = 0; i < execs.size(); ++i) pairs.push_back(c_adds[i] / execs[i]);
  const double paired = Quantile(pairs, 0.5);
  rows->push_back(Row{elements, Quantile(loads, 0.5) * 1e3, *std::min_element(loads.begin(), loads.end()) * 1e3,
                      median * 1e6, Quantile(execs, 0.9) * 1e6, c_median * 1e6, paired});
  PrintRow(rows->back());
  FreeDatasets(&d);
  Check(aclmdlDestroyDesc(desc), "aclmdlDestroyDesc");
  Check(aclmdlUnload(id), "aclmdlUnload");
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <model.om>...\n", argv[0]);
    return 2;
  }
  Check(aclInit(nullptr), "aclInit");
  Check(aclrtSetDevice(0), "aclrtSetDevice");
  std::printf("| %10s | %8s | %8s | %10s | %10s | %7s | %9s | %6s | %6s |\n", "elements", "load ms", "load min",
              "exec med us", "exec p90 us", "GB/s", "C add us", "exec/C", "paired");
  std::printf(
      "|-----------:|---------:|---------:|-----------:|-----------:|--------:|----------:|-------:|-------:|\n");
  std::vector<Row> rows;
  for (int i = 1; i < argc; ++i) BenchOne(argv[i], &rows);
  for (const Row &r : rows) {
    std::printf(
        "OM_BENCH_JSON {\"elements\": %zu, \"load_ms\": %.4f, \"load_min_ms\": %.4f, \"exec_us\": %.3f, "
        "\"exec_p90_us\": %.3f, \"c_add_us\": %.3f, \"paired_speed\": %.4f}\n",
        r.elements, r.load_ms, r.load_min_ms, r.exec_us, r.exec_p90_us, r.c_add_us, r.paired_speed);
  }
  Check(aclrtResetDevice(0), "aclrtResetDevice");
  Check(aclFinalize(), "aclFinalize");
  return 0;
}
