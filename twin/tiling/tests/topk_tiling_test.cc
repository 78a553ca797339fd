// TopK's host side as CANN's topk sample calls it: GetTopKMaxMinTmpSize grows with the shape
// (normal mode: min one row, max all rows; small mode: min = max), TopKTilingFunc fills the
// fields the kernel checks and the host class's bytes are the kernel struct, and shapes TopK
// does not take give false, zeroed outputs and one error line.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"

// The tiling class of CANN's topk sample: the TopkTiling struct, five uint32_t and a bool.
namespace optiling {
BEGIN_TILING_DATA_DEF(TopKSampleTilingData)
TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topKTilingData);
TILING_DATA_FIELD_DEF(uint32_t, k);
TILING_DATA_FIELD_DEF(uint32_t, outter);
TILING_DATA_FIELD_DEF(uint32_t, inner);
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, minsize);
TILING_DATA_FIELD_DEF(bool, isLargest);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace {

const bool kLogToStdout = setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1) == 0;

const platform_ascendc::PlatformAscendC& Platform() {
  return *platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
}

TEST(TopKTiling, TmpSizesGrowWithTheShape) {
  ASSERT_TRUE(kLogToStdout);
  uint32_t mx = 0, mn = 0;
  ASSERT_TRUE(
      AscendC::GetTopKMaxMinTmpSize(Platform(), 64, 2, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  EXPECT_EQ(mn, 2u * 64 * 8 + 64 * 4);  // the pairs twice, the generated indices
  EXPECT_EQ(mx, 2 * mn);
  uint32_t mx2 = 0, mn2 = 0;
  ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(Platform(), 128, 2, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4,
                                            mx2, mn2));
  EXPECT_GT(mn2, mn);
  ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(Platform(), 64, 2, false, true, AscendC::TopKMode::TOPK_NORMAL, false, 2,
                                            mx2, mn2));
  EXPECT_EQ(mn2, 2u * 64 * 8 + 64 * 2);  // given indices; the negated half row for the smallest
  ASSERT_TRUE(
      AscendC::GetTopKMaxMinTmpSize(Platform(), 32, 6, false, true, AscendC::TopKMode::TOPK_NSMALL, true, 4, mx2, mn2));
  EXPECT_EQ(mn2, 6u * 2 * 32 * 8);
  EXPECT_EQ(mx2, mn2);
}

TEST(TopKTiling, FillAndHostClassBytes) {
  AscendC::tiling::TopkTiling pod{};
  ASSERT_TRUE(AscendC::TopKTilingFunc(Platform(), 32, 2, 1, 4, false, AscendC::TopKMode::TOPK_NORMAL, false, pod));
  EXPECT_EQ(pod.innerDataSize, 32);
  EXPECT_EQ(pod.allDataSize, 64);
  EXPECT_EQ(pod.kAlignFourBytes, 8);
  EXPECT_EQ(pod.kAlignTwoBytes, 16);
  EXPECT_EQ(pod.sortRepeat, 1u);
  optiling::TopkTiling host;
  ASSERT_TRUE(AscendC::TopKTilingFunc(Platform(), 32, 2, 1, 4, false, AscendC::TopKMode::TOPK_NORMAL, false, host));
  ASSERT_EQ(host.GetDataSize(), sizeof(pod));
  std::vector<uint8_t> bytes(host.GetDataSize());
  host.SaveToBuffer(bytes.data(), bytes.size());
  EXPECT_EQ(std::memcmp(bytes.data(), &pod, sizeof(pod)), 0);
}

// The sample's kernel copies its tiling into this struct word by word.
struct SampleKernelTiling {
  TopkTiling topKTilingData;
  uint32_t k, outter, inner, n, minsize;
  bool isLargest;
};

TEST(TopKTiling, SampleTilingClassWithABoolFieldIsTheKernelStruct) {
  optiling::TopKSampleTilingData host;
  ASSERT_TRUE(AscendC::TopKTilingFunc(Platform(), 32, 2, 1, 4, false, AscendC::TopKMode::TOPK_NORMAL, false,
                                      host.topKTilingData));
  host.set_k(1);
  host.set_outter(2);
  host.set_inner(32);
  host.set_n(32);
  host.set_minsize(777);
  host.set_isLargest(true);
  // the fields end at the bool (133 bytes); the C struct adds its tail padding
  ASSERT_EQ(host.GetDataSize(), offsetof(SampleKernelTiling, isLargest) + 1);
  SampleKernelTiling kernel{};
  host.SaveToBuffer(&kernel, host.GetDataSize());
  EXPECT_EQ(kernel.topKTilingData.innerDataSize, 32);
  EXPECT_EQ(kernel.topKTilingData.allDataSize, 64);
  EXPECT_EQ(kernel.minsize, 777u);
  EXPECT_TRUE(kernel.isLargest);
}

TEST(TopKTiling, ShapesTopKDoesNotTake) {
  struct Case {
    int32_t inner, outter, k;
    uint32_t typeSize;
    AscendC::TopKMode mode;
    const char* line;
  };
  const Case cases[] = {
      {48, 2, 1, 4, AscendC::TopKMode::TOPK_NORMAL, "inner 48 / outter 2: inner must be a positive multiple of 32"},
      {64, 2, 1, 4, AscendC::TopKMode::TOPK_NSMALL, "TOPK_NSMALL needs inner 32, got 64"},
      {8192, 1, 1, 4, AscendC::TopKMode::TOPK_NORMAL, "TOPK_NORMAL takes inner up to 4096, got 8192"},
      {64, 2, 1, 8, AscendC::TopKMode::TOPK_NORMAL, "dataTypeSize 8 is not 2 (half) or 4 (float)"},
      {64, 2, 65, 4, AscendC::TopKMode::TOPK_NORMAL, "TopKTilingFunc: k 65 is outside [1, inner 64]"},
  };
  for (const Case& c : cases) {
    AscendC::tiling::TopkTiling t{};
    t.innerDataSize = 99;
    testing::internal::CaptureStdout();
    const bool ok = AscendC::TopKTilingFunc(Platform(), c.inner, c.outter, c.k, c.typeSize, false, c.mode, true, t);
    const std::string out = testing::internal::GetCapturedStdout();
    EXPECT_FALSE(ok) << c.line;
    EXPECT_EQ(t.innerDataSize, 0) << c.line;
    EXPECT_NE(out.find(c.line), std::string::npos) << out;
  }
  uint32_t mx = 7, mn = 7;
  EXPECT_FALSE(
      AscendC::GetTopKMaxMinTmpSize(Platform(), 40, 1, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4, mx, mn));
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
}

}  // namespace
