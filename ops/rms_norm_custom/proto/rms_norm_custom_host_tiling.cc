// The host tiling of RmsNormCustom through the high-level API's host library
// (GetRmsNormMaxMinTmpSize / GetRmsNormTilingInfo of tiling/tiling_api.h), exported from the OPP
// proto library for the compile holder (ctypes): the kernel's RmsNormCustomTiling bytes, the
// block dim and the workspace size, as a CANN tiling function sets them on its TilingContext.
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>

#include "rms_norm_custom_tiling_data.h"

namespace {
constexpr uint32_t kBufferNum = 2;           // the kernel's double-buffered x and y queues
constexpr uint32_t kMaxTileRows = 4095;      // DataCopyPad's blockCount is 16-bit; keeps a tile's bytes small
constexpr uint32_t kUbReservedBytes = 1024;  // what the kernel's TPipe keeps for itself

void SetError(char* error, uint64_t capacity, const char* format, ...) {
  if (error == nullptr || capacity == 0) return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(error, capacity, format, args);
  va_end(args);
}

uint32_t CeilDiv(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

// UB bytes a tile of `rows` rows needs: x and y double-buffered, gamma, RmsNorm's temporary buffer
// (the API's largest useful size for that tile, which it returns in `tmpBytes`); 0 if the library refuses.
uint64_t TileUbBytes(uint32_t rows, uint32_t hAligned, uint32_t typeSize, uint32_t* tmpBytes) {
  uint32_t maxTmp = 0, minTmp = 0;
  if (!AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({1, rows, hAligned}), typeSize, maxTmp, minTmp)) return 0;
  *tmpBytes = maxTmp;
  const uint64_t rowBytes = uint64_t{hAligned} * typeSize;
  return 2 * kBufferNum * rowBytes * rows + rowBytes + maxTmp;
}
}  // namespace

// Fills `out` with sizeof(RmsNormCustomTiling) bytes for x [b, s, h] of `typeSize`-byte elements
// on `soc` and returns that size, with the launch's block dim and workspace bytes; -1 with one
// line in `error` when the SoC has no platform data, a row does not fit the UB, or the library refuses.
extern "C" __attribute__((visibility("default"))) int64_t RmsNormCustomHostTiling(
    const char* soc, uint32_t b, uint32_t s, uint32_t h, uint32_t typeSize, float epsilon, void* out, uint64_t capacity,
    uint32_t* blockDim, uint64_t* workspaceBytes, char* error, uint64_t errorCapacity) {
  if (out == nullptr || blockDim == nullptr || workspaceBytes == nullptr || capacity < sizeof(RmsNormCustomTiling)) {
    SetError(error, errorCapacity, "the output buffers are missing or shorter than %zu bytes",
             sizeof(RmsNormCustomTiling));
    return -1;
  }
  platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  if (platform == nullptr) {
    SetError(error, errorCapacity, "no platform data for SoC '%s'", soc);
    return -1;
  }
  const uint64_t rows = uint64_t{b} * s;
  if (rows == 0 || h == 0 || rows > UINT32_MAX || (typeSize != 2 && typeSize != 4)) {
    SetError(error, errorCapacity, "x [%u, %u, %u] of %u-byte elements: B * S and H must be in [1, 2^32)", b, s, h,
             typeSize);
    return -1;
  }
  uint64_t ubBytes = 0;
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubBytes);
  const uint64_t usable = ubBytes > kUbReservedBytes ? ubBytes - kUbReservedBytes : 0;
  const uint32_t elemsPerBlock = 32 / typeSize;
  const uint32_t hAligned = CeilDiv(h, elemsPerBlock) * elemsPerBlock;

  // The most rows a tile can hold: start from the per-row estimate and step down until the API's own
  // size for the tile fits.
  uint32_t tmpBytes = 0;
  const uint64_t oneRow = TileUbBytes(1, hAligned, typeSize, &tmpBytes);
  if (oneRow == 0 || oneRow > usable) {
    SetError(error, errorCapacity, "a row of H = %u %u-byte elements needs %llu UB bytes, SoC %s has %llu", h, typeSize,
             static_cast<unsigned long long>(oneRow), platform->GetSocName(), static_cast<unsigned long long>(usable));
    return -1;
  }
  // Rows per block as even as whole tiles allow: each block's share in the fewest tiles that fit the
  // UB, those tiles as even as possible; the last block takes the rest.
  // A vector kernel runs on the vector cores (AIV) where the SoC splits them from the cube cores.
  const uint32_t cores =
      std::max(1u, platform->GetCoreNumAiv() != 0 ? platform->GetCoreNumAiv() : platform->GetCoreNum());
  const uint32_t perCore = CeilDiv(rows, cores);
  uint32_t maxTileRows = static_cast<uint32_t>(std::min<uint64_t>({usable / oneRow, perCore, kMaxTileRows}));
  while (maxTileRows > 1 && TileUbBytes(maxTileRows, hAligned, typeSize, &tmpBytes) > usable) --maxTileRows;
  const uint32_t tilesPerBlock = CeilDiv(perCore, maxTileRows);
  const uint32_t tileRows = CeilDiv(perCore, tilesPerBlock);
  TileUbBytes(tileRows, hAligned, typeSize, &tmpBytes);

  const uint32_t blockRows = tilesPerBlock * tileRows;
  const uint32_t blockNum = CeilDiv(rows, blockRows);
  const uint32_t lastRows = static_cast<uint32_t>(rows - uint64_t{blockNum - 1} * blockRows);
  const uint32_t tailTileRows = lastRows - (CeilDiv(lastRows, tileRows) - 1) * tileRows;

  optiling::RmsNormCustomTilingData tiling;
  tiling.set_totalRows(static_cast<uint32_t>(rows));
  tiling.set_blockNum(blockNum);
  tiling.set_blockRows(blockRows);
  tiling.set_tileRows(tileRows);
  tiling.set_tailTileRows(tailTileRows);
  tiling.set_hLength(h);
  tiling.set_hAligned(hAligned);
  tiling.set_tmpBufferBytes(tmpBytes);
  tiling.set_epsilon(epsilon);
  tiling.set_reserved(0);
  const struct {
    uint32_t rows;
    optiling::RmsNormTiling* into;
  } tiles[] = {{tileRows, &tiling.mainTiling}, {tailTileRows, &tiling.tailTiling}};
  for (const auto& tile : tiles) {
    if (!AscendC::GetRmsNormTilingInfo(ge::Shape({1, tile.rows, hAligned}), ge::Shape({1, tile.rows, h}), tmpBytes,
                                       typeSize, *tile.into)) {
      SetError(error, errorCapacity,
               "GetRmsNormTilingInfo refused a tile of [1, %u, %u] (H %u) with %u temporary bytes", tile.rows, hAligned,
               h, tmpBytes);
      return -1;
    }
  }
  if (tiling.GetDataSize() != sizeof(RmsNormCustomTiling)) {
    SetError(error, errorCapacity, "RmsNormCustomTilingData is %zu bytes, the kernel's struct %zu",
             tiling.GetDataSize(), sizeof(RmsNormCustomTiling));
    return -1;
  }
  tiling.SaveToBuffer(out, capacity);
  *blockDim = blockNum;
  *workspaceBytes = platform->GetLibApiWorkSpaceSize();  // the library's system workspace; no user workspace
  return static_cast<int64_t>(tiling.GetDataSize());
}
