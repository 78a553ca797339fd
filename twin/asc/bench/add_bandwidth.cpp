// Bandwidth of a classic Ascend C add kernel (float32, TPipe/TQue double
// buffering, DataCopy + Add) on the twin vs a plain multithreaded C loop, same
// threads and sizes. Prints a table; asserts nothing about time.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "launch_harness.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength) {
    blockLength_ = totalLength / GetBlockNum();
    tileLength_ = tileLength;
    xGm_.SetGlobalBuffer((__gm__ float*)x + blockLength_ * GetBlockIdx(), blockLength_);
    yGm_.SetGlobalBuffer((__gm__ float*)y + blockLength_ * GetBlockIdx(), blockLength_);
    zGm_.SetGlobalBuffer((__gm__ float*)z + blockLength_ * GetBlockIdx(), blockLength_);
    pipe_.InitBuffer(inQueueX_, BUFFER_NUM, tileLength_ * sizeof(float));
    pipe_.InitBuffer(inQueueY_, BUFFER_NUM, tileLength_ * sizeof(float));
    pipe_.InitBuffer(outQueueZ_, BUFFER_NUM, tileLength_ * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint32_t loops = blockLength_ / tileLength_;
    for (uint32_t i = 0; i < loops; i++) {
      LocalTensor<float> x = inQueueX_.AllocTensor<float>();
      LocalTensor<float> y = inQueueY_.AllocTensor<float>();
      DataCopy(x, xGm_[i * tileLength_], tileLength_);
      DataCopy(y, yGm_[i * tileLength_], tileLength_);
      inQueueX_.EnQue(x);
      inQueueY_.EnQue(y);
      x = inQueueX_.DeQue<float>();
      y = inQueueY_.DeQue<float>();
      LocalTensor<float> z = outQueueZ_.AllocTensor<float>();
      Add(z, x, y, tileLength_);
      outQueueZ_.EnQue<float>(z);
      inQueueX_.FreeTensor(x);
      inQueueY_.FreeTensor(y);
      z = outQueueZ_.DeQue<float>();
      DataCopy(zGm_[i * tileLength_], z, tileLength_);
      outQueueZ_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX_, inQueueY_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ_;
  GlobalTensor<float> xGm_, yGm_, zGm_;
  uint32_t blockLength_ = 0, tileLength_ = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile) {
  KernelAdd op;
  op.Init(x, y, z, total, tile);
  op.Process();
}
ASC_TWIN_KERNEL_ENTRY(bench_add)

namespace {
double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

template <typename F>
double Median(int reps, F f) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(Seconds(std::chrono::steady_clock::now() - t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  const uint32_t threads = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 2;
  // Default 8192: 3 queues x 2 buffers x 32 KiB = 192 KiB (the 910B UB).
  const uint32_t tile = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 8192;
  std::printf("%-12s %-8s %-11s %-14s %-15s %-8s\n", "n (float)", "blocks", "twin GB/s", "staged C GB/s", "direct C GB/s",
              "twin/direct");
  for (uint32_t n : {1u << 20, 1u << 23, 1u << 24}) {
    asc_twin_test::DeviceMemory mem;
    float* x = mem.AllocOf<float>(n);
    float* y = mem.AllocOf<float>(n);
    float* z = mem.AllocOf<float>(n);
    for (uint32_t i = 0; i < n; ++i) {
      x[i] = static_cast<float>(i & 1023);
      y[i] = 1.0f;
    }
    std::memset(z, 0, size_t{n} * 4);
    asc_twin_test::Args args;
    args.Add(x).Add(y).Add(z).Add(n).Add(tile);
    const double tw = Median(7, [&] {
      const auto r = asc_twin_test::Launch(__asc_twin_entry_bench_add, "bench_add", threads, args, mem);
      if (!r.ok()) {
        std::fprintf(stderr, "launch failed: %s\n", r.FirstError().c_str());
        std::exit(1);
      }
    });
    for (uint32_t i = 0; i < n; ++i) {
      if (z[i] != x[i] + y[i]) {
        std::fprintf(stderr, "wrong result at %u\n", i);
        return 1;
      }
    }
    const double tc = Median(7, [&] {
      std::vector<std::thread> ts;
      for (uint32_t b = 0; b < threads; ++b) {
        ts.emplace_back([=] {
          const size_t share = n / threads, lo = share * b;
          for (size_t i = lo; i < lo + share; ++i) z[i] = x[i] + y[i];
        });
      }
      for (auto& t : ts) t.join();
    });
    // The same GM -> 192 KiB buffer -> GM staging the kernel does, in plain C.
    const double ts = Median(7, [&] {
      std::vector<std::thread> ts;
      for (uint32_t b = 0; b < threads; ++b) {
        ts.emplace_back([=] {
          std::vector<float> buf(3 * size_t{tile});
          const size_t share = n / threads, lo = share * b;
          for (size_t o = lo; o < lo + share; o += tile) {
            std::memcpy(buf.data(), x + o, tile * 4);
            std::memcpy(buf.data() + tile, y + o, tile * 4);
            for (size_t i = 0; i < tile; ++i) buf[2 * tile + i] = buf[i] + buf[tile + i];
            std::memcpy(z + o, buf.data() + 2 * tile, tile * 4);
          }
        });
      }
      for (auto& t : ts) t.join();
    });
    const double bytes = 12.0 * n;
    std::printf("%-12u %-8u %-11.2f %-14.2f %-15.2f %-8.2f\n", n, threads, bytes / tw / 1e9, bytes / ts / 1e9,
                bytes / tc / 1e9, tc / tw);
  }
  return 0;
}
