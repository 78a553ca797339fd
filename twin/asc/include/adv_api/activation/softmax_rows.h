// The SoftMax family's row loops, shared by SoftMax, SimpleSoftMax, SoftmaxFlash(V2), LogSoftMax
// and SoftmaxGrad: shape resolution with CANN's constraints (a trap names the API and the
// cause), then one pass per row over float data (softmax_common.h).
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_ROWS_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_ROWS_H_

#include <cmath>
#include <cstdint>

#include "adv_api/activation/softmax_common.h"
#include "adv_api/activation/softmax_utils.h"
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tiling/softmax_norm_tmp_size.h"

namespace AscendC {
namespace twin {
namespace adv {

struct RowTile {
  uint32_t m = 0;     // rows
  uint32_t k = 0;     // elements per row in the UB (padded)
  uint32_t oriK = 0;  // of which data
};

// The tile of a call: the shape info when it names one, else the tiling's srcM x srcK; config's
// oriSrcK (when set) names the data columns. Traps on CANN's documented constraints.
template <typename T>
inline RowTile ResolveRowTile(const char* api, uint32_t tilingM, uint32_t tilingK, const SoftMaxShapeInfo& s,
                              const SoftmaxConfig& config, bool isBasicBlock, bool isDataFormatNZ) {
  if (isDataFormatNZ) RaiseTrap("%s: isDataFormatNZ = true: the twin implements the ND format only", api);
  RowTile t;
  if (s.srcM != 0 || s.srcK != 0) {
    t.m = s.srcM;
    t.k = s.srcK;
    t.oriK = s.oriSrcK != 0 ? s.oriSrcK : s.srcK;
  } else {
    t.m = tilingM;
    t.k = tilingK;
    t.oriK = tilingK;
  }
  if (config.oriSrcK != 0) t.oriK = config.oriSrcK;
  if (t.m == 0 || t.k == 0) return RowTile{};
  if ((uint64_t{t.k} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: srcK %u is not 32-byte aligned (%u bytes of %s per row; pad the last axis to a multiple of %u)", api,
              t.k, static_cast<unsigned>(t.k * sizeof(T)), sizeof(T) == 2 ? "a 16-bit type" : "float",
              static_cast<unsigned>(ONE_BLK_SIZE / sizeof(T)));
  }
  if (t.oriK > t.k) RaiseTrap("%s: oriSrcK %u exceeds srcK %u", api, t.oriK, t.k);
  if (isBasicBlock && (t.m % 8 != 0 || t.k % 64 != 0 || t.k >= 2048)) {
    RaiseTrap("%s: isBasicBlock = true needs srcM a multiple of 8 and srcK a multiple of 64 below 2048 (got %u x %u)",
              api, t.m, t.k);
  }
  return t;
}

// Elements of a per-row max/sum entry: one 32-byte block, or one element without broadcast.
template <typename U>
inline uint32_t StatStride(const SoftmaxConfig& config) {
  return config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC ? 1u : BlockElems<U>();
}

template <typename U>
inline void StoreStat(U* base, uint32_t stride, uint32_t r, float v) {
  const U u = static_cast<U>(v);
  U* p = base + static_cast<size_t>(r) * stride;
  for (uint32_t j = 0; j < stride; ++j) p[j] = u;
}
template <typename U>
inline float LoadStat(const U* base, uint32_t stride, uint32_t r) {
  return static_cast<float>(base[static_cast<size_t>(r) * stride]);
}

// Traps unless a max/sum tensor holds m entries.
template <typename U>
inline void NeedStats(const char* api, const char* role, const LocalTensor<U>& t, uint32_t m, uint32_t stride) {
  NeedOperand(api, role, t, uint64_t{m} * stride);
}

inline void NeedSoftmaxTmp(const char* api, const LocalTensor<uint8_t>* tmp, const RowTile& t, uint32_t floatRows) {
  if (tmp != nullptr) NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, floatRows));
}

template <typename T>
inline void ZeroPad(T* row, const RowTile& t) {
  for (uint32_t j = t.oriK; j < t.k; ++j) row[j] = static_cast<T>(0.0f);
}

// What a softmax row pass does with its exponentials.
enum class ExpRowMode {
  kNormalize,  // dst = exp(x - max) / sum                                 (SoftMax)
  kExpOnly,    // dst = exp(x - max)                                       (SoftmaxFlashV2)
  kLog10,      // dst = log10(exp(x - max) / sum)                          (LogSoftMax)
};

// One row: returns max and the sum of exp(x - max); dst written per mode. `inMax` (when not
// null) joins the row maximum (the flash update); `sumAdd` is added to the normalising sum.
template <typename T>
inline void SoftmaxRow(T* dst, const T* src, const RowTile& t, float* scratch, ExpRowMode mode, const float* inMax,
                       float* outMax, float* outSum, float sumAdd = 0.0f) {
  const float* xf = WidenRow(src, t.oriK, scratch);
  float m = RowMax(xf, t.oriK);
  if (inMax != nullptr && *inMax > m) m = *inMax;
  float* e = std::is_same<T, float>::value ? reinterpret_cast<float*>(dst) : scratch;
  if (mode == ExpRowMode::kLog10) {
    // x is still needed after the sum: nothing stored until the last pass
    const float s = RowExpSum(xf, t.oriK, m);
    *outMax = m;
    *outSum = s;
    RowAffine(e, xf, t.oriK, m + std::log(s + sumAdd), 0.43429448190325182f, nullptr, nullptr);
  } else {
    const float s = RowExpSub(e, xf, t.oriK, m);
    *outMax = m;
    *outSum = s;
    if (mode == ExpRowMode::kNormalize) RowAffine(e, e, t.oriK, 0.0f, 1.0f / (s + sumAdd), nullptr, nullptr);
  }
  NarrowRow(dst, e, t.oriK);
  ZeroPad(dst, t);
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_ROWS_H_
