// Count-form vector APIs and Cast, run through the kernel entry points on
// 1, 3 and 8 concurrent blocks, against scalar references on random data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "launch_harness.h"
#include "ref_numeric.h"
#include "test_kernels.h"

using namespace asc_twin_test;

namespace {

constexpr uint32_t kTilesPerBlock = 5;  // odd: depth-2 pipelines also run a lone tile
const uint32_t kBlockCounts[] = {1, 3, 8};

template <typename T>
uint32_t TileElems() {
  return 1024 / sizeof(T);  // 1 KiB tiles
}

std::mt19937_64& Rng() {
  static thread_local std::mt19937_64 rng(Seed());
  return rng;
}

template <typename T>
std::vector<T> Random(size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_integral<T>::value) {
      std::uniform_int_distribution<int64_t> di(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
      x = static_cast<T>(di(Rng()));
    } else {
      x = T(d(Rng()));
    }
  }
  return v;
}

template <typename T>
T* ToDevice(DeviceMemory& mem, const std::vector<T>& v) {
  T* p = mem.AllocOf<T>(v.size());
  std::memcpy(static_cast<void*>(p), v.data(), v.size() * sizeof(T));
  return p;
}

double Val(float x) { return x; }
double Val(half x) { return RefHalfValue(x.val); }
double Val(int32_t x) { return x; }
double Val(int16_t x) { return x; }

// Exact reference rounding of a real result to T.
template <typename T>
T Round(double v) {
  if constexpr (std::is_same<T, half>::value)
    return half::FromBits(RefToHalf(v));
  else if constexpr (std::is_same<T, float>::value)
    return static_cast<float>(v);
  else
    return static_cast<T>(static_cast<int64_t>(v));
}

template <typename T>
int64_t Ulps(T a, T b) {
  if constexpr (std::is_same<T, half>::value)
    return UlpDiff16(a.val, b.val);
  else if constexpr (std::is_same<T, float>::value)
    return UlpDiff32(a, b);
  else
    return a == b ? 0 : 1 << 30;
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;  // NOLINT(bugprone-suspicious-memory-comparison): bits, by name
}

template <typename T>
std::string Show(T v) {
  return std::to_string(Val(v));
}

template <typename T>
void ExpectWithin(const std::vector<T>& got, const std::vector<T>& want, int64_t maxUlps, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  int64_t worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const bool bothNan = std::isnan(Val(got[i])) && std::isnan(Val(want[i]));
    const int64_t u = bothNan ? 0 : Ulps(got[i], want[i]);
    worst = std::max(worst, u);
    ASSERT_LE(u, maxUlps) << what << " at " << i << ": got " << Show(got[i]) << " want " << Show(want[i]);
  }
  if (maxUlps > 0)
    std::printf("  %-28s max error %lld ULP (bound %lld)\n", what.c_str(), (long long)worst, (long long)maxUlps);
}

template <typename T>
std::vector<T> FromDevice(const T* p, size_t n) {
  std::vector<T> v(n);
  std::memcpy(static_cast<void*>(v.data()), p, n * sizeof(T));
  return v;
}

// Runs a (x, y, z, total, tile, op) kernel.
template <typename T>
std::vector<T> RunBinary(AscTwinEntryFn entry, uint32_t blocks, uint32_t op, const std::vector<T>& x,
                         const std::vector<T>& y) {
  DeviceMemory mem;
  T* dx = ToDevice(mem, x);
  T* dy = ToDevice(mem, y);
  T* dz = mem.AllocOf<T>(x.size());
  Args a;
  a.Add(dx).Add(dy).Add(dz).Add(static_cast<uint32_t>(x.size())).Add(TileElems<T>()).Add(op);
  const LaunchResult r = Launch(entry, "binary", blocks, a, mem);
  EXPECT_TRUE(r.ok()) << r.FirstError();
  return FromDevice(dz, x.size());
}

