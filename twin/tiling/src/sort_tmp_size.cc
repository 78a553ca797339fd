// Sort tmp sizes. Concat/Sort (basic API, A2/A3): one 8-byte region proposal per element.
// High-level Sort (the twin's model): two buffers of (value, index) pairs, the ping-pong of a
// radix or merge pass; min = max.
#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

uint32_t ProposalBytes(const char* api, uint32_t elemCount, uint32_t dataTypeSize) {
  if (dataTypeSize != 2 && dataTypeSize != 4) {
    asc_twin_tiling::TilingError(api, "dataTypeSize %u is not 2 (half) or 4 (float)", dataTypeSize);
    return 0;
  }
  const uint32_t perElem =
      dataTypeSize == 2 ? REGION_PROPOSAL_DATA_SIZE_HALF_V220 : REGION_PROPOSAL_DATA_SIZE_FLOAT_V220;
  return static_cast<uint32_t>(asc_twin_tmp::AlignBlock(static_cast<uint64_t>(elemCount) * perElem * dataTypeSize));
}

uint32_t SizeOfType(ge::DataType t) {
  switch (t) {
    case ge::DT_FLOAT:
    case ge::DT_INT32:
    case ge::DT_UINT32:
      return 4;
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
    case ge::DT_INT16:
    case ge::DT_UINT16:
      return 2;
    case ge::DT_INT8:
    case ge::DT_UINT8:
      return 1;
    case ge::DT_INT64:
    case ge::DT_UINT64:
      return 8;
    default:
      return 0;
  }
}

}  // namespace

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC&, const uint32_t elemCount,
                          const uint32_t dataTypeSize) {
  return ProposalBytes("GetConcatTmpSize", elemCount, dataTypeSize);
}

uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC&, const uint32_t elemCount,
                        const uint32_t dataTypeSize) {
  return ProposalBytes("GetSortTmpSize", elemCount, dataTypeSize);
}

void GetSortMaxMinTmpSize(const TensorShape& srcShape, TensorDataType valueType, TensorDataType indexType, bool,
                          const SortConfig&, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  uint64_t count = 0;
  const char* why = nullptr;
  if (!asc_twin_tiling::ShapeElements(srcShape, &count, &why)) {
    return asc_twin_tiling::TilingError("GetSortMaxMinTmpSize", "srcShape is not usable: %s", why);
  }
  const uint32_t vs = SizeOfType(valueType), is = SizeOfType(indexType);
  if (vs == 0 || is == 0) {
    return asc_twin_tiling::TilingError("GetSortMaxMinTmpSize", "valueType %d / indexType %d is not supported",
                                        static_cast<int>(valueType), static_cast<int>(indexType));
  }
  maxValue = minValue = static_cast<uint32_t>(2 * asc_twin_tmp::AlignBlock(count * (vs + is)));
}

}  // namespace AscendC
