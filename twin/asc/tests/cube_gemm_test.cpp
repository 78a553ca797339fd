// The cube micro-kernel (asc_twin/cube_gemm.h) on its own interface: packed A and B panels and a
// C tile, for every row count and several depths, on random data (seed printed). The AVX2 path
// must equal the portable one bit for bit (the same fma sequence), both must stay within the
// sequential fp32 bound of a double reference, and the int32 kernel must be exact, wrapping.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "asc_twin/cube_gemm.h"

namespace {

using AscendC::twin::cube::GemmTileF32;
using AscendC::twin::cube::GemmTileI32;
using AscendC::twin::cube::TileF32Portable;
using AscendC::twin::cube::TileI32Portable;

uint32_t Seed() {
  static const uint32_t seed = [] {
    const uint32_t s = std::random_device{}();
    std::printf("[cube_gemm_test] seed = %u\n", s);
    return s;
  }();
  return seed;
}

TEST(CubeGemm, Fp32TileMatchesThePortableKernelAndADoubleReference) {
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (uint32_t rows = 1; rows <= 6; ++rows) {
    for (uint32_t depth : {1u, 7u, 16u, 128u, 333u}) {
      std::vector<float> a(rows * depth), b(depth * 16), c(rows * 16), c0;
      for (float& v : a) v = u(rng);
      for (float& v : b) v = u(rng);
      for (float& v : c) v = u(rng);
      c0 = c;
      std::vector<float> fast = c, portable = c;
      GemmTileF32(rows, a.data(), b.data(), depth, fast.data(), 16);
      TileF32Portable(rows, a.data(), b.data(), depth, portable.data(), 16);
      for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t j = 0; j < 16; ++j) {
          double ref = c0[r * 16 + j], mag = std::fabs(ref);
          for (uint32_t k = 0; k < depth; ++k) {
            ref += double(a[k * rows + r]) * b[k * 16 + j];
            mag += std::fabs(double(a[k * rows + r]) * b[k * 16 + j]);
          }
          const float got = fast[r * 16 + j];
          // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the two paths must agree bit for bit
          ASSERT_EQ(std::memcmp(&got, &portable[r * 16 + j], 4), 0) << "rows " << rows << " depth " << depth;
          // Tolerance: sequential fp32 accumulation of depth fused steps.
          ASSERT_LE(std::fabs(got - ref), (depth + 2) * std::ldexp(1.0, -24) * mag) << rows << "x" << depth;
        }
      }
    }
  }
}

TEST(CubeGemm, Int32TileIsExactAndWraps) {
  std::mt19937 rng(Seed() + 1);
  std::uniform_int_distribution<int32_t> u(-128, 127);
  for (uint32_t rows = 1; rows <= 6; ++rows) {
    const uint32_t depth = 200;
    std::vector<int32_t> a(rows * depth), b(depth * 16), c(rows * 16);
    for (int32_t& v : a) v = u(rng);
    for (int32_t& v : b) v = u(rng);
    for (int32_t& v : c) v = 2147483000 + u(rng);  // near INT32_MAX: the sums wrap
    std::vector<int32_t> fast = c, portable = c;
    GemmTileI32(rows, a.data(), b.data(), depth, fast.data(), 16);
    TileI32Portable(rows, a.data(), b.data(), depth, portable.data(), 16);
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t j = 0; j < 16; ++j) {
        int64_t ref = c[r * 16 + j];
        for (uint32_t k = 0; k < depth; ++k) ref += int64_t{a[k * rows + r]} * b[k * 16 + j];
        EXPECT_EQ(fast[r * 16 + j], static_cast<int32_t>(static_cast<uint32_t>(ref)));  // exact, mod 2^32
        EXPECT_EQ(fast[r * 16 + j], portable[r * 16 + j]);
      }
    }
  }
}

}  // namespace
