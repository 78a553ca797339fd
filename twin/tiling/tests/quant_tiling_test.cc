// The host tmp sizes of the quantisation APIs as CANN's quant/dequant/antiquant samples call
// them: the range grows with the shape, min <= max, and bad input (an empty shape, a wrong
// type size or dtype, a scale that does not divide the source) gives 0 and one error line
// naming the function.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>

#include "tiling/tiling_api.h"

namespace {

// The error lines go to stdout so the test can read them (set before the first line is logged).
const bool kLogToStdout = setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1) == 0;

TEST(QuantTiling, AscendQuantRangeGrowsWithTheShape) {
  ASSERT_TRUE(kLogToStdout);
  uint32_t mx = 0, mn = 0;
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 4, mx, mn);
  EXPECT_EQ(mx, 2048u);  // one half per element
  EXPECT_EQ(mn, 256u);   // one repeat
  uint32_t mx2 = 0, mn2 = 0;
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({8, 1024}), 2, mx2, mn2);
  EXPECT_EQ(mx2, 8 * mx);
  EXPECT_EQ(mn2, mn);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({16}), 2, mx, mn);
  EXPECT_EQ(mx, 32u);
  EXPECT_EQ(mn, 32u);
  EXPECT_EQ(AscendC::GetAscendQuantMaxTmpSize(ge::Shape({1024}), 2), 2048u);
  EXPECT_EQ(AscendC::GetAscendQuantMinTmpSize(ge::Shape({1024}), 2), 256u);
}

TEST(QuantTiling, AscendDequantRowsOfTheLastDimension) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({128, 32}), 4, mx, mn);
  EXPECT_EQ(mn, 2u * 32 * 4);             // the deqScale row and one source row, in fp32
  EXPECT_EQ(mx, 32u * 4 + 128 * 32 * 4);  // the deqScale row and all rows
  uint32_t mx2 = 0, mn2 = 0;
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({256, 32}), 4, mx2, mn2);
  EXPECT_GT(mx2, mx);
  EXPECT_EQ(mn2, mn);
}

TEST(QuantTiling, AscendAntiQuantSourceAndParameters) {
  uint32_t mx = 0, mn = 0;
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1024}), ge::Shape({128}), false, ge::DT_INT8, ge::DT_FLOAT16, mx,
                                           mn);
  EXPECT_EQ(mn, 256u + 2 * 128 * 4);
  EXPECT_EQ(mx, 1024u * 4 + 2 * 128 * 4);
  EXPECT_EQ(AscendC::GetAscendAntiQuantMaxTmpSize(ge::Shape({2048}), ge::Shape({128}), true, ge::DT_INT4, ge::DT_BF16),
            2048u * 4 + 2 * 128 * 4);
  uint32_t nodes = 0, extra = 0;
  AscendC::GetAscendAntiQuantTmpBufferFactorSize(ge::Shape({1024}), ge::Shape({128}), false, ge::DT_INT8,
                                                 ge::DT_FLOAT16, nodes, extra);
  EXPECT_EQ(nodes * 1024 + extra, mx);
}

TEST(QuantTiling, BadInputGivesZeroAndOneLine) {
  struct Case {
    std::function<void(uint32_t&, uint32_t&)> call;
    const char* line;
  };
  const Case cases[] = {
      {[](uint32_t& a, uint32_t& b) { AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 1, a, b); },
       "GetAscendQuantMaxMinTmpSize: typeSize 1 is not 2 (half) or 4 (float)"},
      {[](uint32_t& a, uint32_t& b) { AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({0}), 2, a, b); },
       "GetAscendQuantMaxMinTmpSize: srcShape has no elements"},
      {[](uint32_t& a, uint32_t& b) {
         AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({4, 12}), 4, a, b);
       },
       "GetAscendDequantMaxMinTmpSize: the last dimension 12 is not a multiple of 8"},
      {[](uint32_t& a, uint32_t& b) {
         AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1000}), ge::Shape({128}), false, ge::DT_INT8,
                                                  ge::DT_FLOAT16, a, b);
       },
       "GetAscendAntiQuantMaxMinTmpSize: scaleShape's 128 elements do not divide srcShape's 1000"},
      {[](uint32_t& a, uint32_t& b) {
         AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1024}), ge::Shape({128}), false, ge::DT_FLOAT,
                                                  ge::DT_FLOAT16, a, b);
       },
       "GetAscendAntiQuantMaxMinTmpSize: inputDataType 0 is not DT_INT8 or DT_INT4"},
  };
  for (const Case& c : cases) {
    uint32_t mx = 7, mn = 7;
    testing::internal::CaptureStdout();
    c.call(mx, mn);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_EQ(mx, 0u) << c.line;
    EXPECT_EQ(mn, 0u) << c.line;
    EXPECT_NE(out.find(c.line), std::string::npos) << out;
  }
}

}  // namespace