template <typename T>
void CheckBinary(AscTwinEntryFn entry, uint32_t op, double lo, double hi,
                 const std::function<double(double, double)>& ref, const char* name) {
  for (uint32_t blocks : kBlockCounts) {
    const size_t n = size_t{blocks} * TileElems<T>() * kTilesPerBlock;
    std::vector<T> x = Random<T>(n, lo, hi), y = Random<T>(n, lo, hi);
    if (op == kDiv) {
      for (auto& v : y)
        if (Val(v) == 0) v = T(1);
    }
    const std::vector<T> z = RunBinary(entry, blocks, op, x, y);
    std::vector<T> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = Round<T>(ref(Val(x[i]), Val(y[i])));
    ExpectWithin(z, want, 0, std::string(name) + " blocks=" + std::to_string(blocks));
  }
}

int64_t Wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffffll)); }
int64_t Wrap16(int64_t v) { return static_cast<int16_t>(static_cast<uint16_t>(v & 0xffffll)); }

}  // namespace

TEST(Binary, Float32) {
  CheckBinary<float>(__asc_twin_entry_binary_f32, kAdd, -1e3, 1e3, std::plus<double>(), "Add f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32, kSub, -1e3, 1e3, std::minus<double>(), "Sub f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32, kMul, -1e3, 1e3, std::multiplies<double>(), "Mul f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32, kDiv, -1e3, 1e3, std::divides<double>(), "Div f32");
  CheckBinary<float>(
      __asc_twin_entry_binary_f32, kMax, -1e3, 1e3, [](double a, double b) { return std::max(a, b); }, "Max f32");
  CheckBinary<float>(
      __asc_twin_entry_binary_f32, kMin, -1e3, 1e3, [](double a, double b) { return std::min(a, b); }, "Min f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32, kExprAdd, -1e3, 1e3, std::plus<double>(), "dst=a+b f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32, kExprMul, -1e3, 1e3, std::multiplies<double>(), "dst=a*b f32");
  CheckBinary<float>(__asc_twin_entry_binary_f32_d1, kAdd, -1e3, 1e3, std::plus<double>(), "Add f32 depth1");
}

TEST(Binary, Float16) {
  CheckBinary<half>(__asc_twin_entry_binary_f16, kAdd, -300, 300, std::plus<double>(), "Add f16");
  CheckBinary<half>(__asc_twin_entry_binary_f16, kSub, -300, 300, std::minus<double>(), "Sub f16");
  CheckBinary<half>(__asc_twin_entry_binary_f16, kMul, -300, 300, std::multiplies<double>(),
                    "Mul f16");  // overflows too
  CheckBinary<half>(__asc_twin_entry_binary_f16, kDiv, -300, 300, std::divides<double>(), "Div f16");
  CheckBinary<half>(
      __asc_twin_entry_binary_f16, kMax, -300, 300, [](double a, double b) { return std::max(a, b); }, "Max f16");
  CheckBinary<half>(
      __asc_twin_entry_binary_f16, kMin, -300, 300, [](double a, double b) { return std::min(a, b); }, "Min f16");
}

TEST(Binary, Int32WrapsAround) {
  const double r = 2147483647.0;
  CheckBinary<int32_t>(
      __asc_twin_entry_binary_i32, kAdd, -r, r,
      [](double a, double b) { return (double)Wrap32((int64_t)a + (int64_t)b); }, "Add i32");
  CheckBinary<int32_t>(
      __asc_twin_entry_binary_i32, kSub, -r, r,
      [](double a, double b) { return (double)Wrap32((int64_t)a - (int64_t)b); }, "Sub i32");
  CheckBinary<int32_t>(
      __asc_twin_entry_binary_i32, kMul, -70000, 70000,
      [](double a, double b) { return (double)Wrap32((int64_t)a * (int64_t)b); }, "Mul i32");
  CheckBinary<int32_t>(
      __asc_twin_entry_binary_i32, kMax, -r, r, [](double a, double b) { return std::max(a, b); }, "Max i32");
  CheckBinary<int32_t>(
      __asc_twin_entry_binary_i32, kMin, -r, r, [](double a, double b) { return std::min(a, b); }, "Min i32");
}

TEST(Binary, Int16WrapsAround) {
  CheckBinary<int16_t>(
      __asc_twin_entry_binary_i16, kAdd, -32768, 32767,
      [](double a, double b) { return (double)Wrap16((int64_t)a + (int64_t)b); }, "Add i16");
  CheckBinary<int16_t>(
      __asc_twin_entry_binary_i16, kSub, -32768, 32767,
      [](double a, double b) { return (double)Wrap16((int64_t)a - (int64_t)b); }, "Sub i16");
  CheckBinary<int16_t>(
      __asc_twin_entry_binary_i16, kMul, -32768, 32767,
      [](double a, double b) { return (double)Wrap16((int64_t)a * (int64_t)b); }, "Mul i16");
  CheckBinary<int16_t>(
      __asc_twin_entry_binary_i16, kMax, -32768, 32767, [](double a, double b) { return std::max(a, b); }, "Max i16");
}

namespace {
template <typename T>
void CheckUnary(AscTwinEntryFn entry, uint32_t op, std::vector<T> x, const std::function<double(double)>& ref,
                int64_t maxUlps, const char* name) {
  for (uint32_t blocks : kBlockCounts) {
    const size_t n = size_t{blocks} * TileElems<T>() * kTilesPerBlock;
    std::vector<T> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = x[i % x.size()];
    std::shuffle(in.begin(), in.end(), Rng());
    DeviceMemory mem;
    T* dx = ToDevice(mem, in);
    T* dz = mem.AllocOf<T>(n);
    Args a;
    a.Add(dx).Add(dz).Add(static_cast<uint32_t>(n)).Add(TileElems<T>()).Add(op);
    const LaunchResult r = Launch(entry, name, blocks, a, mem);
    ASSERT_TRUE(r.ok()) << r.FirstError();
    std::vector<T> want(n);
    // Exp/Ln/Sqrt/Rsqrt/Reciprocal flush subnormal inputs and results to zero, as the NPU does.
    const bool ftz = op != kAbs && op != kRelu && !std::is_integral<T>::value;
    const double minNormal = std::is_same<T, half>::value ? 0x1p-14 : 0x1p-126;
    auto flush = [&](double v) { return ftz && std::fabs(v) < minNormal ? std::copysign(0.0, v) : v; };
    for (size_t i = 0; i < n; ++i) want[i] = Round<T>(ref(flush(Val(in[i]))));
    for (size_t i = 0; i < n; ++i) want[i] = Round<T>(flush(Val(want[i])));
    ExpectWithin(FromDevice(dz, n), want, maxUlps, std::string(name) + " blocks=" + std::to_string(blocks));
  }
}

template <typename T>
std::vector<T> LogUniform(size_t n, double lo, double hi) {
  std::vector<T> v(n);
  std::uniform_real_distribution<double> d(std::log(lo), std::log(hi));
  for (auto& x : v) x = T(std::exp(d(Rng())));
  return v;
}
}  // namespace

// Stated error bounds: Abs/Relu exact; float Sqrt/Reciprocal correctly
// rounded (0 ULP); float Exp/Ln/Rsqrt <= 1 ULP; every half op <= 1
// half ULP (float result rounded once).
TEST(Unary, Float32) {
  const auto e = __asc_twin_entry_unary_f32;
  CheckUnary<float>(
      e, kAbs, Random<float>(4096, -1e4, 1e4), [](double v) { return std::fabs(v); }, 0, "Abs f32");
  CheckUnary<float>(
      e, kRelu, Random<float>(4096, -1e4, 1e4), [](double v) { return v > 0 ? v : 0.0; }, 0, "Relu f32");
  CheckUnary<float>(
      e, kExp, Random<float>(4096, -87, 88), [](double v) { return std::exp(v); }, 1, "Exp f32");
  CheckUnary<float>(
      e, kLn, LogUniform<float>(4096, 1e-30, 1e30), [](double v) { return std::log(v); }, 1, "Ln f32");
  CheckUnary<float>(
      e, kSqrt, LogUniform<float>(4096, 1e-30, 1e30), [](double v) { return std::sqrt(v); }, 0, "Sqrt f32");
  CheckUnary<float>(
      e, kRsqrt, LogUniform<float>(4096, 1e-30, 1e30), [](double v) { return 1 / std::sqrt(v); }, 1, "Rsqrt f32");
  CheckUnary<float>(
      e, kReciprocal, Random<float>(4096, 0.001, 1e4), [](double v) { return 1 / v; }, 0, "Reciprocal f32");
}

TEST(Unary, Float16) {
  const auto e = __asc_twin_entry_unary_f16;
  CheckUnary<half>(
      e, kAbs, Random<half>(4096, -6e4, 6e4), [](double v) { return std::fabs(v); }, 0, "Abs f16");
  CheckUnary<half>(
      e, kRelu, Random<half>(4096, -6e4, 6e4), [](double v) { return v > 0 ? v : 0.0; }, 0, "Relu f16");
  CheckUnary<half>(
      e, kExp, Random<half>(4096, -16, 11), [](double v) { return std::exp(v); }, 1, "Exp f16");
  CheckUnary<half>(
      e, kLn, LogUniform<half>(4096, 1e-7, 6e4), [](double v) { return std::log(v); }, 1, "Ln f16");
  CheckUnary<half>(
      e, kSqrt, LogUniform<half>(4096, 1e-7, 6e4), [](double v) { return std::sqrt(v); }, 1, "Sqrt f16");
  CheckUnary<half>(
      e, kRsqrt, LogUniform<half>(4096, 1e-4, 6e4), [](double v) { return 1 / std::sqrt(v); }, 1, "Rsqrt f16");
  CheckUnary<half>(
      e, kReciprocal, Random<half>(4096, 0.01, 6e4), [](double v) { return 1 / v; }, 1, "Reciprocal f16");
}

TEST(Unary, Int32Relu) {
  CheckUnary<int32_t>(
      __asc_twin_entry_unary_i32, kRelu, Random<int32_t>(4096, -2147483648.0, 2147483647.0),
      [](double v) { return v > 0 ? v : 0.0; }, 0, "Relu i32");
}

namespace {
template <typename T, typename S>
void CheckScalar(AscTwinEntryFn entry, uint32_t op, S scalar, double lo, double hi,
                 const std::function<double(double, double)>& ref, const char* name) {
  for (uint32_t blocks : kBlockCounts) {
    const size_t n = size_t{blocks} * TileElems<T>() * kTilesPerBlock;
    const std::vector<T> x = Random<T>(n, lo, hi);
    DeviceMemory mem;
    T* dx = ToDevice(mem, x);
    T* dz = mem.AllocOf<T>(n);
    Args a;
    a.Add(dx).Add(dz).Add(static_cast<uint32_t>(n)).Add(TileElems<T>()).Add(op).Add(scalar);
    const LaunchResult r = Launch(entry, name, blocks, a, mem);
    ASSERT_TRUE(r.ok()) << r.FirstError();
    std::vector<T> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = Round<T>(ref(Val(x[i]), Val(scalar)));
    ExpectWithin(FromDevice(dz, n), want, 0, std::string(name) + " blocks=" + std::to_string(blocks));
  }
}
}  // namespace

TEST(Scalar, AllTypes) {
  auto add = [](double a, double s) { return a + s; };
  auto mul = [](double a, double s) { return a * s; };
  auto mx = [](double a, double s) { return std::max(a, s); };
  auto mn = [](double a, double s) { return std::min(a, s); };
  auto leaky = [](double a, double s) { return a >= 0 ? a : a * s; };
  const float fs = static_cast<float>(Random<float>(1, 0.1, 3)[0]);
  CheckScalar<float>(__asc_twin_entry_scalar_f32, kAdds, fs, -100, 100, add, "Adds f32");
  CheckScalar<float>(__asc_twin_entry_scalar_f32, kMuls, fs, -100, 100, mul, "Muls f32");
  CheckScalar<float>(__asc_twin_entry_scalar_f32, kMaxs, fs, -100, 100, mx, "Maxs f32");
  CheckScalar<float>(__asc_twin_entry_scalar_f32, kMins, fs, -100, 100, mn, "Mins f32");
  CheckScalar<float>(__asc_twin_entry_scalar_f32, kLeakyRelu, 0.01f, -100, 100, leaky, "LeakyRelu f32");
  const half hs(fs);
  CheckScalar<half>(__asc_twin_entry_scalar_f16, kAdds, hs, -100, 100, add, "Adds f16");
  CheckScalar<half>(__asc_twin_entry_scalar_f16, kMuls, hs, -100, 100, mul, "Muls f16");
  CheckScalar<half>(__asc_twin_entry_scalar_f16, kMaxs, hs, -100, 100, mx, "Maxs f16");
  CheckScalar<half>(__asc_twin_entry_scalar_f16, kMins, hs, -100, 100, mn, "Mins f16");
  CheckScalar<half>(__asc_twin_entry_scalar_f16, kLeakyRelu, half(0.1f), -100, 100, leaky, "LeakyRelu f16");
  CheckScalar<int32_t>(
      __asc_twin_entry_scalar_i32, kAdds, int32_t{123456}, -2147483648.0, 2147483647.0,
      [](double a, double s) { return (double)Wrap32((int64_t)a + (int64_t)s); }, "Adds i32");
  CheckScalar<int32_t>(
      __asc_twin_entry_scalar_i32, kMuls, int32_t{-77}, -1e8, 1e8,
      [](double a, double s) { return (double)Wrap32((int64_t)a * (int64_t)s); }, "Muls i32");
  CheckScalar<int32_t>(__asc_twin_entry_scalar_i32, kMaxs, int32_t{-5}, -100, 100, mx, "Maxs i32");
  CheckScalar<int16_t>(__asc_twin_entry_scalar_i16, kMins, int16_t{7}, -100, 100, mn, "Mins i16");
  CheckScalar<int16_t>(
      __asc_twin_entry_scalar_i16, kAdds, int16_t{30000}, -32768, 32767,
      [](double a, double s) { return (double)Wrap16((int64_t)a + (int64_t)s); }, "Adds i16");
}

namespace {
template <typename T>
void CheckDuplicate(AscTwinEntryFn entry, T value) {
  for (uint32_t blocks : kBlockCounts) {
    const size_t n = size_t{blocks} * TileElems<T>() * kTilesPerBlock;
    DeviceMemory mem;
    T* dz = mem.AllocOf<T>(n);
    std::memset(static_cast<void*>(dz), 0x5a, n * sizeof(T));
    Args a;
    a.Add(dz).Add(static_cast<uint32_t>(n)).Add(TileElems<T>()).Add(value);
    const LaunchResult r = Launch(entry, "duplicate", blocks, a, mem);
    ASSERT_TRUE(r.ok()) << r.FirstError();
    for (size_t i = 0; i < n; ++i) ASSERT_TRUE(SameBits(dz[i], value)) << i;
  }
}
}  // namespace

TEST(Duplicate, AllTypes) {
  CheckDuplicate<float>(__asc_twin_entry_duplicate_f32, Random<float>(1, -9, 9)[0]);
  CheckDuplicate<half>(__asc_twin_entry_duplicate_f16, Random<half>(1, -9, 9)[0]);
  CheckDuplicate<int32_t>(__asc_twin_entry_duplicate_i32, Random<int32_t>(1, -1e9, 1e9)[0]);
  CheckDuplicate<bfloat16_t>(__asc_twin_entry_duplicate_bf16, bfloat16_t(Random<float>(1, -9, 9)[0]));
}

// ---------------- Cast ----------------
namespace {
using AscendC::RoundMode;

RefMode ToRef(RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return RefMode::kFloor;
    case RoundMode::CAST_CEIL:
      return RefMode::kCeil;
    case RoundMode::CAST_ROUND:
      return RefMode::kRound;
    case RoundMode::CAST_TRUNC:
      return RefMode::kTrunc;
    case RoundMode::CAST_ODD:
      return RefMode::kOdd;
    default:
      return RefMode::kRint;
  }
}

double RoundIntegralRef(double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(v);
    case RoundMode::CAST_CEIL:
      return std::ceil(v);
    case RoundMode::CAST_ROUND:
      return std::round(v);
    case RoundMode::CAST_TRUNC:
      return std::trunc(v);
    default:
      return std::nearbyint(v);
  }
}

