// DropOut tmp sizes on the model of kernel_tiling/asc_twin_tmp_sizes.h (DropOutTmpBytes).
#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

uint32_t DropOutTmp(const char* api, const TensorShape& srcShape, uint32_t typeSize) {
  uint64_t count = 0;
  const char* why = nullptr;
  if (!asc_twin_tiling::ShapeElements(srcShape, &count, &why)) {
    asc_twin_tiling::TilingError(api, "srcShape is not usable: %s", why);
    return 0;
  }
  if (typeSize != 2 && typeSize != 4) {
    asc_twin_tiling::TilingError(api, "typeSize %u is not 2 (half) or 4 (float)", typeSize);
    return 0;
  }
  return static_cast<uint32_t>(asc_twin_tmp::DropOutTmpBytes(count));
}

}  // namespace

uint32_t GetDropOutMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool) {
  return DropOutTmp("GetDropOutMaxTmpSize", srcShape, typeSize);
}
uint32_t GetDropOutMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool) {
  return DropOutTmp("GetDropOutMinTmpSize", srcShape, typeSize);
}
void GetDropOutMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                             uint32_t& minValue) {
  maxValue = minValue = DropOutTmp("GetDropOutMaxMinTmpSize", srcShape, typeSize);
}

}  // namespace AscendC
