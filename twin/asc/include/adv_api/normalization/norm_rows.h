// The row engine of the normalisation APIs (LayerNorm both forms, DeepNorm, RmsNorm, Normalize):
// per row of a [rows, cols] tile, mean and variance (population, over the data columns) in
// float, then y = (x - mean) * rstd * gamma + beta written once as T. gamma/beta are widened
// once per call. Not a CANN header.
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_NORM_ROWS_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_NORM_ROWS_H_

#include <cmath>
#include <cstdint>

#include "adv_api/activation/softmax_common.h"
#include "kernel_tiling/kernel_tiling.h"
#include "kernel_tiling/softmax_norm_tmp_size.h"

namespace AscendC {
namespace twin {
namespace adv {

struct NormTile {
  uint32_t rows = 0;
  uint32_t k = 0;     // row pitch in elements (padded)
  uint32_t oriK = 0;  // data columns
};

template <typename T>
inline void CheckNormTile(const char* api, const NormTile& t) {
  if (t.k == 0) return;
  if ((uint64_t{t.k} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: the last axis length %u is not 32-byte aligned (%u bytes per row; pad it to a multiple of %u)", api,
              t.k, static_cast<unsigned>(t.k * sizeof(T)), static_cast<unsigned>(ONE_BLK_SIZE / sizeof(T)));
  }
  if (t.oriK == 0 || t.oriK > t.k)
    RaiseTrap("%s: the original last axis length %u is 0 or exceeds %u", api, t.oriK, t.k);
}

// The inputs and outputs of one normalisation call; null pointers are absent operands.
template <typename T, typename U, typename S>
struct NormIo {
  T* dst = nullptr;
  const T* x = nullptr;
  const T* gx = nullptr;  // DeepNorm's second input (x1 = alpha * x + gx)
  float alpha = 1.0f;
  const U* gamma = nullptr;
  const U* beta = nullptr;
  S* mean = nullptr;    // per-row statistic outputs (stride 1)
  S* second = nullptr;  // variance or rstd, per `secondIsRstd`
  bool secondIsRstd = false;
  const float* givenMean = nullptr;  // Normalize: statistics given, not computed
  const float* givenVar = nullptr;
  float epsilon = 0.0f;
  bool rms = false;  // RmsNorm: no mean subtraction, rstd from the mean square
};

template <typename U>
inline const float* WidenParam(const U* p, uint32_t n, float* scratch) {
  return p == nullptr ? nullptr : WidenRow(p, n, scratch);
}

template <typename T, typename U, typename S>
inline void NormRows(const NormTile& t, const NormIo<T, U, S>& io, const LocalTensor<uint8_t>* tmp) {
  if (t.rows == 0) return;
  float* scratch = ScratchFloats(tmp, size_t{3} * t.k);
  float* row = scratch;
  const float* g = WidenParam(io.gamma, t.oriK, scratch + t.k);
  const float* b = WidenParam(io.beta, t.oriK, scratch + 2 * size_t{t.k});
  const float invN = 1.0f / static_cast<float>(t.oriK);
  for (uint32_t r = 0; r < t.rows; ++r) {
    const size_t off = size_t{r} * t.k;
    const float* xf;
    if (io.gx != nullptr) {
      for (uint32_t j = 0; j < t.oriK; ++j) {
        row[j] = io.alpha * static_cast<float>(io.x[off + j]) + static_cast<float>(io.gx[off + j]);
      }
      xf = row;
    } else {
      xf = WidenRow(io.x + off, t.oriK, row);
    }
    float mean, var;
    if (io.givenMean != nullptr) {
      mean = io.givenMean[r];
      var = io.givenVar[r];
    } else if (io.rms) {
      mean = 0.0f;
      var = RowDot(xf, xf, t.oriK) * invN;
    } else {
      mean = RowDot(xf, nullptr, t.oriK) * invN;
      var = RowSqDev(xf, t.oriK, mean) * invN;
    }
    const float rstd = 1.0f / std::sqrt(var + io.epsilon);
    float* out = std::is_same<T, float>::value ? reinterpret_cast<float*>(io.dst + off) : row;
    RowAffine(out, xf, t.oriK, mean, rstd, g, b);
    NarrowRow(io.dst + off, out, t.oriK);
    for (uint32_t j = t.oriK; j < t.k; ++j) io.dst[off + j] = static_cast<T>(0.0f);
    if (io.mean != nullptr) io.mean[r] = static_cast<S>(mean);
    if (io.second != nullptr) io.second[r] = static_cast<S>(io.secondIsRstd ? rstd : var);
  }
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_NORM_ROWS_H_