template <typename TIn, typename TOut>
std::vector<TOut> RunCast(AscTwinEntryFn entry, uint32_t blocks, const std::vector<TIn>& x, RoundMode m,
                          LaunchResult* result = nullptr) {
  DeviceMemory mem;
  TIn* dx = ToDevice(mem, x);
  TOut* dz = mem.AllocOf<TOut>(x.size());
  const uint32_t tile = std::min(TileElems<TIn>(), TileElems<TOut>());
  Args a;
  a.Add(dx).Add(dz).Add(static_cast<uint32_t>(x.size())).Add(tile).Add(static_cast<uint32_t>(m));
  const LaunchResult r = Launch(entry, "cast", blocks, a, mem);
  if (result)
    *result = r;
  else
    EXPECT_TRUE(r.ok()) << r.FirstError();
  return FromDevice(dz, x.size());
}

template <typename TIn>
std::vector<TIn> CastInputs(size_t n, double lo, double hi) {
  std::vector<TIn> v = Random<TIn>(n, lo, hi);
  // Exact ties for the integral modes.
  for (size_t i = 0; i < n; i += 7) v[i] = TIn(std::floor(Val(v[i])) + 0.5);
  return v;
}

const RoundMode kIntegralModes[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                                    RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};
}  // namespace

TEST(Cast, WideningIsExact) {
  for (uint32_t blocks : kBlockCounts) {
    const size_t n = size_t{blocks} * 256 * kTilesPerBlock;
    std::vector<half> h(n);
    std::vector<bfloat16_t> b(n);
    for (size_t i = 0; i < n; ++i) {
      h[i] = half::FromBits(static_cast<uint16_t>(Rng()() & 0xffff));
      if (IsNanHalf(h[i].val)) h[i] = half(1.0f);
      b[i] = bfloat16_t::FromBits(static_cast<uint16_t>(Rng()() & 0xffff));
      if ((b[i].val & 0x7f80) == 0x7f80 && (b[i].val & 0x7f)) b[i] = bfloat16_t(2.0f);
    }
    const auto fh = RunCast<half, float>(__asc_twin_entry_cast_f16_f32, blocks, h, RoundMode::CAST_NONE);
    const auto fb = RunCast<bfloat16_t, float>(__asc_twin_entry_cast_bf16_f32, blocks, b, RoundMode::CAST_NONE);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(static_cast<double>(fh[i]), RefHalfValue(h[i].val)) << i;
      ASSERT_EQ(static_cast<double>(fb[i]), RefBf16Value(b[i].val)) << i;
    }
  }
}

