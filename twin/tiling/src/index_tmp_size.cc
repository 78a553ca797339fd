// Arange / ArithProgression compute straight into dst: no temporary space.
#include "tiling/tiling_api.h"

namespace AscendC {

void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }
void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) { maxValue = minValue = 0; }

}  // namespace AscendC
