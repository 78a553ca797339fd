// The data-layout APIs' host tiling (Pad, UnPad, Broadcast, ConfusionTranspose): sizes from the
// shared rule, the tiling fields the kernels read, the optiling classes carrying the same bytes,
// and one error line (zeroed output) for each kind of bad input.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

ge::Shape Shape(const std::vector<int64_t>& d) { return ge::Shape(d); }

template <typename Host, typename Kernel>
void ExpectSameBytes(Host& host, const Kernel& kernel) {
  std::vector<uint8_t> buf(sizeof(Kernel));
  host.SaveToBuffer(buf.data(), buf.size());
  EXPECT_EQ(0, std::memcmp(buf.data(), &kernel, sizeof(Kernel)));
}

TEST(PadTiling, SizesAndFieldsForRandomShapes) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  for (int i = 0; i < 200; ++i) {
    const uint32_t ts = (rng() & 1) ? 2 : 4;
    const uint32_t h = 1 + rng() % 64, w = 1 + rng() % 200;
    uint32_t maxV = 0, minV = 0;
    AscendC::GetPadMaxMinTmpSize(Shape({h, w}), ts, maxV, minV);
    const uint32_t row = (w * ts + 31) / 32 * 32;
    ASSERT_EQ(minV, row);
    ASSERT_EQ(maxV, row * h);
    const uint32_t perBlock = 32 / ts;
    if (w % perBlock == 0 && w == 1) continue;
    // an aligned width pads its invalid tail (ori < w); an unaligned one pads to the next block
    const uint32_t ori = (w % perBlock == 0) ? 1 + rng() % (w - 1) : w;
    AscendC::tiling::PadTiling t;
    AscendC::PadTilingFunc(Shape({h, w}), Shape({h, ori}), minV, ts, t);
    ASSERT_EQ(t.srcHeight, h);
    ASSERT_EQ(t.srcWidth, w);
    ASSERT_EQ(t.srcOriWidth, ori);
    ASSERT_EQ(t.heightTiling, 1u);  // a one-row buffer holds one row per pass
    optiling::PadTiling host;
    AscendC::PadTilingFunc(Shape({h, w}), Shape({h, ori}), maxV, ts, host);
    AscendC::tiling::PadTiling whole;
    AscendC::PadTilingFunc(Shape({h, w}), Shape({h, ori}), maxV, ts, whole);
    ASSERT_EQ(whole.heightTiling, h);
    ExpectSameBytes(host, whole);
  }
}

TEST(PadTiling, BadInputZeroesTheTiling) {
  AscendC::tiling::PadTiling t;
  t.srcHeight = 7;
  AscendC::PadTilingFunc(Shape({16, 16}), Shape({16, 16}), 1024, 2, t);  // aligned and all valid
  EXPECT_EQ(t.srcHeight, 0u);
  t.srcHeight = 7;
  AscendC::PadTilingFunc(Shape({16, 15}), Shape({16, 15}), 1024, 8, t);  // typeSize
  EXPECT_EQ(t.srcHeight, 0u);
  t.srcHeight = 7;
  AscendC::PadTilingFunc(Shape({16, 15}), Shape({16, 15}), 8, 2, t);  // below one row
  EXPECT_EQ(t.srcHeight, 0u);
  t.srcHeight = 7;
  AscendC::PadTilingFunc(Shape({16, 15}), Shape({8, 15}), 1024, 2, t);  // heights differ
  EXPECT_EQ(t.srcHeight, 0u);
  uint32_t maxV = 1, minV = 1;
  AscendC::GetPadMaxMinTmpSize(Shape({16, 15, 2}), 2, maxV, minV);
  EXPECT_EQ(maxV + minV, 0u);
  AscendC::GetPadMaxMinTmpSize(Shape({-1, 15}), 2, maxV, minV);
  EXPECT_EQ(maxV + minV, 0u);
}

TEST(UnPadTiling, FieldsAndRefusals) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  uint32_t maxV = 0, minV = 0;
  if (plat != nullptr) {
    AscendC::GetUnPadMaxMinTmpSize(*plat, Shape({320, 64}), 2, maxV, minV);
    EXPECT_EQ(minV, 128u);
    EXPECT_EQ(maxV, 128u * 320);
  }
  AscendC::tiling::UnPadTiling t;
  AscendC::UnPadTilingFunc(Shape({320, 64}), 128u * 320, 2, t);
  EXPECT_EQ(t.srcHeight, 320u);
  EXPECT_EQ(t.srcWidth, 64u);
  EXPECT_EQ(t.widthTiling, 320u);
  optiling::UnPadTiling host;
  AscendC::UnPadTilingFunc(Shape({320, 64}), 128u * 320, 2, host);
  ExpectSameBytes(host, t);
  AscendC::UnPadTilingFunc(Shape({320, 63}), 4096, 2, t);  // width not aligned
  EXPECT_EQ(t.srcWidth, 0u);
}

