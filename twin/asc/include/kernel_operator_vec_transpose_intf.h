// Enhanced Transpose (TransposeParamsExt: [16, 16] b16 blocks, [N,C,H,W] <-> [N,H,W,C]) and
// TransDataTo5HD (16 DataBlocks per repeat through address lists: the NCHW -> NC1HWC0 step and
// small block transposes). The 16 x 16 Transpose(dst, src) is in kernel_operator_misc_intf.h.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_TRANSPOSE_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_TRANSPOSE_INTF_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_operator_misc_intf.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,  // [16, 16] of a 16-bit type
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
  TRANSPOSE_ND2ND_021,
  TRANSPOSE_ND2ND_102,
  TRANSPOSE_ND2ND_210,
  TRANSPOSE_ND2NZ_WITH_INTLV,
#endif
};

struct TransposeParamsExt {
  constexpr __aicore__ TransposeParamsExt() = default;
  constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                          const uint16_t wSizeIn, const TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

struct TransDataTo5HDParams {
  constexpr __aicore__ TransDataTo5HDParams() = default;
  constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                            const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                            const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;  // 8-bit types: write the upper 16 bytes of each dst block
  bool srcHighHalf = false;  // 8-bit types: read the upper 16 bytes of each src block
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;  // 32-byte blocks between repeats
  uint16_t srcRepStride = 0;
};

namespace twin {

template <typename T>
constexpr bool kTransposeType = kIsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float>;

// The NCHW <-> NHWC relayout; tmp must hold what CANN's A2/A3 implementation needs.
template <typename T>
inline void TransposeNchw(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
                          const TransposeParamsExt& p, bool toNhwc) {
  constexpr const char* api = "Transpose";
  const uint64_t n = p.nSize, c = p.cSize, hw = uint64_t{p.hSize} * p.wSize;
  if (c > 4095) RaiseTrap("%s: cSize %u is outside [0, 4095]", api, p.cSize);
  if (hw > 4095) RaiseTrap("%s: hSize x wSize = %llu is outside [0, 4095]", api, static_cast<unsigned long long>(hw));
  if (hw * sizeof(T) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: hSize x wSize x sizeof(T) = %llu bytes is not a multiple of 32", api,
              static_cast<unsigned long long>(hw * sizeof(T)));
  }
  const uint64_t total = n * c * hw;
  CheckUbOperand(api, "dst", dst, total);
  CheckUbOperand(api, "src", src, total);
  const uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = ONE_BLK_SIZE / sizeof(T);
  const uint64_t need = (toNhwc ? c + 2 : c * 2 + 1) * h0 * w0 * sizeof(T);
  if (uint64_t{tmp.GetSize()} < need) {
    RaiseTrap("%s: sharedTmpBuffer holds %u bytes, %s with cSize %u needs %llu", api, tmp.GetSize(),
              toNhwc ? "TRANSPOSE_NCHW2NHWC" : "TRANSPOSE_NHWC2NCHW", p.cSize, static_cast<unsigned long long>(need));
  }
  CheckUbOperand(api, "sharedTmpBuffer", tmp, need);
  const std::vector<T> in(src.TwinData(), src.TwinData() + total);  // dst may overlap src
  T* out = dst.TwinData();
  for (uint64_t b = 0; b < n; ++b) {
    for (uint64_t ci = 0; ci < c; ++ci) {
      for (uint64_t s = 0; s < hw; ++s) {
        const uint64_t nchw = (b * c + ci) * hw + s, nhwc = (b * hw + s) * c + ci;
        if (toNhwc)
          out[nhwc] = in[nchw];
        else
          out[nchw] = in[nhwc];
      }
    }
  }
}

// A UB address from an address list (GetPhyAddr values: byte offsets into the block's UB).
template <typename T>
inline T* UbAt(const char* api, const char* role, uint32_t i, uint64_t addr, uint64_t bytes) {
  const BlockState& b = Block();
  if (addr % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: %s[%u] = %llu is not a 32-byte aligned UB address", api, role, i,
              static_cast<unsigned long long>(addr));
  }
  if (addr + bytes > b.ub_size) {
    RaiseTrap("%s: %s[%u] = %llu: %llu bytes from it pass the UB end (%llu B)", api, role, i,
              static_cast<unsigned long long>(addr), static_cast<unsigned long long>(bytes),
              static_cast<unsigned long long>(b.ub_size));
  }
  return reinterpret_cast<T*>(b.ub_base + addr);
}