TEST(Cast, FloatToHalfAndBf16AllModes) {
  const RoundMode modes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT,  RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                             RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC, RoundMode::CAST_ODD};
  for (uint32_t blocks : {1u, 3u}) {
    const size_t n = size_t{blocks} * 256 * kTilesPerBlock;
    std::vector<float> x = Random<float>(n, -65000, 65000);
    for (size_t i = 0; i < n; i += 3) x[i] = static_cast<float>(std::ldexp(Val(x[i]), -30));  // subnormal halves
    for (size_t i = 1; i < n; i += 11)
      x[i] = static_cast<float>(RefHalfValue(static_cast<uint16_t>(Rng()() & 0x7bff)) + 0);
    x[0] = 1e6f;  // overflow
    x[1] = -1e6f;
    for (RoundMode m : modes) {
      const auto got = RunCast<float, half>(__asc_twin_entry_cast_f32_f16, blocks, x, m);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[i].val, RefRoundBits(x[i], 10, 5, ToRef(m)))
            << "float->half mode " << static_cast<int>(m) << " x=" << x[i];
      }
      if (m == RoundMode::CAST_NONE || m == RoundMode::CAST_ODD) continue;
      std::vector<float> xb = x;
      xb[0] = 3.4e38f;
      xb[1] = -3.4e38f;
      const auto gotb = RunCast<float, bfloat16_t>(__asc_twin_entry_cast_f32_bf16, blocks, xb, m);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(gotb[i].val, RefRoundBits(xb[i], 7, 8, ToRef(m)))
            << "float->bf16 mode " << static_cast<int>(m) << " x=" << xb[i];
      }
    }
  }
}

