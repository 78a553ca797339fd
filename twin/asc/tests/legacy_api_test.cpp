// Older spellings kernels still use: tik2::ParamOffset (converting to GM_ADDR and to a typed GM
// pointer) and code that defines `__aicore__` as bisheng's `[aicore]` outside CPU-debug builds.
// Random data, seed printed, against the per-block reference.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "launch_harness.h"

#ifndef ASCENDC_CPU_DEBUG
#undef __aicore__
#define __aicore__ [aicore]
#endif

using namespace AscendC;
using namespace asc_twin_test;

namespace {
__aicore__ inline float Twice(float v) { return 2.0f * v; }

class ScaleOp {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t n) {
    // The first samples hand the per-block pointer on as GM_ADDR, or keep it typed.
    GM_ADDR xBlock = tik2::ParamOffset<float>(x, n);
    zBlock_ = tik2::ParamOffset<float>(z, n);
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(xBlock), n);
    n_ = n;
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < n_; ++i) zBlock_[i] = Twice(xGm_.GetValue(i)) + static_cast<float>(block_idx);
  }

 private:
  GlobalTensor<float> xGm_;
  __gm__ float* zBlock_ = nullptr;
  uint32_t n_ = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void param_offset_probe(GM_ADDR x, GM_ADDR z, uint32_t n) {
  ScaleOp op;
  op.Init(x, z, n);
  op.Process();
}
ASC_TWIN_KERNEL_ENTRY(param_offset_probe)

TEST(LegacyApi, ParamOffsetPerBlockThroughGmAddr) {
  constexpr uint32_t kBlocks = 3, kN = 40;
  std::mt19937_64 rng(Seed());
  std::uniform_real_distribution<float> d(-50.0f, 50.0f);
  DeviceMemory mem;
  float* x = mem.AllocOf<float>(kBlocks * kN);
  float* z = mem.AllocOf<float>(kBlocks * kN);
  for (uint32_t i = 0; i < kBlocks * kN; ++i) x[i] = d(rng);
  Args a;
  a.Add(x).Add(z).Add(kN);
  const LaunchResult r = Launch(__asc_twin_entry_param_offset_probe, "param_offset_probe", kBlocks, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t b = 0; b < kBlocks; ++b) {
    for (uint32_t i = 0; i < kN; ++i) {
      ASSERT_EQ(z[b * kN + i], 2.0f * x[b * kN + i] + static_cast<float>(b)) << "block " << b << " element " << i;
    }
  }
}
