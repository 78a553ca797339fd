// Host tmp-size functions of sorting: GetConcatTmpSize / GetSortTmpSize for the basic
// Concat/Sort (A2/A3 region proposals: 8 bytes per element, score and index) and
// GetSortMaxMinTmpSize for the high-level Sort (SortConfig).
#ifndef ASC_TWIN_TILING_SORT_SORT_TILING_INTF_H_
#define ASC_TWIN_TILING_SORT_SORT_TILING_INTF_H_

#include <cstdint>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/utils/types.h"

namespace AscendC {

#ifndef ASCC_ENUM_SORTTYPE
#define ASCC_ENUM_SORTTYPE
enum class SortType { RADIX_SORT, MERGE_SORT };
#endif

// Elements of T per sorted element in a region proposal (CANN's names).
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_V200 = 8;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_HALF_V220 = 4;
constexpr uint32_t REGION_PROPOSAL_DATA_SIZE_FLOAT_V220 = 2;

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                          const uint32_t dataTypeSize);
uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                        const uint32_t dataTypeSize);

#ifndef ASCC_STRUCT_SORTCONFIG
#define ASCC_STRUCT_SORTCONFIG
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};
#endif

void GetSortMaxMinTmpSize(const AscendC::TensorShape& srcShape, AscendC::TensorDataType valueType,
                          AscendC::TensorDataType indexType, bool isReuseSource, const SortConfig& config,
                          uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_SORT_SORT_TILING_INTF_H_
