// Benchmark (not a test): SoftMax, LayerNorm and RmsNorm kernels of the high-level API on a
// rows x cols fp32 tensor, every block (one thread each, as the twin's device runs them) taking
// its share of the rows in UB tiles: GM -> UB, the API, UB -> GM. Prints one JSON object of
// seconds per API (best of --repeat). softmax_norm_bench.py compares it with numpy.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "kernel_tiling/softmax_norm_tmp_size.h"
#include "launch_harness.h"

using namespace AscendC;

namespace {

constexpr uint32_t kTileRows = 4;

extern "C" __global__ __aicore__ void adv_bench(GM_ADDR x, GM_ADDR g, GM_ADDR b, GM_ADDR y, uint32_t api, uint32_t rows,
                                                uint32_t cols) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by, bg, bb, bs1, bs2, bt;
  const uint32_t tile = kTileRows * cols;
  pipe.InitBuffer(bx, tile * 4);
  pipe.InitBuffer(by, tile * 4);
  pipe.InitBuffer(bg, cols * 4);
  pipe.InitBuffer(bb, cols * 4);
  pipe.InitBuffer(bs1, kTileRows * 32);
  pipe.InitBuffer(bs2, kTileRows * 32);
  pipe.InitBuffer(bt, AscendC::tiling::twin_tmp::RowBytes(cols, 1));
  const uint32_t per = (rows + GetBlockNum() - 1) / GetBlockNum();
  const uint32_t first = per * GetBlockIdx(), last = std::min(rows, first + per);
  GlobalTensor<float> gx, gy, gg, gb;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), uint64_t{rows} * cols);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), uint64_t{rows} * cols);
  gg.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(g), cols);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(b), cols);
  LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lg = bg.Get<float>(), lb = bb.Get<float>();
  LocalTensor<float> s1 = bs1.Get<float>(), s2 = bs2.Get<float>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(lg, gg, cols);
  DataCopy(lb, gb, cols);
  for (uint32_t r = first; r < last; r += kTileRows) {
    const uint32_t m = std::min(kTileRows, last - r);
    DataCopy(lx, gx[uint64_t{r} * cols], m * cols);
    if (api == 0) {
      SoftMaxTiling st{};
      SoftMax<float>(ly, s2, s1, lx, tmp, st, SoftMaxShapeInfo{m, cols, m, cols});
    } else if (api == 1) {
      LayerNormTiling t{};
      t.bLength = 1;
      t.sLength = m;
      t.hLength = cols;
      t.originalHLength = cols;
      LayerNorm<float>(ly, s1, s2, lx, lg, lb, tmp, 1e-5f, t);
    } else {
      RmsNormTiling t{};
      t.bLength = 1;
      t.sLength = m;
      t.hLength = cols;
      t.originalHLength = cols;
      RmsNorm<float>(ly, lx, lg, tmp, 1e-5f, t);
    }
    DataCopy(gy[uint64_t{r} * cols], ly, m * cols);
  }
}
ASC_TWIN_KERNEL_ENTRY(adv_bench)

}  // namespace

int main(int argc, char** argv) {
  uint32_t rows = 4096, cols = 4096, repeat = 5;
  uint32_t blocks = std::max(1u, std::thread::hardware_concurrency());
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i];
    const uint32_t v = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
    if (k == "--rows")
      rows = v;
    else if (k == "--cols")
      cols = v;
    else if (k == "--repeat")
      repeat = v;
    else if (k == "--blocks")
      blocks = v;
  }
  asc_twin_test::DeviceMemory mem;
  const size_t n = size_t{rows} * cols;
  float* x = mem.AllocOf<float>(n);
  float* y = mem.AllocOf<float>(n);
  float* g = mem.AllocOf<float>(cols);
  float* b = mem.AllocOf<float>(cols);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  for (size_t i = 0; i < n; ++i) x[i] = u(rng);
  for (uint32_t i = 0; i < cols; ++i) g[i] = u(rng), b[i] = u(rng);
  const char* names[3] = {"SoftMax", "LayerNorm", "RmsNorm"};
  std::printf("{\"rows\": %u, \"cols\": %u, \"blocks\": %u", rows, cols, blocks);
  for (uint32_t api = 0; api < 3; ++api) {
    double best = 1e30;
    for (uint32_t rep = 0; rep < repeat; ++rep) {
      asc_twin_test::Args a;
      a.Add(x).Add(g).Add(b).Add(y).Add(api).Add(rows).Add(cols);
      const auto t0 = std::chrono::steady_clock::now();
      const asc_twin_test::LaunchResult res =
          asc_twin_test::Launch(__asc_twin_entry_adv_bench, "adv_bench", blocks, a, mem);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!res.ok()) {
        std::fprintf(stderr, "%s: %s\n", names[api], res.FirstError().c_str());
        return 1;
      }
      best = std::min(best, s);
    }
    std::printf(", \"%s\": %.6f", names[api], best);
  }
  std::printf("}\n");
  return 0;
}
