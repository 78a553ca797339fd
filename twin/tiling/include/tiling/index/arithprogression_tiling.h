// Host tmp-size functions of Arange / ArithProgression: they need no temporary space (0, 0).
#ifndef ASC_TWIN_TILING_INDEX_ARITHPROGRESSION_TILING_H_
#define ASC_TWIN_TILING_INDEX_ARITHPROGRESSION_TILING_H_

#include <cstdint>

namespace AscendC {

void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue);
void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_INDEX_ARITHPROGRESSION_TILING_H_
