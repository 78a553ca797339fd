// half / bfloat16_t: conversions against an independent reference
// (exhaustively where the domain is small), RNE ties, inf, NaN, subnormals,
// construction from literals and arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "kernel_operator.h"
#include "launch_harness.h"
#include "ref_numeric.h"

using namespace asc_twin_test;

namespace {
uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float FromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
}  // namespace

TEST(Half, DecodeAllPatternsAndRoundTrip) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float f = AscendC::twin::HalfToFloat(h);
    const double ref = RefHalfValue(h);
    if (IsNanHalf(h)) {
      ASSERT_TRUE(std::isnan(f)) << b;
      ASSERT_TRUE(IsNanHalf(AscendC::twin::FloatToHalf(f))) << b;
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), ref) << "pattern " << b;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0) << b;
    ASSERT_EQ(AscendC::twin::FloatToHalf(f), h) << "round trip " << b;
    ASSERT_EQ(AscendC::twin::DoubleToHalf(ref), h) << "double round trip " << b;
  }
}

TEST(Half, TiesAndNeighboursOfEveryMidpoint) {
  // Midpoints between consecutive finite halves are exact floats: they must
  // round to the even neighbour; one float ulp off they must not be ties.
  for (uint32_t b = 0; b < 0x7bff; ++b) {
    const double lo = RefHalfValue(static_cast<uint16_t>(b));
    const double hi = RefHalfValue(static_cast<uint16_t>(b + 1));
    const float mid = static_cast<float>((lo + hi) / 2);
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
    const uint16_t even = (b & 1) ? static_cast<uint16_t>(b + 1) : static_cast<uint16_t>(b);
    ASSERT_EQ(AscendC::twin::FloatToHalf(mid), even) << b;
    ASSERT_EQ(AscendC::twin::FloatToHalf(-mid), even | 0x8000) << b;
    ASSERT_EQ(AscendC::twin::DoubleToHalf((lo + hi) / 2), even) << b;
    ASSERT_EQ(AscendC::twin::FloatToHalf(std::nextafter(mid, 0.0f)), b) << b;
    ASSERT_EQ(AscendC::twin::FloatToHalf(std::nextafter(mid, INFINITY)), b + 1) << b;
    ASSERT_EQ(AscendC::twin::DoubleToHalf(std::nextafter((lo + hi) / 2, INFINITY)), b + 1) << b;
  }
}

TEST(Half, RandomFloatsAndDoublesMatchReference) {
  std::mt19937_64 rng(Seed());
  for (int i = 0; i < 2000000; ++i) {
    const float f = FromBits(static_cast<uint32_t>(rng()));
    const uint16_t got = AscendC::twin::FloatToHalf(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(IsNanHalf(got));
      continue;
    }
    ASSERT_EQ(got, RefToHalf(f)) << "float bits " << Bits(f);
  }
  std::uniform_real_distribution<double> mag(-30, 17);
  for (int i = 0; i < 500000; ++i) {
    const double d = std::ldexp(1.0 + std::ldexp(static_cast<double>(rng() >> 12), -52), static_cast<int>(mag(rng))) *
                     ((rng() & 1) ? -1 : 1);
    ASSERT_EQ(AscendC::twin::DoubleToHalf(d), RefToHalf(d)) << d;
  }
}

TEST(Half, EdgeCases) {
  using AscendC::twin::FloatToHalf;
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65519.996f), 0x7bff);
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);  // tie to even overflows
  EXPECT_EQ(FloatToHalf(1e9f), 0x7c00);
  EXPECT_EQ(FloatToHalf(-INFINITY), 0xfc00);
  EXPECT_TRUE(IsNanHalf(FloatToHalf(NAN)));
  EXPECT_EQ(FloatToHalf(0x1p-24f), 0x0001);      // min subnormal
  EXPECT_EQ(FloatToHalf(0x1p-25f), 0x0000);      // tie -> even (0)
  EXPECT_EQ(FloatToHalf(0x1.8p-24f), 0x0002);    // 1.5 quanta -> 2
  EXPECT_EQ(FloatToHalf(0x1p-14f), 0x0400);      // min normal
  EXPECT_EQ(FloatToHalf(0x1.ff8p-15f), 0x03ff);  // max subnormal
  EXPECT_EQ(FloatToHalf(0x1.ffcp-15f), 0x0400);  // tie rounds up into normals
  EXPECT_EQ(FloatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(FloatToHalf(1.0f + 0x1p-11f), 0x3c00);  // tie -> even
  EXPECT_EQ(FloatToHalf(1.0f + 0x1.8p-10f), 0x3c02);
}

