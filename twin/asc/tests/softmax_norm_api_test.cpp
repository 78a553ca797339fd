// The SoftMax family and normalisation APIs of the high-level API (adv_api) run in a kernel on
// random data (seed printed) against double-precision references of CANN's documented formulas,
// for float and half; and their traps: a sharedTmpBuffer below the tiling API's minimum, a last
// axis that is not 32-byte aligned. Tolerances next to each check: float 2e-5 relative + 1e-6,
// half 4e-3 (one half rounding of a float result is 2^-11 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "kernel_tiling/softmax_norm_tmp_size.h"
#include "launch_harness.h"

using namespace AscendC;
using namespace asc_twin_test;

namespace {

enum Api : uint32_t { kSoftMax, kLogSoftMax, kFlashV2Update, kGrad, kLayerNorm, kRmsNorm, kDeepNorm };

// x, x2 [m, k]; g, b [k]; y [m, k]; s1, s2 [m, 8] float statistics or [m] for the norms.
template <typename T>
__aicore__ inline void Probe(GM_ADDR x, GM_ADDR x2, GM_ADDR g, GM_ADDR b, GM_ADDR y, GM_ADDR s1, GM_ADDR s2,
                             uint32_t api, uint32_t m, uint32_t k, uint32_t tmpBytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, bx2, bg, bb, by, b1, b2, b3, b4, bt;
  const uint32_t n = m * k;
  constexpr uint32_t blk = 32 / sizeof(T);
  const uint32_t ka = (k + blk - 1) / blk * blk;  // gamma/beta copies stay whole blocks
  pipe.InitBuffer(bx, n * sizeof(T));
  pipe.InitBuffer(bx2, n * sizeof(T));
  pipe.InitBuffer(bg, ka * sizeof(T));
  pipe.InitBuffer(bb, ka * sizeof(T));
  pipe.InitBuffer(by, n * sizeof(T));
  pipe.InitBuffer(b1, m * 32);
  pipe.InitBuffer(b2, m * 32);
  pipe.InitBuffer(b3, m * 32);
  pipe.InitBuffer(b4, m * 32);
  pipe.InitBuffer(bt, tmpBytes);
  GlobalTensor<T> gx, gx2, gg, gb, gy, g1, g2;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
  gx2.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x2), n);
  gg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(g), ka);
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), ka);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
  g1.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s1), m * blk);
  g2.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(s2), m * blk);
  LocalTensor<T> lx = bx.Get<T>(), lx2 = bx2.Get<T>(), lg = bg.Get<T>(), lb = bb.Get<T>(), ly = by.Get<T>();
  LocalTensor<T> l1 = b1.Get<T>(), l2 = b2.Get<T>(), l3 = b3.Get<T>(), l4 = b4.Get<T>();
  LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
  DataCopy(lx, gx, n);
  DataCopy(lx2, gx2, n);
  DataCopy(lg, gg, ka);
  DataCopy(lb, gb, ka);
  DataCopy(l3, g1, m * blk);  // flash: inMax
  DataCopy(l4, g2, m * blk);  // flash: inExpSum
  const SoftMaxShapeInfo shape{m, k, m, k};
  SoftMaxTiling st{};
  st.srcM = m;
  st.srcK = k;
  const T eps = static_cast<T>(1e-5f);
  switch (api) {
    case kSoftMax:
      SoftMax<T>(ly, l2, l1, lx, tmp, st, shape);
      break;
    case kLogSoftMax: {
      LogSoftMaxTiling lt{};
      LogSoftMax<T>(ly, l2, l1, lx, tmp, lt, shape);
      break;
    }
    case kFlashV2Update:
      SoftmaxFlashV2<T, true>(ly, l2, l1, lx, lx2, l4, l3, tmp, st, shape);  // expMax into lx2's first rows
      break;
    case kGrad:
      SoftmaxGrad<T>(ly, lx, lx2, tmp, st, false, shape);
      break;
    case kLayerNorm: {
      LayerNormTiling t{};
      t.bLength = 1;
      t.sLength = m;
      t.hLength = k;
      t.originalHLength = k;
      LayerNorm<T>(ly, l1, l2, lx, lg, lb, tmp, eps, t);
      break;
    }
    case kRmsNorm: {
      RmsNormTiling t{};
      t.bLength = 1;
      t.sLength = m;
      t.hLength = k;
      t.originalHLength = k;
      RmsNorm<T>(ly, lx, lg, tmp, eps, t);
      break;
    }
    case kDeepNorm: {
      DeepNormTiling t{};
      t.bLength = 1;
      t.sLength = m;
      t.hLength = k;
      t.originalHLength = k;
      DeepNorm<T>(ly, l1, l2, lx, lx2, lb, lg, tmp, static_cast<T>(0.75f), eps, t);
      break;
    }
    default:
      break;
  }
  DataCopy(gy, ly, n);
  if (api == kFlashV2Update) DataCopy(gx2, lx2, m * blk);
  DataCopy(g1, l1, m * blk);
  DataCopy(g2, l2, m * blk);
}

