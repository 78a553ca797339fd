// The host tmp-size functions of the math library and the element-wise activations: min <= max,
// both follow the factor form, the values the kernel tests rely on (api_adv_math_test gives
// Acos exactly this minimum and traps one block below it), and bad shapes / type sizes give 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

ge::Shape Shape1(int64_t n) { return ge::Shape(std::vector<int64_t>{n}); }

uint64_t Align32(uint64_t b) { return (b + 31) / 32 * 32; }

TEST(ElementwiseTmpSize, AcosMinimumIsWhatTheKernelTestUses) {
  uint32_t maxValue = 0, minValue = 0;
  AscendC::GetAcosMaxMinTmpSize(Shape1(1024), 4, false, maxValue, minValue);
  EXPECT_EQ(minValue, 768u);  // 3 fp32 live nodes x one 256-byte repeat
  EXPECT_EQ(maxValue, 3u * 4096u);
}

TEST(ElementwiseTmpSize, MinAtMostMaxAndFactorFormOnRandomShapes) {
  const uint32_t seed = std::random_device{}();
  std::printf("seed = %u\n", seed);
  std::mt19937 rng(seed);
  for (int iter = 0; iter < 200; ++iter) {
    const int64_t rows = std::uniform_int_distribution<int64_t>(1, 64)(rng);
    const int64_t cols = std::uniform_int_distribution<int64_t>(1, 512)(rng);
    const uint32_t typeSize = (rng() & 1) ? 2 : 4;
    const ge::Shape shape(std::vector<int64_t>{rows, cols});
    const uint64_t count = static_cast<uint64_t>(rows * cols);
    struct Api {
      void (*sizes)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&);
      void (*factor)(uint32_t, uint32_t&, uint32_t&);
    };
    const Api apis[] = {
        {AscendC::GetAcosMaxMinTmpSize, AscendC::GetAcosTmpBufferFactorSize},
        {AscendC::GetErfMaxMinTmpSize, AscendC::GetErfTmpBufferFactorSize},
        {AscendC::GetLgammaMaxMinTmpSize, AscendC::GetLgammaTmpBufferFactorSize},
        {AscendC::GetTanhMaxMinTmpSize, AscendC::GetTanhTmpBufferFactorSize},
        {AscendC::GetGeGLUMaxMinTmpSize, AscendC::GetGeGLUTmpBufferFactorSize},
    };
    for (const Api& api : apis) {
      uint32_t maxValue = 0, minValue = 0, nodes = 0, extra = 0;
      api.sizes(shape, typeSize, false, maxValue, minValue);
      api.factor(typeSize, nodes, extra);
      ASSERT_GT(minValue, 0u);
      ASSERT_LE(minValue, maxValue);
      ASSERT_EQ(maxValue, nodes * Align32(count * typeSize) + extra) << rows << "x" << cols;
      ASSERT_LE(minValue, nodes * 256u + extra);
    }
  }
}

TEST(ElementwiseTmpSize, PlatformFormsAndExpAgree) {
  uint32_t maxValue = 0, minValue = 0;
  EXPECT_TRUE(AscendC::GetExpMaxMinTmpSize(Shape1(100), 2, false, maxValue, minValue));
  EXPECT_EQ(maxValue, 2u * (2 + 2) * Align32(200));  // fp16: the widened source and result too
  EXPECT_EQ(minValue, 2u * (2 + 2) * 224u);
  uint32_t gmax = 0, gmin = 0;
  AscendC::GetGeluMaxMinTmpSize(Shape1(4096), 4, gmax, gmin);
  EXPECT_EQ(AscendC::GetGeluMaxTmpSize(Shape1(4096), 4), gmax);
  EXPECT_EQ(AscendC::GetGeluMinTmpSize(Shape1(4096), 4), gmin);
  AscendC::GetSwiGLUMaxMinTmpSize(Shape1(64), 4, maxValue, minValue);
  EXPECT_EQ(minValue, 3u * 256u);
  uint32_t powMax = 0, powMin = 0;
  AscendC::GetPowerMaxMinTmpSize(Shape1(1024), Shape1(1), true, 4, false, powMax, powMin);
  EXPECT_EQ(powMin, 256u);  // integer powers: one live node
}

