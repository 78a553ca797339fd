// tiling/transpose/transdata_tiling.h: the host side of TransData (CANN's signature): the
// temporary space of one format change. srcShape / dstShape are the two layouts' shapes (the
// NCDHW one [N, C, D, H, W]); false, with one error line in the plog, for a data type other than
// a 16-bit one, a conversion TransData does not make, or shapes that do not match.
#ifndef ASC_TWIN_TILING_TRANSPOSE_TRANSDATA_TILING_H_
#define ASC_TWIN_TILING_TRANSPOSE_TRANSDATA_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {
bool GetTransDataMaxMinTmpSize(const platform_ascendc::PlatformAscendC& platform, const ge::Shape& srcShape,
                               const ge::Shape& dstShape, const ge::DataType dataType, const TransDataConfig& config,
                               uint32_t& maxValue, uint32_t& minValue);
}  // namespace AscendC

#endif  // ASC_TWIN_TILING_TRANSPOSE_TRANSDATA_TILING_H_