extern "C" __global__ __aicore__ void adv_probe_f32(GM_ADDR x, GM_ADDR x2, GM_ADDR g, GM_ADDR b, GM_ADDR y, GM_ADDR s1,
                                                    GM_ADDR s2, uint32_t api, uint32_t m, uint32_t k, uint32_t tmp) {
  Probe<float>(x, x2, g, b, y, s1, s2, api, m, k, tmp);
}
ASC_TWIN_KERNEL_ENTRY(adv_probe_f32)
extern "C" __global__ __aicore__ void adv_probe_f16(GM_ADDR x, GM_ADDR x2, GM_ADDR g, GM_ADDR b, GM_ADDR y, GM_ADDR s1,
                                                    GM_ADDR s2, uint32_t api, uint32_t m, uint32_t k, uint32_t tmp) {
  Probe<half>(x, x2, g, b, y, s1, s2, api, m, k, tmp);
}
ASC_TWIN_KERNEL_ENTRY(adv_probe_f16)

std::mt19937_64& Rng() {
  static std::mt19937_64 rng(Seed());
  return rng;
}

template <typename T>
struct ProbeRun {
  uint32_t m, k;
  std::vector<T> x, x2, g, b, y, s1, s2;
  std::string error;
};

template <typename T>
ProbeRun<T> Go(Api api, uint32_t m, uint32_t k, uint32_t tmpBytes = 0) {
  ProbeRun<T> r{m, k, {}, {}, {}, {}, {}, {}, {}, ""};
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  auto fill = [&](std::vector<T>& v, size_t n, float lo) {
    v.resize(n);
    for (auto& e : v) e = static_cast<T>(lo + u(Rng()));
  };
  constexpr uint32_t blk = 32 / sizeof(T);
  fill(r.x, size_t{m} * k, 0.0f);
  fill(r.x2, size_t{m} * k, 0.0f);
  fill(r.g, (k + blk - 1) / blk * blk, 0.0f);
  fill(r.b, (k + blk - 1) / blk * blk, 0.0f);
  fill(r.s1, size_t{m} * blk, 0.0f);
  fill(r.s2, size_t{m} * blk, 4.0f);  // flash: a positive inExpSum
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 1; j < blk; ++j) {
      r.s1[i * blk + j] = r.s1[i * blk];
      r.s2[i * blk + j] = r.s2[i * blk];
    }
  DeviceMemory mem;
  auto put = [&](const std::vector<T>& v) {
    T* p = mem.AllocOf<T>(v.size());
    std::copy(v.begin(), v.end(), p);
    return p;
  };
  T *x = put(r.x), *x2 = put(r.x2), *g = put(r.g), *b = put(r.b), *s1 = put(r.s1), *s2 = put(r.s2);
  T* y = mem.AllocOf<T>(size_t{m} * k);
  if (tmpBytes == 0) tmpBytes = AscendC::tiling::twin_tmp::RowBytes(k, 2);
  Args a;
  a.Add(x).Add(x2).Add(g).Add(b).Add(y).Add(s1).Add(s2).Add(static_cast<uint32_t>(api)).Add(m).Add(k).Add(tmpBytes);
  const LaunchResult res =
      Launch(sizeof(T) == 4 ? __asc_twin_entry_adv_probe_f32 : __asc_twin_entry_adv_probe_f16, "adv_probe", 1, a, mem);
  r.error = res.FirstError();
  r.y.assign(y, y + size_t{m} * k);
  r.x2.assign(x2, x2 + size_t{m} * k);
  r.s1.assign(s1, s1 + size_t{m} * blk);
  r.s2.assign(s2, s2 + size_t{m} * blk);
  return r;
}