TEST(ElementwiseTmpSize, BadInputGivesZeroAndFalse) {
  uint32_t maxValue = 7, minValue = 7;
  EXPECT_FALSE(AscendC::GetExpMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, -1}), 4, false, maxValue, minValue));
  EXPECT_EQ(maxValue, 0u);
  EXPECT_EQ(minValue, 0u);
  EXPECT_FALSE(AscendC::GetExpMaxMinTmpSize(Shape1(16), 3, false, maxValue, minValue));
  maxValue = minValue = 7;
  AscendC::GetAcosMaxMinTmpSize(ge::Shape(std::vector<int64_t>{}), 4, false, maxValue, minValue);
  EXPECT_EQ(maxValue, 0u);
  maxValue = minValue = 7;
  AscendC::GetCumSumMaxMinTmpSize(Shape1(64), 4, true, false, maxValue, minValue);  // not 2-D
  EXPECT_EQ(maxValue, 0u);
  EXPECT_EQ(minValue, 0u);
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 16}), 4, true, false, maxValue, minValue);
  EXPECT_EQ(minValue, 256u);
}

TEST(ReduceTmpSize, OneFp32AccumulatorPerResult) {
  uint32_t maxValue = 0, minValue = 0;
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 8}), ge::DT_FLOAT, AscendC::ReducePattern::AR,
                                     true, false, maxValue, minValue);
  EXPECT_EQ(minValue, 32u);  // what api_adv_math_test gives ReduceMax
  EXPECT_EQ(maxValue, 32u);
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 13}), ge::DT_FLOAT16, AscendC::ReducePattern::RA,
                                     true, false, maxValue, minValue);
  EXPECT_EQ(minValue, 64u);  // 13 padded to 16 halves, 16 fp32 accumulators
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 13, 2}), ge::DT_FLOAT,
                                     AscendC::ReducePattern::AR, true, false, maxValue, minValue);
  EXPECT_EQ(maxValue, 0u);  // 3 dims for a 2-letter pattern
  AscendC::GetSumMaxMinTmpSize(1000, 4, false, maxValue, minValue);
  EXPECT_EQ(minValue, 64u);  // 16 repeats of 256 bytes, one fp32 partial each
  AscendC::GetSumMaxMinTmpSize(1000, 3, false, maxValue, minValue);
  EXPECT_EQ(minValue, 0u);
  AscendC::GetArangeMaxMinTmpSize(maxValue, minValue);
  EXPECT_EQ(maxValue, 0u);
}

TEST(FilterSortTmpSize, SelectDropOutSortValues) {
  const ge::Shape src(std::vector<int64_t>{6, 24});
  EXPECT_EQ(AscendC::GetSelectMinTmpSize(src, ge::Shape(std::vector<int64_t>{1}), 4,
                                         ge::Shape(std::vector<int64_t>{6, 64}), 1, false),
            288u);  // the mask as half, what api_adv_math_test gives Select
  EXPECT_EQ(AscendC::GetSelectWithBytesMaskMaxTmpSize(src, ge::Shape(std::vector<int64_t>{1}), 4,
                                                      ge::Shape(std::vector<int64_t>{6, 64}), 1, false),
            288u);
  EXPECT_EQ(AscendC::GetSelectMinTmpSize(ge::Shape(std::vector<int64_t>{6, 7}), ge::Shape(std::vector<int64_t>{1}), 4,
                                         ge::Shape(std::vector<int64_t>{6, 64}), 1, false),
            0u);  // last axis of 28 bytes: refused
  uint32_t maxValue = 0, minValue = 0;
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape(std::vector<int64_t>{4, 256}), 4, false, maxValue, minValue);
  EXPECT_EQ(minValue, 1024u);
  EXPECT_EQ(AscendC::GetDropOutMinTmpSize(ge::Shape(std::vector<int64_t>{4, 256}), 3, false), 0u);
  AscendC::SortConfig config;
  AscendC::GetSortMaxMinTmpSize(ge::Shape(std::vector<int64_t>{100}), ge::DT_FLOAT, ge::DT_UINT32, false, config,
                                maxValue, minValue);
  EXPECT_EQ(minValue, 2u * 800u);
  EXPECT_LE(minValue, maxValue);
}

}  // namespace
