// The row engine of the twin's SoftMax family and normalisation APIs: a [rows, cols] tile in the
// UB is processed row by row in float (16-bit inputs widened once, results rounded once, as the
// NPU's implementation computes them), with float loops that clang vectorises: 8-lane
// accumulators (one AVX2 register, or two SSE2 ones) in a fixed order, so the baseline and the
// AVX2 clone give bit-identical results. Not a CANN header: CANN's own helpers are internal.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_COMMON_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_COMMON_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "asc_twin/cpu_features.h"
#include "asc_twin/trap.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
constexpr bool kIsFloat16Like = std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value;

// Elements of T in one 32-byte block: the width of a row's max/sum entry (CANN broadcasts each
// row's value over one block).
template <typename T>
constexpr uint32_t BlockElems() {
  return ONE_BLK_SIZE / sizeof(T);
}

inline uint32_t AlignUpU32(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

inline int32_t FloatBitsOf(float f) {
  int32_t i;
  std::memcpy(&i, &f, sizeof(i));
  return i;
}
inline float FloatFromBits(int32_t i) {
  float f;
  std::memcpy(&f, &i, sizeof(f));
  return f;
}

// exp(x) in float, branch-free so that loops calling it vectorise: n = round(x / ln2) by the
// 1.5 * 2^23 trick, r = x - n ln2 (two-part ln2), exp(r) by its degree-7 Taylor polynomial
// (|r| <= ln2 / 2: truncation below 3e-9), times 2^n as two normal powers of two. Results within
// 2 ulp of the correctly rounded value; below FLT_MIN's logarithm it flushes to 0 (no
// subnormals, as the NPU's vector unit), above FLT_MAX's it is +inf; NaN stays NaN.
__attribute__((always_inline)) inline float ExpF(float x) {
  constexpr float kLo = -87.33654f, kHi = 88.72283f;
  const float xc = x < kLo ? kLo : (x > kHi ? kHi : x);
  constexpr float kShift = 12582912.0f;  // 1.5 * 2^23
  const float t = xc * 1.44269504088896341f + kShift;
  const float n = t - kShift;
  const int32_t ni = FloatBitsOf(t) - FloatBitsOf(kShift);
  const float r = (xc - n * 0.693359375f) - n * -2.12194440e-4f;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int32_t h = ni >> 1;
  const float s1 = FloatFromBits((h + 127) << 23);
  const float s2 = FloatFromBits((ni - h + 127) << 23);
  float e = p * s1 * s2;
  e = x < kLo ? 0.0f : e;
  e = x > kHi ? std::numeric_limits<float>::infinity() : e;
  return x != x ? x : e;
}

// gcc's -O2 vectoriser (the very-cheap cost model) will not if-convert ExpF's selects; these few
// row loops ask it for the dynamic model. clang vectorises them at -O2 as they are.
#if defined(__GNUC__) && !defined(__clang__)
#define ASC_TWIN_ADV_VECTORIZE __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define ASC_TWIN_ADV_VECTORIZE
#endif

// Defines `name` twice (baseline and AVX2 clone) with the same body, and `name` dispatching.
// (the body is the variadic tail: its commas are not the macro's)
#define ASC_TWIN_ADV_ROW_FN(ret, name, params, args, ...)                                    \
  ASC_TWIN_ADV_VECTORIZE inline ret name##Base params __VA_ARGS__ ASC_TWIN_ADV_VECTORIZE     \
      ASC_TWIN_TARGET_AVX2 inline ret name##Avx2 params __VA_ARGS__ inline ret name params { \
    if (HasAvx2()) return name##Avx2 args;                                                   \
    return name##Base args;                                                                  \
  }

// max over x[0, n)
ASC_TWIN_ADV_ROW_FN(float, RowMax, (const float* x, uint32_t n), (x, n), {
  float acc[8];
  for (int j = 0; j < 8; ++j) acc[j] = -std::numeric_limits<float>::infinity();
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) acc[j] = x[i + j] > acc[j] ? x[i + j] : acc[j];
  for (; i < n; ++i) acc[0] = x[i] > acc[0] ? x[i] : acc[0];
  float m = acc[0];
  for (int j = 1; j < 8; ++j) m = acc[j] > m ? acc[j] : m;
  return m;
})

// out[i] = exp(x[i] - m) (out may be x): one plain loop, which both clang and gcc vectorise
ASC_TWIN_ADV_ROW_FN(void, RowExp, (float* out, const float* x, uint32_t n, float m), (out, x, n, m), {
  for (uint32_t i = 0; i < n; ++i) out[i] = ExpF(x[i] - m);
})

// sum of x[i] * y[i] (y may be null: sum of x)
ASC_TWIN_ADV_ROW_FN(float, RowDot, (const float* x, const float* y, uint32_t n), (x, y, n), {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t i = 0;
  if (y == nullptr) {
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) acc[j] += x[i + j];
    for (; i < n; ++i) acc[i % 8] += x[i];
  } else {
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) acc[j] += x[i + j] * y[i + j];
    for (; i < n; ++i) acc[i % 8] += x[i] * y[i];
  }
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
})