template <typename T>
double Tol(double ref) {
  return sizeof(T) == 4 ? 2e-5 * std::fabs(ref) + 1e-6 : 4e-3 * std::fabs(ref) + 1e-3;
}

template <typename T>
void CheckSoftmaxFamily() {
  const uint32_t m = 5, k = 64;
  constexpr uint32_t blk = 32 / sizeof(T);
  for (Api api : {kSoftMax, kLogSoftMax, kFlashV2Update}) {
    // the inputs as the kernel saw them (flash reads inMax / inExpSum from s1 / s2)
    ProbeRun<T> r = Go<T>(api, m, k);
    ASSERT_EQ(r.error, "") << "api " << api;
    for (uint32_t i = 0; i < m; ++i) {
      double mx = -1e300;
      for (uint32_t j = 0; j < k; ++j) mx = std::max(mx, double(float(r.x[i * k + j])));
      // statistics land in every lane of the row's block
      for (uint32_t j = 1; j < blk; ++j) ASSERT_EQ(float(r.s1[i * blk + j]), float(r.s1[i * blk])) << "max block";
      if (api == kFlashV2Update) continue;  // checked below with its inputs
      double sum = 0;
      for (uint32_t j = 0; j < k; ++j) sum += std::exp(double(float(r.x[i * k + j])) - mx);
      EXPECT_NEAR(float(r.s1[i * blk]), mx, Tol<T>(mx)) << "row " << i;
      EXPECT_NEAR(float(r.s2[i * blk]), sum, Tol<T>(sum)) << "row " << i;
      for (uint32_t j = 0; j < k; ++j) {
        const double e = std::exp(double(float(r.x[i * k + j])) - mx) / sum;
        const double ref = api == kSoftMax ? e : std::log10(e);
        ASSERT_NEAR(float(r.y[i * k + j]), ref, Tol<T>(ref)) << "api " << api << " row " << i << " col " << j;
      }
    }
  }
}

TEST(AdvSoftmax, SoftMaxAndLogSoftMaxFloat) { CheckSoftmaxFamily<float>(); }
TEST(AdvSoftmax, SoftMaxAndLogSoftMaxHalf) { CheckSoftmaxFamily<half>(); }

TEST(AdvSoftmax, FlashV2UpdateJoinsThePreviousMaxAndSum) {
  const uint32_t m = 4, k = 32;
  std::mt19937_64 saved = Rng();
  ProbeRun<float> r = Go<float>(kFlashV2Update, m, k);
  ASSERT_EQ(r.error, "");
  // regenerate the inputs the kernel saw from the same generator state
  Rng() = saved;
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> x(m * k), x2(m * k), g(k), b(k), s1(m * 8), s2(m * 8);
  for (auto* v : {&x, &x2, &g, &b, &s1})
    for (auto& e : *v) e = u(Rng());
  for (auto& e : s2) e = 4.0f + u(Rng());
  for (uint32_t i = 0; i < m; ++i) {
    const double inMax = s1[i * 8], inSum = s2[i * 8];
    double mx = inMax;
    for (uint32_t j = 0; j < k; ++j) mx = std::max(mx, double(x[i * k + j]));
    double sum = 0;
    for (uint32_t j = 0; j < k; ++j) sum += std::exp(x[i * k + j] - mx);
    const double em = std::exp(inMax - mx);
    EXPECT_NEAR(r.s1[i * 8], mx, Tol<float>(mx));
    EXPECT_NEAR(r.s2[i * 8], em * inSum + sum, Tol<float>(em * inSum + sum));
    EXPECT_NEAR(r.x2[i * 8], em, Tol<float>(em));  // expMax
    for (uint32_t j = 0; j < k; ++j) ASSERT_NEAR(r.y[i * k + j], std::exp(x[i * k + j] - mx), 1e-6);
  }
}

