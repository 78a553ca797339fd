// Fixpipe's engine: L0C (Nz, 16 x 16 fractals of float/int32_t; element (m, n) of matrix i at
// i * srcNdStride * 256 + (n / 16) * srcStride * 16 + m * 16 + n % 16) out to ND rows
// (i * dstNdStride + m * dstStride + n) or to Nz (C0 = 16 elements, 8 with isChannelSplit, 32
// for 8-bit results: (n / C0) * dstStride * 32 B + m * C0 + n % C0), converting each element:
//   NoQuant               float -> float, int32_t -> int32_t
//   F322F16 / F322BF16    float -> half / bfloat16_t, round to nearest even (CAST_RINT), inf on overflow
//   DEQF16 / VDEQF16      int32_t -> half:  y = float(x) * alpha, saturated to +-65504, RNE, + offset
//   REQ8 / VREQ8          int32_t -> int8_t / uint8_t
//   QF322B8_PRE / VQF322B8_PRE  float -> int8_t / uint8_t:
//                         q = clamp(rint(x * alpha), -256, 255) + offset, then clamped to int8 or uint8
// The quantisation parameter (deqScalar, or one uint64_t per column n from cbufWorkspace) is
// CANN's packing, as its fixpipe samples' golden scripts decode it: alpha = bits [31:13] as a
// float with a 10-bit mantissa (the fp32 bits with the low 13 cleared), bits [35:32] a right
// shift of int32_t inputs applied when bit 36 is set (then saturated to int16 / the half range),
// offset = bits [45:37] (9-bit two's complement), bit 46: signed (int8) result, else uint8.
// reluEn clamps negatives to 0 after the scaling, before the offset and the final rounding.
#ifndef ASC_TWIN_CUBE_FIXPIPE_H_
#define ASC_TWIN_CUBE_FIXPIPE_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "asc_twin/atomic_gm.h"
#include "asc_twin/cube_fractal.h"
#include "kernel_struct_fixpipe.h"

namespace AscendC {
namespace twin {
namespace cube {

struct QuantParam {
  float alpha;
  uint32_t shift;
  bool shiftOn;
  int32_t offset;
  bool signedOut;
};

inline QuantParam DecodeQuant(uint64_t bits) {
  QuantParam q;
  q.alpha = BitsFloat(static_cast<uint32_t>(bits) & 0xFFFFE000u);
  q.shift = static_cast<uint32_t>(bits >> 32) & 0xFu;
  q.shiftOn = ((bits >> 36) & 1u) != 0;
  const int32_t off = static_cast<int32_t>((bits >> 37) & 0x1FFu);
  q.offset = off >= 256 ? off - 512 : off;
  q.signedOut = ((bits >> 46) & 1u) != 0;
  return q;
}

inline float Clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

struct FixpipeShape {
  uint32_t nSize, mSize, srcStride, ndNum, srcNdStride, dstNdStride, dstStride;
  bool nz, relu, channelSplit;
  QuantMode_t quant;
  uint64_t scalar;            // deqScalar
  const uint64_t* perColumn;  // cbufWorkspace (V* modes), else null
};

template <typename Dst, typename Src>
inline Dst ConvertOut(Src x, uint32_t n, const FixpipeShape& s) {
  const bool vec = s.quant == VDEQF16 || s.quant == VREQ8 || s.quant == VQF322B8_PRE;
  if constexpr (std::is_same<Dst, Src>::value) {
    if (s.relu && x < Src(0)) return Src(0);
    return x;
  } else if constexpr (std::is_same<Src, float>::value && std::is_same<Dst, half>::value) {
    return CubeFromBits16<half>(FloatToHalf(s.relu && x < 0.0f ? 0.0f : x));
  } else if constexpr (std::is_same<Src, float>::value && std::is_same<Dst, bfloat16_t>::value) {
    return CubeFromBits16<bfloat16_t>(FloatToBf16(s.relu && x < 0.0f ? 0.0f : x));
  } else {
    const QuantParam q = DecodeQuant(vec ? s.perColumn[n] : s.scalar);
    float y;
    if constexpr (std::is_same<Src, int32_t>::value) {
      int64_t v = x;
      if (q.shiftOn) {
        v >>= q.shift;
        const int64_t lo = std::is_same<Dst, half>::value ? -65504 : -32768;
        const int64_t hi = std::is_same<Dst, half>::value ? 65504 : 32767;
        v = v < lo ? lo : (v > hi ? hi : v);
      }
      y = static_cast<float>(v) * q.alpha;
    } else {
      y = x * q.alpha;
    }
    if (s.relu && y < 0.0f) y = 0.0f;
    if constexpr (std::is_same<Dst, half>::value) {
      float h = HalfToFloat(FloatToHalf(Clampf(y, -65504.0f, 65504.0f)));
      if (q.offset != 0) h = HalfToFloat(FloatToHalf(Clampf(h + static_cast<float>(q.offset), -65504.0f, 65504.0f)));
      return CubeFromBits16<half>(FloatToHalf(h));
    } else {
      const float r = std::isnan(y) ? 0.0f : std::nearbyint(Clampf(y, -256.0f, 255.0f));
      const int32_t qv = static_cast<int32_t>(r) + q.offset;
      const int32_t lo = q.signedOut ? -128 : 0, hi = q.signedOut ? 127 : 255;
      const int32_t c = qv < lo ? lo : (qv > hi ? hi : qv);
      return static_cast<Dst>(static_cast<uint8_t>(c));
    }
  }
}

// C0 of the Nz result, in elements.
template <typename Dst>
constexpr uint32_t NzOutC0(bool channelSplit) {
  return channelSplit ? 8u : (sizeof(Dst) == 1 ? 32u : 16u);
}

// Writes every row of the result through `put(byte offset from dst, row, bytes)`.
template <typename Dst, typename Src, typename Put>
inline void RunFixpipe(const Src* src, const FixpipeShape& s, Put&& put) {
  Dst row[4096];
  if (!s.nz) {
    for (uint32_t i = 0; i < s.ndNum; ++i) {
      const Src* mat = src + static_cast<uint64_t>(i) * s.srcNdStride * 256;
      for (uint32_t m = 0; m < s.mSize; ++m) {
        for (uint32_t n = 0; n < s.nSize; ++n) {
          row[n] = ConvertOut<Dst, Src>(mat[(n / 16) * uint64_t{s.srcStride} * 16 + m * 16u + n % 16], n, s);
        }
        put((static_cast<uint64_t>(i) * s.dstNdStride + static_cast<uint64_t>(m) * s.dstStride) * sizeof(Dst), row,
            s.nSize * sizeof(Dst));
      }
    }
    return;
  }
  const uint32_t c0 = NzOutC0<Dst>(s.channelSplit);
  for (uint32_t nb = 0; nb * c0 < s.nSize; ++nb) {
    const uint32_t cols = (s.nSize - nb * c0) < c0 ? s.nSize - nb * c0 : c0;
    for (uint32_t m = 0; m < s.mSize; ++m) {
      for (uint32_t j = 0; j < cols; ++j) {
        const uint32_t n = nb * c0 + j;
        row[j] = ConvertOut<Dst, Src>(src[(n / 16) * uint64_t{s.srcStride} * 16 + m * 16u + n % 16], n, s);
      }
      put(uint64_t{nb} * s.dstStride * 32u + uint64_t{m} * c0 * sizeof(Dst), row, cols * sizeof(Dst));
    }
  }
}

}  // namespace cube
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_FIXPIPE_H_
