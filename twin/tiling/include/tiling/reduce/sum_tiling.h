// Host tmp-size function of the Sum high-level API (rows of n elements of typeSize bytes).
#ifndef ASC_TWIN_TILING_REDUCE_SUM_TILING_H_
#define ASC_TWIN_TILING_REDUCE_SUM_TILING_H_

#include <cstdint>

namespace AscendC {

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                         uint32_t& minSize);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_REDUCE_SUM_TILING_H_