TEST(Half, ConstructionAndArithmetic) {
  const half a(18.0);   // double literal
  const half b = 3;     // int literal
  const half c = 0.1f;  // float literal
  EXPECT_EQ(a.val, 0x4c80);
  EXPECT_EQ(b.val, 0x4200);
  EXPECT_EQ(c.val, RefToHalf(0.1f));
  EXPECT_EQ(half(0.1).val, RefToHalf(0.1));  // one rounding from double
  EXPECT_EQ((a + b).val, RefToHalf(21.0));
  EXPECT_EQ((a / b).val, RefToHalf(6.0));
  EXPECT_EQ((c * c).val, RefToHalf(RefHalfValue(c.val) * RefHalfValue(c.val)));
  EXPECT_EQ((-a).val, 0xcc80);
  half d = a;
  d += 1;
  d *= half(2.0f);
  EXPECT_EQ(static_cast<float>(d), 38.0f);
  EXPECT_TRUE(a > b && b < 3.5 && a == 18 && a != c);
  const float mixed = a * 0.5f;  // half op float -> float
  EXPECT_EQ(mixed, 9.0f);
  EXPECT_EQ(static_cast<int>(half(-2.75f)), -2);
  EXPECT_EQ(half(65536).val, 0x7c00);
  EXPECT_EQ(half(70000u).val, 0x7c00);
  EXPECT_EQ(half(2049).val, RefToHalf(2049));  // 2049 -> 2048 (tie to even)
  // Sums of halves are correctly rounded (float has 2p+2 bits).
  std::mt19937_64 rng(Seed());
  for (int i = 0; i < 200000; ++i) {
    const half x = half::FromBits(static_cast<uint16_t>(rng() & 0x7bff));
    const half y = half::FromBits(static_cast<uint16_t>(rng() & 0xfbff));
    const double dx = RefHalfValue(x.val), dy = RefHalfValue(y.val);
    ASSERT_EQ((x + y).val, RefToHalf(dx + dy)) << x.val << " " << y.val;
    ASSERT_EQ((x * y).val, RefToHalf(dx * dy)) << x.val << " " << y.val;
    if (dy != 0) {
      ASSERT_EQ((x / y).val, RefToHalf(dx / dy)) << x.val << " " << y.val;
    }
  }
}

TEST(Bf16, ConversionsMatchReference) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float f = AscendC::twin::Bf16ToFloat(h);
    if ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) {
      ASSERT_TRUE(std::isnan(f));
      continue;
    }
    ASSERT_EQ(static_cast<double>(f), RefBf16Value(h)) << b;
    ASSERT_EQ(AscendC::twin::FloatToBf16(f), h) << b;
    ASSERT_EQ(AscendC::twin::DoubleToBf16(f), h) << b;
  }
  std::mt19937_64 rng(Seed());
  for (int i = 0; i < 2000000; ++i) {
    const float f = FromBits(static_cast<uint32_t>(rng()));
    const uint16_t got = AscendC::twin::FloatToBf16(f);
    if (std::isnan(f)) {
      ASSERT_TRUE((got & 0x7f80) == 0x7f80 && (got & 0x7f)) << Bits(f);
      continue;
    }
    ASSERT_EQ(got, RefToBf16(f)) << Bits(f);
  }
  EXPECT_EQ(bfloat16_t(1.0f + 0x1p-8f).val, 0x3f80);  // tie -> even
  EXPECT_EQ(bfloat16_t(1.0f + 0x1.8p-8f).val, 0x3f81);
  EXPECT_EQ(bfloat16_t(3.4e38f).val, 0x7f80);    // rounds past max -> inf
  EXPECT_EQ(bfloat16_t(0x1p-133f).val, 0x0001);  // min subnormal
  EXPECT_EQ(bfloat16_t(2).val, 0x4000);
  EXPECT_EQ((bfloat16_t(1.5) * bfloat16_t(2)).val, 0x4040);
}