TEST(Cast, ToInt32AndIntegralFloat) {
  for (uint32_t blocks : {1u, 8u}) {
    const size_t n = size_t{blocks} * 256 * kTilesPerBlock;
    std::vector<float> x = CastInputs<float>(n, -1e6, 1e6);
    x[0] = 3e9f;
    x[1] = -3e9f;
    x[2] = NAN;
    x[3] = -2147483648.0f;
    std::vector<half> h = CastInputs<half>(n, -6e4, 6e4);
    for (RoundMode m : kIntegralModes) {
      const auto gi = RunCast<float, int32_t>(__asc_twin_entry_cast_f32_i32, blocks, x, m);
      const auto hi = RunCast<half, int32_t>(__asc_twin_entry_cast_f16_i32, blocks, h, m);
      const auto ff = RunCast<float, float>(__asc_twin_entry_cast_f32_f32, blocks, x, m);
      for (size_t i = 0; i < n; ++i) {
        double r = std::isnan(x[i]) ? 0 : RoundIntegralRef(x[i], m);
        r = std::min(std::max(r, -2147483648.0), 2147483647.0);
        ASSERT_EQ(gi[i], static_cast<int32_t>(r)) << "float->int32 mode " << static_cast<int>(m) << " x=" << x[i];
        ASSERT_EQ(hi[i], static_cast<int32_t>(RoundIntegralRef(Val(h[i]), m))) << "half->int32 x=" << Val(h[i]);
        if (!std::isnan(x[i])) {
          ASSERT_EQ(ff[i], static_cast<float>(RoundIntegralRef(x[i], m))) << x[i];
        }
      }
    }
    std::vector<int32_t> iv = Random<int32_t>(n, -2147483648.0, 2147483647.0);
    for (RoundMode m : {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
      const auto got = RunCast<int32_t, float>(__asc_twin_entry_cast_i32_f32, blocks, iv, m);
      for (size_t i = 0; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &got[i], 4);
        ASSERT_EQ(bits, RefRoundBits(iv[i], 23, 8, ToRef(m)))
            << "int32->float mode " << static_cast<int>(m) << " " << iv[i];
      }
    }
  }
}

TEST(Cast, UnsupportedModeTraps) {
  LaunchResult r;
  RunCast<float, int32_t>(__asc_twin_entry_cast_f32_i32, 1, std::vector<float>(256 * 5, 1.0f), RoundMode::CAST_NONE,
                          &r);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.FirstError(), "Cast: RoundMode CAST_NONE is not supported for float->int32_t");
  RunCast<half, float>(__asc_twin_entry_cast_f16_f32, 1, std::vector<half>(256 * 5, half(1)), RoundMode::CAST_RINT, &r);
  EXPECT_EQ(r.FirstError(), "Cast: RoundMode CAST_RINT is not supported for half->float");
}
