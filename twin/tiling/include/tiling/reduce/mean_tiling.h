// Host tmp-size functions of the Mean high-level API.
#ifndef ASC_TWIN_TILING_REDUCE_MEAN_TILING_H_
#define ASC_TWIN_TILING_REDUCE_MEAN_TILING_H_

#include <cstdint>

namespace AscendC {

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                          const bool isReuseSource, uint32_t& maxSize, uint32_t& minSize);
void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer);

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_REDUCE_MEAN_TILING_H_
