// bazel test //ops/rms_norm_custom:host_tiling_test — RmsNormCustomHostTiling over random shapes
// (seed printed; RMS_NORM_TILING_SEED replays): every row in exactly one block and tile, whole
// tiles per block but the last, no more blocks than vector cores, a tile that fits the UB with
// RmsNorm's temporary buffer, and main/tail RmsNormTiling as GetRmsNormTilingInfo gives them for
// the tiles; bad shapes and SoCs are one error line.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "../kernel/rms_norm_custom_tiling.h"
#include "tiling/tiling_api.h"

extern "C" int64_t RmsNormCustomHostTiling(const char* soc, uint32_t b, uint32_t s, uint32_t h, uint32_t typeSize,
                                           float epsilon, void* out, uint64_t capacity, uint32_t* blockDim,
                                           uint64_t* workspaceBytes, char* error, uint64_t errorCapacity);

namespace {
struct Result {
  int64_t size = 0;
  RmsNormCustomTiling tiling{};
  uint32_t blockDim = 0;
  uint64_t workspace = 0;
  std::string error;
};

Result Tile(const char* soc, uint32_t b, uint32_t s, uint32_t h, uint32_t typeSize) {
  Result r;
  char error[256] = "";
  r.size = RmsNormCustomHostTiling(soc, b, s, h, typeSize, 1e-6f, &r.tiling, sizeof(r.tiling), &r.blockDim,
                                   &r.workspace, error, sizeof(error));
  r.error = error;
  return r;
}

uint32_t Seed() {
  const char* replay = std::getenv("RMS_NORM_TILING_SEED");
  const uint32_t seed =
      replay != nullptr ? static_cast<uint32_t>(std::strtoul(replay, nullptr, 10)) : std::random_device{}();
  std::printf("seed=%u (replay: RMS_NORM_TILING_SEED=%u)\n", seed, seed);
  return seed;
}

void ExpectTilingOf(const AscendC::tiling::RmsNormTiling& got, uint32_t rows, uint32_t hAligned, uint32_t h,
                    uint32_t tmpBytes, uint32_t typeSize) {
  AscendC::tiling::RmsNormTiling want{};
  ASSERT_TRUE(
      AscendC::GetRmsNormTilingInfo(ge::Shape({1, rows, hAligned}), ge::Shape({1, rows, h}), tmpBytes, typeSize, want));
  // Byte equality on purpose: the kernel reads these bytes; all fields are 4 bytes wide, no padding.
  // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): the float field is compared bit for bit too
  EXPECT_EQ(std::memcmp(&got, &want, sizeof(want)), 0) << rows << " x " << hAligned;
}
}  // namespace

