// The host tiling of MatmulLeakyReluCustom, through the Matmul API's host library
// (matmul_tiling::MultiCoreMatmulTiling of tiling/tiling_api.h), exported from the OPP proto
// library for the compile holder (ctypes): the kernel's MatmulLeakyReluTiling bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../kernel/matmul_leakyrelu_tiling.h"
#include "tiling/tiling_api.h"

// Writes sizeof(MatmulLeakyReluTiling) bytes to `out` and returns that size; -1 when the SoC has
// no platform data, the capacity is short, or GetTiling fails (its log line names why).
extern "C" __attribute__((visibility("default"))) int64_t MatmulLeakyReluCustomTiling(const char* soc, int32_t m,
                                                                                      int32_t n, int32_t k,
                                                                                      float negativeSlope, void* out,
                                                                                      uint64_t capacity) {
  if (out == nullptr || capacity < sizeof(MatmulLeakyReluTiling)) return -1;
  platform_ascendc::PlatformAscendC* platform = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
  if (platform == nullptr) return -1;
  using matmul_tiling::CubeFormat;
  using matmul_tiling::DataType;
  using matmul_tiling::TPosition;
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::VECIN, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.EnableBias(true);
  api.SetBufferSpace(-1, -1, -1);
  MatmulLeakyReluTiling tiling{};
  if (api.GetTiling(tiling.cubeTiling) == -1) return -1;
  tiling.negativeSlope = negativeSlope;
  std::memcpy(out, &tiling, sizeof(tiling));
  return static_cast<int64_t>(sizeof(tiling));
}
