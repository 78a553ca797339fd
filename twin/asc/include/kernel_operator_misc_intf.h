// Debug and system helpers beyond printf/assert: DumpTensor, PrintTimeStamp, Trap,
// GetSystemCycle, DataSyncBarrier, DataCacheCleanAndInvalid;
// plus the small vector APIs Brcb, CreateVecIndex, Gather, Gatherb, Scatter, Transpose and level-0 Copy.
#ifndef ASC_TWIN_KERNEL_OPERATOR_MISC_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_MISC_INTF_H_

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "asc_twin/cross_block.h"
#include "asc_twin/elementwise.h"
#include "kernel_utils.h"

namespace AscendC {

enum class MemDsbT : uint8_t { ALL = 0, DDR = 1, UB = 2, SEQ_SEG = 3 };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };

// Memory barriers. A twin block runs in program order and GM is coherent host memory, so they
// order this block's GM accesses: a full fence the compiler cannot move loads or stores across
// (a flag polled with GetValue after one is read again, not kept in a register).
// DataCacheCleanAndInvalid is how kernels poll what other blocks write (gm_by_dcache), so it
// also asks for every block of the launch to run at once, as they do on the NPU's cores: the
// blocks waited for must not queue behind the poller on its thread.
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
  twin::PreferResidentBlocks();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

// Nanoseconds of the host's steady clock (the NPU counts its system counter's cycles).
__aicore__ inline int64_t GetSystemCycle() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Aborts the kernel: the launch fails with this block's message, as a trap instruction does.
__aicore__ inline void Trap() { twin::RaiseTrap("Trap: the kernel executed Trap()"); }

__aicore__ inline void PrintTimeStamp(uint32_t descId) {
  std::printf("[block %" PRId64 "] PrintTimeStamp desc=%u cycle=%" PRId64 "\n", twin::Block().block_idx, descId,
              GetSystemCycle());
}

namespace twin {
template <typename T>
inline const char* DumpTypeName() {
  if (std::is_same<T, half>::value) return "float16";
  if (std::is_same<T, bfloat16_t>::value) return "bfloat16";
  if (std::is_same<T, float>::value) return "float32";
  if (std::is_same<T, int8_t>::value) return "int8";
  if (std::is_same<T, uint8_t>::value) return "uint8";
  if (std::is_same<T, int16_t>::value) return "int16";
  if (std::is_same<T, uint16_t>::value) return "uint16";
  if (std::is_same<T, int32_t>::value) return "int32";
  if (std::is_same<T, uint32_t>::value) return "uint32";
  if (std::is_same<T, int64_t>::value) return "int64";
  if (std::is_same<T, uint64_t>::value) return "uint64";
  if (kIsInt4<T>) return "int4";
  return "unknown";
}

// Elements first .. first + dumpSize - 1 of p (int4b_t: packed nibbles).
template <typename T>
inline void DumpValues(const char* where, uint64_t addr, const T* p, uint64_t first, uint32_t desc, uint32_t dumpSize) {
  std::string line = "DumpTensor: desc=" + std::to_string(desc) + ", addr=" + std::to_string(addr) +
                     ", data_type=" + DumpTypeName<T>() + ", position=" + where +
                     ", dump_size=" + std::to_string(dumpSize) + "\n[";
  char buf[64];
  for (uint32_t i = 0; i < dumpSize; ++i) {
    const T v = LoadElem(p, first + i);
    if constexpr (std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                  std::is_same<T, bfloat16_t>::value) {
      std::snprintf(buf, sizeof(buf), "%s%f", i ? ", " : "", static_cast<double>(static_cast<float>(v)));
    } else if constexpr (std::is_signed<T>::value || kIsInt4<T>) {
      std::snprintf(buf, sizeof(buf), "%s%lld", i ? ", " : "", static_cast<long long>(v));
    } else {
      std::snprintf(buf, sizeof(buf), "%s%llu", i ? ", " : "", static_cast<unsigned long long>(v));
    }
    line += buf;
  }
  line += "]\n";
  EmitRecord(line);  // through the launch's print path, as printf: a device process's stdout is not the user's
}
}  // namespace twin

namespace twin {
// The memory a LocalTensor's position names, as the dump's position field: UB, L1, L0A, L0B,
// L0C, BIAS or FIXBUF.
template <typename T>
inline const char* DumpPositionName(const LocalTensor<T>& tensor) {
  return CoreBufferName(MemoryOfPosition(static_cast<TPosition>(tensor.GetPosition())));
}
}  // namespace twin