TEST(RmsNormCustomHostTiling, RandomShapesKeepTheInvariants) {
  std::mt19937 rng(Seed());
  for (const char* soc : {"Ascend910B1", "Ascend950PR_9599"}) {
    auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
    ASSERT_NE(platform, nullptr) << soc;
    uint64_t ub = 0;
    platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    const uint32_t cores = platform->GetCoreNumAiv();
    for (int i = 0; i < 400; ++i) {
      const uint32_t typeSize = i % 2 == 0 ? 2 : 4;
      const uint32_t b = 1 + rng() % 8, s = 1 + rng() % (i % 3 == 0 ? 4000 : 60), h = 1 + rng() % 6000;
      SCOPED_TRACE(std::string(soc) + " [" + std::to_string(b) + ", " + std::to_string(s) + ", " + std::to_string(h) +
                   "] typeSize " + std::to_string(typeSize));
      const Result r = Tile(soc, b, s, h, typeSize);
      ASSERT_EQ(r.size, static_cast<int64_t>(sizeof(RmsNormCustomTiling))) << r.error;
      const RmsNormCustomTiling& t = r.tiling;
      const uint64_t rows = uint64_t{b} * s;
      EXPECT_EQ(t.totalRows, rows);
      EXPECT_EQ(t.blockNum, r.blockDim);
      EXPECT_GE(t.blockNum, 1u);
      EXPECT_LE(t.blockNum, cores);
      ASSERT_GE(t.tileRows, 1u);
      EXPECT_EQ(t.blockRows % t.tileRows, 0u);
      EXPECT_LT(uint64_t{t.blockNum - 1} * t.blockRows, rows);
      EXPECT_GE(uint64_t{t.blockNum} * t.blockRows, rows);
      // no block holds more than its even share plus the rounding to whole tiles
      EXPECT_LT(t.blockRows - (rows + cores - 1) / cores, t.blockRows / t.tileRows);
      const uint32_t lastRows = static_cast<uint32_t>(rows - uint64_t{t.blockNum - 1} * t.blockRows);
      EXPECT_GE(t.tailTileRows, 1u);
      EXPECT_LE(t.tailTileRows, t.tileRows);
      EXPECT_EQ((lastRows - t.tailTileRows) % t.tileRows, 0u);
      EXPECT_EQ(t.hLength, h);
      EXPECT_EQ(t.hAligned * typeSize % 32, 0u);
      EXPECT_LT(t.hAligned - h, 32 / typeSize);
      EXPECT_EQ(t.epsilon, 1e-6f);
      const uint64_t tileBytes = uint64_t{t.tileRows} * t.hAligned * typeSize;
      EXPECT_LE(4 * tileBytes + uint64_t{t.hAligned} * typeSize + t.tmpBufferBytes, ub);
      uint32_t maxTmp = 0, minTmp = 0;
      ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({1, t.tileRows, t.hAligned}), typeSize, maxTmp, minTmp));
      EXPECT_GE(t.tmpBufferBytes, minTmp);
      ExpectTilingOf(t.mainTiling, t.tileRows, t.hAligned, h, t.tmpBufferBytes, typeSize);
      ExpectTilingOf(t.tailTiling, t.tailTileRows, t.hAligned, h, t.tmpBufferBytes, typeSize);
      EXPECT_EQ(r.workspace, platform->GetLibApiWorkSpaceSize());
    }
  }
}

TEST(RmsNormCustomHostTiling, ManyRowsGiveSeveralTilesPerBlockAndAShortLastTile) {
  const Result r = Tile("Ascend910B1", 1, 4093, 200, 2);  // 4093 rows: prime
  ASSERT_EQ(r.size, static_cast<int64_t>(sizeof(RmsNormCustomTiling))) << r.error;
  EXPECT_EQ(r.blockDim, 48u);  // Ascend910B1's vector cores
  EXPECT_GT(r.tiling.blockRows / r.tiling.tileRows, 1u);
  EXPECT_LT(r.tiling.tailTileRows, r.tiling.tileRows);
}

TEST(RmsNormCustomHostTiling, BadInputIsOneErrorLine) {
  Result r = Tile("Ascend910B1", 1, 8, 1u << 20, 4);  // a 4 MiB row
  EXPECT_EQ(r.size, -1);
  EXPECT_NE(r.error.find("a row of H = 1048576 4-byte elements needs"), std::string::npos) << r.error;
  r = Tile("NoSuchSoc", 1, 8, 64, 4);
  EXPECT_EQ(r.size, -1);
  EXPECT_NE(r.error.find("no platform data for SoC 'NoSuchSoc'"), std::string::npos) << r.error;
  r = Tile("Ascend910B1", 0, 8, 64, 2);
  EXPECT_EQ(r.size, -1);
  EXPECT_NE(r.error.find("B * S and H must be in [1, 2^32)"), std::string::npos) << r.error;
  RmsNormCustomTiling small{};
  uint32_t blockDim = 0;
  uint64_t workspace = 0;
  char error[128] = "";
  EXPECT_EQ(RmsNormCustomHostTiling("Ascend910B1", 1, 8, 64, 2, 1e-6f, &small, 8, &blockDim, &workspace, error,
                                    sizeof(error)),
            -1);
  EXPECT_NE(std::string(error).find("shorter than 136 bytes"), std::string::npos) << error;
}