TEST(BroadcastTiling, TmpSizes) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  ASSERT_NE(plat, nullptr);
  uint32_t maxV = 0, minV = 0;
  AscendC::GetBroadCastMaxMinTmpSize(*plat, Shape({16, 1}), Shape({16, 40}), 4, false, maxV, minV);
  EXPECT_EQ(minV, 256u);
  EXPECT_EQ(maxV, 16u * 40 * 4);
  AscendC::GetBroadCastMaxMinTmpSize(*plat, Shape({16, 40}), Shape({16, 40}), 4, false, maxV, minV);
  EXPECT_EQ(maxV + minV, 0u);
  maxV = minV = 9;
  AscendC::GetBroadCastMaxMinTmpSize(*plat, Shape({16, 2}), Shape({16, 40}), 4, false, maxV, minV);  // 2 -> 40
  EXPECT_EQ(maxV + minV, 0u);
  maxV = minV = 9;
  AscendC::GetBroadCastMaxMinTmpSize(*plat, Shape({1, 1, 4}), Shape({2, 3, 4}), 4, false, maxV, minV);  // rank 3
  EXPECT_EQ(maxV + minV, 0u);
}

TEST(ConfusionTransposeTiling, ScenariosAndRefusals) {
  uint32_t maxV = 0, minV = 0;
  AscendC::GetTransposeMaxMinTmpSize(Shape({1, 2, 64, 32}), 2, 1, maxV, minV);
  EXPECT_EQ(minV, 1024u);
  EXPECT_EQ(maxV, 1u * 2 * 64 * 32 * 2);
  AscendC::tiling::ConfusionTransposeTiling t;
  AscendC::GetTransposeTilingInfo(Shape({1, 2, 64, 32}), minV, 2, 1, t);
  EXPECT_EQ(t.param0, 1u);
  EXPECT_EQ(t.param1, 1u);
  EXPECT_EQ(t.param2, 2u);
  EXPECT_EQ(t.param3, 64u);
  EXPECT_EQ(t.param4, 32u);
  optiling::ConfusionTransposeTiling host;
  AscendC::GetConfusionTransposeTilingInfo(Shape({1, 2, 64, 32}), minV, 2, 1, host);
  ExpectSameBytes(host, t);
  AscendC::GetConfusionTransposeOnlyTilingInfo(Shape({32, 48}), 4096, 4, t);
  EXPECT_EQ(t.param0, 7u);
  EXPECT_EQ(t.param1, 32u);
  EXPECT_EQ(t.param2, 48u);
  // refusals: scenario out of range, S not a multiple of 16, stack below the minimum, N for scenario 2
  AscendC::GetTransposeTilingInfo(Shape({1, 2, 64, 32}), 4096, 2, 9, t);
  EXPECT_EQ(t.param0, 0u);
  AscendC::GetTransposeTilingInfo(Shape({1, 2, 60, 32}), 4096, 2, 1, t);
  EXPECT_EQ(t.param0, 0u);
  AscendC::GetTransposeTilingInfo(Shape({1, 2, 64, 32}), 100, 2, 1, t);
  EXPECT_EQ(t.param0, 0u);
  AscendC::GetTransposeTilingInfo(Shape({1, 2, 64, 32}), 4096, 2, 2, t);
  EXPECT_EQ(t.param0, 0u);
  AscendC::GetTransposeMaxMinTmpSize(Shape({1, 2, 64, 32}), 8, 1, maxV, minV);
  EXPECT_EQ(maxV + minV, 0u);
}

TEST(TransDataTiling, SizesAndRefusals) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  ASSERT_NE(plat, nullptr);
  const AscendC::TransDataConfig toNdc = {AscendC::DataFormat::NCDHW, AscendC::DataFormat::NDC1HWC0};
  const AscendC::TransDataConfig toFz = {AscendC::DataFormat::NCDHW, AscendC::DataFormat::FRACTAL_Z_3D};
  const AscendC::TransDataConfig fromFz = {AscendC::DataFormat::FRACTAL_Z_3D, AscendC::DataFormat::NCDHW};
  uint32_t maxV = 0, minV = 0;
  // CANN's sample shape [16, 16, 1, 3, 5]: one 16-channel batch of a 16-element plane
  EXPECT_TRUE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({16, 16, 1, 3, 5}), Shape({16, 1, 1, 3, 5, 16}),
                                                 ge::DT_FLOAT16, toNdc, maxV, minV));
  EXPECT_EQ(minV, 1u * 16 * 16 * 2);
  EXPECT_EQ(maxV, 16u * 16 * 16 * 2);
  EXPECT_TRUE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({17, 20, 2, 3, 5}), Shape({2, 2, 3, 5, 2, 16, 16}),
                                                 ge::DT_BF16, toFz, maxV, minV));
  EXPECT_EQ(minV, 2u * 32 * 16 * 2);
  EXPECT_TRUE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({2, 2, 3, 5, 2, 16, 16}), Shape({17, 20, 2, 3, 5}),
                                                 ge::DT_INT16, fromFz, maxV, minV));
  // refusals: a 32-bit type, a mismatched other shape, a conversion TransData does not make
  EXPECT_FALSE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({16, 16, 1, 3, 5}), Shape({16, 1, 1, 3, 5, 16}),
                                                  ge::DT_FLOAT, toNdc, maxV, minV));
  EXPECT_EQ(maxV + minV, 0u);
  EXPECT_FALSE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({16, 16, 1, 3, 5}), Shape({16, 2, 1, 3, 5, 16}),
                                                  ge::DT_FLOAT16, toNdc, maxV, minV));
  const AscendC::TransDataConfig nz = {AscendC::DataFormat::ND, AscendC::DataFormat::NZ};
  EXPECT_FALSE(AscendC::GetTransDataMaxMinTmpSize(*plat, Shape({16, 16, 1, 3, 5}), Shape({16, 1, 1, 3, 5, 16}),
                                                  ge::DT_FLOAT16, nz, maxV, minV));
}

}  // namespace
