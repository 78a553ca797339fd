#include "shape_split.h"

#include <cstdio>
#include <random>

#include <gtest/gtest.h>

namespace {

using asc_twin_tiling::RowsByLastAxis;
using asc_twin_tiling::SplitLastAxis;

TEST(SplitLastAxis, RandomShapesSplitIntoRowsAndTheLastDim) {
  const unsigned seed = std::random_device{}();
  std::printf("seed=%u\n", seed);
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 200; ++trial) {
    const int rank = 1 + static_cast<int>(rng() % 4);
    std::vector<int64_t> dims;
    uint64_t rows = 1;
    for (int i = 0; i < rank; ++i) {
      dims.push_back(1 + static_cast<int64_t>(rng() % 64));
      if (i + 1 < rank) rows *= static_cast<uint64_t>(dims.back());
    }
    RowsByLastAxis split;
    const char* why = nullptr;
    ASSERT_TRUE(SplitLastAxis(ge::Shape(dims), &split, &why));
    EXPECT_EQ(split.rows, rows);
    EXPECT_EQ(split.cols, static_cast<uint64_t>(dims.back()));
  }
}

TEST(SplitLastAxis, RefusesWhatNoKernelCouldTile) {
  RowsByLastAxis split;
  const char* why = nullptr;
  EXPECT_FALSE(SplitLastAxis(ge::Shape(std::vector<int64_t>{}), &split, &why));
  EXPECT_STREQ(why, "the shape has no dims");
  EXPECT_FALSE(SplitLastAxis(ge::Shape({4, -1}), &split, &why));
  EXPECT_STREQ(why, "the shape has an unknown (negative) dim");
  EXPECT_FALSE(SplitLastAxis(ge::Shape({int64_t{1} << 40, int64_t{1} << 30}), &split, &why));
  EXPECT_STREQ(why, "the shape's element count overflows 64 bits");
}

TEST(SplitLastAxis, AZeroDimIsAnEmptyTensor) {
  RowsByLastAxis split;
  const char* why = nullptr;
  ASSERT_TRUE(SplitLastAxis(ge::Shape({3, 0, 5}), &split, &why));
  EXPECT_EQ(split.elements(), 0u);
}

}  // namespace
