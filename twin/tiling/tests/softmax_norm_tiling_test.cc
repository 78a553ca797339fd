// The host tiling of the SoftMax family and normalisation as a CANN sample uses it: tmp sizes,
// the tiling fill, the optiling class's bytes equal to the kernel struct, and bad input (one
// error line, a zeroed tiling or false).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

TEST(SoftmaxTiling, SizesAndFill) {
  const ge::Shape shape({16, 128});
  const uint32_t min = AscendC::GetSoftMaxMinTmpSize(shape, sizeof(float), false);
  const uint32_t max = AscendC::GetSoftMaxMaxTmpSize(shape, sizeof(float), false);
  EXPECT_EQ(min, 128u * 4 + 64);
  EXPECT_EQ(max, 16u * min);
  AscendC::tiling::SoftMaxTiling t{};
  AscendC::SoftMaxTilingFunc(shape, sizeof(float), 3 * min, t);
  EXPECT_EQ(t.srcM, 16u);
  EXPECT_EQ(t.srcK, 128u);
  EXPECT_EQ(t.outMaxK, 8u);  // one 32-byte block of float per row
  EXPECT_EQ(t.splitM, 3u);
  EXPECT_EQ(t.rangeM, 5u);
  EXPECT_EQ(t.tailM, 1u);
  EXPECT_TRUE(AscendC::IsBasicBlockInSoftMax(t));
}

TEST(SoftmaxTiling, HostClassBytesAreTheKernelStruct) {
  const ge::Shape shape({8, 64});
  optiling::SoftMaxTiling host;
  AscendC::tiling::SoftMaxTiling pod{};
  const uint32_t min = AscendC::GetSoftMaxFlashV2MinTmpSize(shape, 2, 4, true);
  AscendC::SoftMaxFlashV2TilingFunc(shape, 2, 4, min, host, true);
  AscendC::SoftMaxFlashV2TilingFunc(shape, 2, 4, min, pod, true);
  ASSERT_EQ(host.GetDataSize(), sizeof(pod));
  std::vector<uint8_t> bytes(host.GetDataSize());
  host.SaveToBuffer(bytes.data(), bytes.size());
  EXPECT_EQ(std::memcmp(bytes.data(), &pod, sizeof(pod)), 0);
  EXPECT_EQ(host.get_srcK(), 64u);
}

TEST(SoftmaxTiling, BadInputZeroesTheTiling) {
  AscendC::tiling::SoftMaxTiling t{};
  t.srcM = 7;
  AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), sizeof(float), 16, t);  // below the minimum
  EXPECT_EQ(t.srcM, 0u);
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({4, -1}), sizeof(float), false), 0u);
  EXPECT_EQ(AscendC::GetLogSoftMaxMinTmpSize(ge::Shape({4, 64}), 3, false), 0u);  // no 3-byte type
}

TEST(NormTiling, LayerNormRmsNormDeepNorm) {
  uint32_t max = 0, min = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({2, 32, 16, 16}), 4, false, max, min);
  EXPECT_EQ(min, 16u * 4 + 64);
  AscendC::tiling::LayerNormTiling ln{};
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), min, 4, false, ln);
  EXPECT_EQ(ln.bLength, 2u);
  EXPECT_EQ(ln.sLength, 32u);
  EXPECT_EQ(ln.hLength, 16u);
  EXPECT_EQ(ln.loopRound, 64u);  // one row per pass with the minimum
  EXPECT_FLOAT_EQ(ln.lastDimValueBack, 1.0f / 16);

  optiling::RmsNormTiling rms;
  EXPECT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 64}), 2, max, min));
  EXPECT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 8, 60}), max, 2, rms));
  EXPECT_EQ(rms.get_originalHLength(), 60u);
  EXPECT_EQ(rms.get_mainBsLength(), 16u);
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape({2, 8, 60}), ge::Shape({2, 8, 60}), max, 2, rms));  // 120 B rows
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape({2, 8, 64}), ge::Shape({2, 8, 64}), 8, 2, rms));    // too small

  AscendC::tiling::DeepNormTiling dn{};
  EXPECT_TRUE(AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({4, 16, 64}), 4, false, true, max, min));
  EXPECT_TRUE(AscendC::GetDeepNormTilingInfo(ge::Shape({4, 16, 64}), ge::Shape({4, 16, 64}), min, 4, false, true, dn));
  EXPECT_EQ(dn.bLength * dn.sLength, 64u);
  EXPECT_FALSE(AscendC::GetDeepNormTilingInfo(ge::Shape({4, 15, 64}), ge::Shape({4, 15, 64}), min, 4, false, true,
                                              dn));  // basic block needs B * S a multiple of 8
}

}  // namespace