// sum of (x[i] - c)^2
ASC_TWIN_ADV_ROW_FN(float, RowSqDev, (const float* x, uint32_t n, float c), (x, n, c), {
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  uint32_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int j = 0; j < 8; ++j) {
      const float d = x[i + j] - c;
      acc[j] += d * d;
    }
  for (; i < n; ++i) {
    const float d = x[i] - c;
    acc[i % 8] += d * d;
  }
  return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
})

// out[i] = (x[i] - shift) * scale * (g ? g[i] : 1) + (b ? b[i] : 0)
ASC_TWIN_ADV_ROW_FN(void, RowAffine,
                    (float* out, const float* x, uint32_t n, float shift, float scale, const float* g, const float* b),
                    (out, x, n, shift, scale, g, b), {
                      if (g != nullptr && b != nullptr) {
                        for (uint32_t i = 0; i < n; ++i) out[i] = (x[i] - shift) * scale * g[i] + b[i];
                      } else if (g != nullptr) {
                        for (uint32_t i = 0; i < n; ++i) out[i] = (x[i] - shift) * scale * g[i];
                      } else if (b != nullptr) {
                        for (uint32_t i = 0; i < n; ++i) out[i] = (x[i] - shift) * scale + b[i];
                      } else {
                        for (uint32_t i = 0; i < n; ++i) out[i] = (x[i] - shift) * scale;
                      }
                    })

#undef ASC_TWIN_ADV_ROW_FN

// out[i] = exp(x[i] - m); returns the sum of out (out may be x).
inline float RowExpSub(float* out, const float* x, uint32_t n, float m) {
  RowExp(out, x, n, m);
  return RowDot(out, nullptr, n);
}

// The sum of exp(x[i] - m), x kept: exponentials of 256-element chunks in a stack buffer.
inline float RowExpSum(const float* x, uint32_t n, float m) {
  alignas(32) float chunk[256];
  float sum = 0.0f;
  for (uint32_t i = 0; i < n; i += 256) {
    const uint32_t c = n - i < 256 ? n - i : 256;
    RowExp(chunk, x + i, c, m);
    sum += RowDot(chunk, nullptr, c);
  }
  return sum;
}

// A row of T as float: the row itself for float, else widened into `scratch`.
template <typename T>
inline const float* WidenRow(const T* src, uint32_t n, float* scratch) {
  if constexpr (std::is_same<T, float>::value) {
    return src;
  } else {
    for (uint32_t i = 0; i < n; ++i) scratch[i] = static_cast<float>(src[i]);
    return scratch;
  }
}

// Stores a float row as T (one rounding, round-to-nearest-even as the NPU's cast).
template <typename T>
inline void NarrowRow(T* dst, const float* src, uint32_t n) {
  if constexpr (std::is_same<T, float>::value) {
    if (dst != src) std::memmove(dst, src, n * sizeof(float));
  } else {
    for (uint32_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
  }
}

// Per-thread float scratch (each AI-core block runs on its own thread): what the forms without
// a sharedTmpBuffer use, where the NPU takes space from the free UB.
inline float* ThreadScratch(size_t floats) {
  thread_local std::vector<float> buf;
  if (buf.size() < floats) buf.resize(floats);
  return buf.data();
}

// Traps unless `t` holds `count` elements from a 32-byte aligned UB address.
template <typename T>
inline void NeedOperand(const char* api, const char* role, const LocalTensor<T>& t, uint64_t count) {
  CheckUbOperand(api, role, t, count);
}

// Traps unless the sharedTmpBuffer holds at least `minBytes` (what Get*MaxMinTmpSize returns
// as the minimum).
inline void NeedTmp(const char* api, const LocalTensor<uint8_t>& tmp, uint32_t minBytes) {
  if (tmp.TwinData() == nullptr) RaiseTrap("%s: sharedTmpBuffer is an unallocated LocalTensor", api);
  if (tmp.GetSize() < minBytes) {
    RaiseTrap("%s: sharedTmpBuffer holds %u bytes, below the minimum of %u bytes the tiling API reports", api,
              tmp.GetSize(), minBytes);
  }
}

// Float scratch for `floats` values: inside the sharedTmpBuffer when given, else per thread.
inline float* ScratchFloats(const LocalTensor<uint8_t>* tmp, size_t floats) {
  if (tmp != nullptr && tmp->GetSize() >= floats * sizeof(float)) return reinterpret_cast<float*>(tmp->TwinData());
  return ThreadScratch(floats);
}

// Writes v over one 32-byte block (row r of a [rows, BlockElems<U>()] max/sum tensor).
template <typename U>
inline void StoreRowBlock(U* base, uint32_t r, float v) {
  const U u = static_cast<U>(v);
  U* p = base + static_cast<size_t>(r) * BlockElems<U>();
  for (uint32_t j = 0; j < BlockElems<U>(); ++j) p[j] = u;
}
template <typename U>
inline float LoadRowBlock(const U* base, uint32_t r) {
  return static_cast<float>(base[static_cast<size_t>(r) * BlockElems<U>()]);
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_COMMON_H_