// Repeat r reads the 16 blocks srcList[j] + r x srcRepStride blocks and writes the 16 blocks
// dstList[i] + r x dstRepStride blocks (all sources of a repeat are read before it writes):
//   16-bit: dst block i element j = src block j element i;
//   32-bit: dst block i element j = src block (i % 2) x 8 + j element i / 2 (a column of 16 in two blocks);
//   8-bit:  dst block i, half dstHighHalf, byte j = src block j byte i of half srcHighHalf.
template <typename T>
inline void TransDataTo5HDImpl(const uint64_t (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                               const uint64_t (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& p) {
  static_assert(kTransposeType<T>,
                "TransDataTo5HD supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float");
  constexpr const char* api = "TransDataTo5HD";
  constexpr uint32_t kBlk = ONE_BLK_SIZE / sizeof(T);
  for (uint32_t r = 0; r < p.repeatTimes; ++r) {
    // As documented: with repeatTimes 1 the single repeat already adds the strides once.
    const uint64_t step = p.repeatTimes == 1 ? 1 : r;
    T block[NCHW_CONV_ADDR_LIST_SIZE][kBlk];
    for (uint32_t j = 0; j < NCHW_CONV_ADDR_LIST_SIZE; ++j) {
      const T* s = UbAt<T>(api, "srcList", j, srcList[j] + step * p.srcRepStride * ONE_BLK_SIZE, ONE_BLK_SIZE);
      std::memcpy(block[j], s, ONE_BLK_SIZE);
    }
    for (uint32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
      T* d = UbAt<T>(api, "dstList", i, dstList[i] + step * p.dstRepStride * ONE_BLK_SIZE, ONE_BLK_SIZE);
      if constexpr (sizeof(T) == 2) {
        for (uint32_t j = 0; j < kBlk; ++j) d[j] = block[j][i];
      } else if constexpr (sizeof(T) == 4) {
        for (uint32_t j = 0; j < kBlk; ++j) d[j] = block[(i % 2) * 8 + j][i / 2];
      } else {
        const uint32_t from = p.srcHighHalf ? 16 : 0, to = p.dstHighHalf ? 16 : 0;
        for (uint32_t j = 0; j < 16; ++j) d[to + j] = block[j][from + i];
      }
    }
  }
}

}  // namespace twin

template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const TransposeParamsExt& transposeParams) {
  static_assert(twin::kTransposeType<T>,
                "Transpose supports int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float");
  switch (transposeParams.transposeType) {
    case TransposeType::TRANSPOSE_TYPE_NONE:
      return;
    case TransposeType::TRANSPOSE_ND2ND_B16:
      if constexpr (sizeof(T) == 2) {
        Transpose(dst, src);
        return;
      } else {
        twin::RaiseTrap("Transpose: TRANSPOSE_ND2ND_B16 needs a 16-bit type, got %zu-byte elements", sizeof(T));
      }
    case TransposeType::TRANSPOSE_NCHW2NHWC:
      twin::TransposeNchw(dst, src, sharedTmpBuffer, transposeParams, true);
      return;
    case TransposeType::TRANSPOSE_NHWC2NCHW:
      twin::TransposeNchw(dst, src, sharedTmpBuffer, transposeParams, false);
      return;
    default:
      twin::RaiseTrap(
          "Transpose: transposeType %u is not supported (CANN: TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, "
          "TRANSPOSE_NHWC2NCHW)",
          static_cast<unsigned>(transposeParams.transposeType));
  }
}

template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  std::memcpy(d, dstList, sizeof(d));
  std::memcpy(s, srcList, sizeof(s));
  twin::TransDataTo5HDImpl<T>(d, s, nchwconvParams);
}
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams) {
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    twin::CheckUbOperand("TransDataTo5HD", "dstList", dstList[i], 0);
    twin::CheckUbOperand("TransDataTo5HD", "srcList", srcList[i], 0);
    d[i] = dstList[i].GetPhyAddr();
    s[i] = srcList[i].GetPhyAddr();
  }
  twin::TransDataTo5HDImpl<T>(d, s, nchwconvParams);
}
// dst and src hold the 16 UB addresses each (uint64_t, as GetPhyAddr gives them).
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams) {
  twin::CheckUbOperand("TransDataTo5HD", "dst", dst, NCHW_CONV_ADDR_LIST_SIZE);
  twin::CheckUbOperand("TransDataTo5HD", "src", src, NCHW_CONV_ADDR_LIST_SIZE);
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  std::memcpy(d, dst.TwinData(), sizeof(d));
  std::memcpy(s, src.TwinData(), sizeof(s));
  twin::TransDataTo5HDImpl<T>(d, s, nchwconvParams);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_TRANSPOSE_INTF_H_