template <typename T>
void CheckGradAndNorms() {
  const uint32_t m = 6, k = 64;
  for (Api api : {kGrad, kLayerNorm, kRmsNorm, kDeepNorm}) {
    ProbeRun<T> r = Go<T>(api, m, k);
    ASSERT_EQ(r.error, "") << "api " << api;
    // r.x2 was not written for these APIs: it is still the input
    for (uint32_t i = 0; i < m; ++i) {
      std::vector<double> v(k);
      for (uint32_t j = 0; j < k; ++j) {
        const double a = float(r.x[i * k + j]);
        v[j] = api == kDeepNorm ? double(float(T(0.75f))) * a + double(float(r.x2[i * k + j])) : a;
      }
      double mean = 0, sq = 0, dot = 0;
      for (uint32_t j = 0; j < k; ++j) {
        mean += v[j];
        sq += v[j] * v[j];
        dot += double(float(r.x[i * k + j])) * double(float(r.x2[i * k + j]));
      }
      mean /= k;
      double var = 0;
      for (uint32_t j = 0; j < k; ++j) var += (v[j] - mean) * (v[j] - mean);
      var /= k;
      const double eps = double(float(T(1e-5f)));
      for (uint32_t j = 0; j < k; ++j) {
        const double gj = float(r.g[j]), bj = float(r.b[j]);
        double ref;
        if (api == kGrad) {
          ref = (double(float(r.x[i * k + j])) - dot) * double(float(r.x2[i * k + j]));
        } else if (api == kRmsNorm) {
          ref = v[j] / std::sqrt(sq / k + eps) * gj;
        } else {
          ref = (v[j] - mean) / std::sqrt(var + eps) * gj + bj;
        }
        ASSERT_NEAR(float(r.y[i * k + j]), ref, 4 * Tol<T>(ref) + (sizeof(T) == 2 ? 1e-2 : 1e-5))
            << "api " << api << " row " << i << " col " << j;
      }
      if (api == kLayerNorm || api == kDeepNorm) {
        EXPECT_NEAR(float(r.s1[i]), mean, Tol<T>(mean) + 1e-5) << "mean row " << i;
        EXPECT_NEAR(float(r.s2[i]), var, 4 * Tol<T>(var) + 1e-5) << "variance row " << i;
      }
    }
  }
}

TEST(AdvNorm, GradLayerNormRmsNormDeepNormFloat) { CheckGradAndNorms<float>(); }
TEST(AdvNorm, GradLayerNormRmsNormDeepNormHalf) { CheckGradAndNorms<half>(); }

TEST(AdvTraps, TmpBufferBelowTheMinimum) {
  const uint32_t k = 64;
  const uint32_t min = AscendC::tiling::twin_tmp::RowBytes(k, 1);
  ProbeRun<float> r = Go<float>(kSoftMax, 2, k, min - 32);
  EXPECT_NE(r.error.find("SoftMax: sharedTmpBuffer holds " + std::to_string(min - 32) +
                         " bytes, below the minimum of " + std::to_string(min)),
            std::string::npos)
      << r.error;
  ProbeRun<float> ok = Go<float>(kSoftMax, 2, k, min);
  EXPECT_EQ(ok.error, "");
  ProbeRun<half> ln = Go<half>(kLayerNorm, 2, k, 32);
  EXPECT_NE(ln.error.find("LayerNorm: sharedTmpBuffer holds 32 bytes"), std::string::npos) << ln.error;
}

TEST(AdvTraps, LastAxisNotAligned) {
  ProbeRun<float> r = Go<float>(kSoftMax, 8, 12);
  EXPECT_NE(r.error.find("SoftMax: srcK 12 is not 32-byte aligned"), std::string::npos) << r.error;
  ProbeRun<half> n = Go<half>(kRmsNorm, 8, 24);
  EXPECT_NE(n.error.find("RmsNorm: the last axis length 24 is not 32-byte aligned"), std::string::npos) << n.error;
}

}  // namespace