// Prints `dumpSize` elements of the tensor with the header line CANN's dump tool shows; any
// local position (UB, L1, L0A, L0B, L0C, bias table, fixpipe buffer).
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  twin::CheckUbOperand("DumpTensor", "tensor", tensor, dumpSize);
  twin::DumpValues(twin::DumpPositionName(tensor), tensor.GetPhyAddr(), tensor.TwinData(), 0, desc, dumpSize);
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  twin::CheckGm("DumpTensor", tensor.GetPhyAddr(), twin::ElemBytes<T>(dumpSize));
  twin::DumpValues("GM", reinterpret_cast<uint64_t>(tensor.GetPhyAddr()), tensor.GetPhyAddr(), 0, desc, dumpSize);
}

// DumpTensor from element `countOff` on, with the checkpoint index in the header line.
template <typename T>
__aicore__ inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize) {
  twin::CheckUbOperand("DumpAccChkPoint", "tensor", tensor, uint64_t{countOff} + dumpSize);
  twin::EmitRecord("DumpAccChkPoint: index=" + std::to_string(index) + ", countOff=" + std::to_string(countOff) + "\n");
  twin::DumpValues(twin::DumpPositionName(tensor), tensor.GetPhyAddr(countOff), tensor.TwinData(), countOff, index,
                   dumpSize);
}

namespace twin {
// Traps unless 8 blocks per repeat (strides in 32-byte blocks) stay inside dst.
template <typename T>
inline void CheckBlockReach(const char* api, const LocalTensor<T>& dst, uint32_t repeats, uint32_t blkStride,
                            uint32_t repStride) {
  constexpr uint32_t be = kBlkElems<T>;
  const uint64_t reach = uint64_t{repeats - 1u} * repStride * be + uint64_t{7} * blkStride * be + be;
  if (reach > dst.GetSize()) {
    RaiseTrap("%s: dst reaches element %llu, beyond its LocalTensor of %u elements", api,
              static_cast<unsigned long long>(reach - 1), dst.GetSize());
  }
}
}  // namespace twin

// ---- Brcb: each of 8 src elements per repeat fills one 32-byte block of dst ----
struct BrcbRepeatParams {
  __aicore__ BrcbRepeatParams() {}
  __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
};

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams) {
  static_assert(twin::kIsOneOf<T, int16_t, uint16_t, half, int32_t, uint32_t, float>,
                "Brcb supports 16- and 32-bit types");
  constexpr uint32_t be = twin::kBlkElems<T>;
  twin::CheckUbOperand("Brcb", "src0", src0, uint64_t{repeatTime} * 8);
  twin::CheckUbOperand("Brcb", "dst", dst, 0);
  if (repeatTime == 0) return;
  twin::CheckBlockReach("Brcb", dst, repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride);
  std::vector<T> in(src0.TwinData(), src0.TwinData() + uint64_t{repeatTime} * 8);
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      T* d =
          dst.TwinData() + uint64_t{r} * repeatParams.dstRepStride * be + uint64_t{b} * repeatParams.dstBlkStride * be;
      for (uint32_t e = 0; e < be; ++e) d[e] = in[r * 8 + b];
    }
  }
}

// dst[i] = firstValue + i, i < count.
template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count) {
  static_assert(twin::kIsOneOf<T, int16_t, half, int32_t, float>,
                "CreateVecIndex supports int16_t, half, int32_t, float");
  if (count == 0) return;
  twin::LevelTwoDone();
  twin::CheckUbOperand("CreateVecIndex", "dst", dst, count);
  for (uint32_t i = 0; i < count; ++i) dst.TwinData()[i] = static_cast<T>(static_cast<twin::Wide<T>>(firstValue) + i);
}

namespace twin {
// Byte offset `byte` as an element index of t; traps unless aligned and inside.
template <typename T>
inline uint64_t ElementAt(const char* api, const char* role, const LocalTensor<T>& t, uint64_t byte, uint32_t i) {
  if (byte % sizeof(T) != 0 || byte / sizeof(T) >= t.GetSize()) {
    RaiseTrap("%s: offset %llu bytes (element %u) is %s %s (a LocalTensor of %u elements)", api,
              static_cast<unsigned long long>(byte), i, byte % sizeof(T) ? "misaligned in" : "outside", role,
              t.GetSize());
  }
  return byte / sizeof(T);
}
}  // namespace twin

// dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)] (offsets in bytes).
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
                              const uint32_t count) {
  static_assert(twin::kIsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Gather supports 16- and 32-bit types");
  if (count == 0) return;
  twin::LevelTwoDone();
  twin::CheckUbOperand("Gather", "dst", dst, count);
  twin::CheckUbOperand("Gather", "srcOffset", srcOffset, count);
  twin::CheckUbOperand("Gather", "src", src, 0);
  std::vector<T> out(count);
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = src.TwinData()[twin::ElementAt("Gather", "src", src, uint64_t{srcBaseAddr} + srcOffset.TwinData()[i], i)];
  }
  std::memcpy(dst.TwinData(), out.data(), count * sizeof(T));
}

// dst[(dstBaseAddr + dstOffset[i]) / sizeof(T)] = src[i] (offsets in bytes).
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
                               const uint32_t count) {
  static_assert(twin::kIsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                "Scatter supports 16- and 32-bit types");
  if (count == 0) return;
  twin::LevelTwoDone();
  twin::CheckUbOperand("Scatter", "src", src, count);
  twin::CheckUbOperand("Scatter", "dstOffset", dstOffset, count);
  twin::CheckUbOperand("Scatter", "dst", dst, 0);
  std::vector<T> in(src.TwinData(), src.TwinData() + count);
  for (uint32_t i = 0; i < count; ++i) {
    dst.TwinData()[twin::ElementAt("Scatter", "dst", dst, uint64_t{dstBaseAddr} + dstOffset.TwinData()[i], i)] = in[i];
  }
}

// 16 x 16 transpose of 2-byte elements: dst[i][j] = src[j][i].
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) {
  static_assert(twin::kIsOneOf<T, uint16_t, int16_t, half>, "Transpose (16x16) supports uint16_t, int16_t, half");
  twin::CheckUbOperand("Transpose", "dst", dst, 256);
  twin::CheckUbOperand("Transpose", "src", src, 256);
  T tile[256];
  std::memcpy(tile, src.TwinData(), sizeof(tile));
  for (uint32_t i = 0; i < 16; ++i) {
    for (uint32_t j = 0; j < 16; ++j) dst.TwinData()[i * 16 + j] = tile[j * 16 + i];
  }
}

// ---- Gatherb: repeat r gathers 8 32-byte blocks of src0 at byte offsets offset[8r .. 8r+7] ----
struct GatherRepeatParams {
  __aicore__ GatherRepeatParams() {}
  __aicore__ GatherRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
};

template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                               const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                               const GatherRepeatParams& repeatParams) {
  static_assert(twin::kIsOneOf<T, uint16_t, uint32_t, int16_t, int32_t, half, float>,
                "Gatherb supports 16- and 32-bit types");
  constexpr const char* api = "Gatherb";
  constexpr uint32_t be = twin::kBlkElems<T>;
  twin::CheckUbOperand(api, "offset", offset, uint64_t{repeatTime} * 8);
  twin::CheckUbOperand(api, "src0", src0, 0);
  twin::CheckUbOperand(api, "dst", dst, 0);
  if (repeatTime == 0) return;
  twin::CheckBlockReach(api, dst, repeatTime, repeatParams.dstBlkStride, repeatParams.dstRepStride);
  std::vector<T> blocks(uint64_t{repeatTime} * 8 * be);
  for (uint32_t k = 0; k < uint32_t{repeatTime} * 8; ++k) {
    const uint32_t byte = offset.TwinData()[k];
    if (byte % ONE_BLK_SIZE != 0 || uint64_t{byte} + ONE_BLK_SIZE > uint64_t{src0.GetSize()} * sizeof(T)) {
      twin::RaiseTrap("Gatherb: offset[%u] = %u bytes is not a 32-byte block inside src0 (%u elements)", k, byte,
                      src0.GetSize());
    }
    std::memcpy(blocks.data() + uint64_t{k} * be, src0.Bytes() + byte, ONE_BLK_SIZE);
  }
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t j = 0; j < 8; ++j) {
      std::memcpy(
          dst.TwinData() + uint64_t{r} * repeatParams.dstRepStride * be + uint64_t{j} * repeatParams.dstBlkStride * be,
          blocks.data() + (uint64_t{r} * 8 + j) * be, ONE_BLK_SIZE);
    }
  }
}

// ---- level-0 Copy (UB -> UB) ----
struct CopyRepeatParams {
  __aicore__ CopyRepeatParams() {}
  __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                              uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        dstRepeatSize(dstRepeatSizeIn),
        srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_BLK_STRIDE;
  uint16_t srcStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

#define ASC_TWIN_COPY_L0(MaskDecl)                                                                     \
  template <typename T, bool isSetMask = true>                                                         \
  __aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskDecl,          \
                              const uint8_t repeatTime, const CopyRepeatParams& repeatParams) {        \
    static_assert(twin::kIsOneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,    \
                  "Copy supports 16- and 32-bit types");                                               \
    const UnaryRepeatParams up(repeatParams.dstStride, repeatParams.srcStride,                         \
                               static_cast<uint8_t>(repeatParams.dstRepeatSize),                       \
                               static_cast<uint8_t>(repeatParams.srcRepeatSize));                      \
    twin::UnaryLevel0<T, T, isSetMask>("Copy", dst, src, mask, repeatTime, up, [](T x) { return x; }); \
  }
ASC_TWIN_COPY_L0(const uint64_t mask[])
ASC_TWIN_COPY_L0(uint64_t mask)
#undef ASC_TWIN_COPY_L0

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_MISC_INTF_H_
