// DataCopy (32-byte granular moves GM<->UB and UB<->UB) and DataCopyPad
// (byte-granular moves with UB rows padded to 32 B). Every call checks its
// operands once and then moves whole rows (32-byte blocks: CopyBlocks32; DataCopyPad: memcpy).
#ifndef ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_INTF_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/atomic_gm.h"
#include "asc_twin/block_copy.h"
#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_struct_data_copy.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001)
constexpr bool kHasDataCopyPad = false;
#else
constexpr bool kHasDataCopyPad = true;
#endif

// Estimated GM output of a launch from which its writes are streamed to memory: the inputs
// and outputs of such a launch (typically 2-4x its output) no longer fit in a server's
// last-level cache share (32 MiB on the 2-core VM the twin is tuned on). A constant, not
// sysconf(_SC_LEVEL3_CACHE_SIZE): that reports 320 MB in this VM.
constexpr uint64_t kStreamingThresholdBytes = uint64_t{8} << 20;

// UB -> GM move of whole 32-byte blocks. Once the launch's GM output, estimated as block_num
// blocks each writing what this block wrote so far, reaches kStreamingThresholdBytes, the data
// would be evicted before anyone reads it: stream it to memory instead (see StreamBlocks32).
ASC_TWIN_HOT inline void WriteGmBlocks32(void* dst, const void* src, uint64_t bytes) {
  BlockState& b = Block();
  b.gm_written += bytes;
  if (b.gm_written * static_cast<uint64_t>(b.block_num) >= kStreamingThresholdBytes &&
      reinterpret_cast<uintptr_t>(dst) % 16 == 0) {
    StreamBlocks32(dst, src, bytes);
    b.gm_streamed = true;
  } else {
    CopyBlocks32(dst, src, bytes);
  }
}

// One UB -> GM row: combined element by element in atomic mode, else a plain (block) copy.
template <typename T>
ASC_TWIN_HOT inline void WriteGmRow(void* dst, const void* src, uint64_t bytes, bool blocks32) {
  if (AtomicActive()) {
    if constexpr (kIsInt4<T>) {
      RaiseTrap("DataCopy(UB->GM): atomic mode (SetAtomicAdd/Max/Min) does not support int4b_t");
    } else {
      AtomicWriteGm<T>(dst, src, bytes);
    }
  } else if (blocks32) {
    WriteGmBlocks32(dst, src, bytes);
  } else {
    std::memcpy(dst, src, bytes);
  }
}

inline uint64_t RoundUp32(uint64_t n) { return (n + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE; }

template <typename T>
ASC_TWIN_HOT inline void CheckGmAligned(const char* api, const T* p) {
  if (reinterpret_cast<uintptr_t>(p) % sizeof(T) != 0) {
    RaiseTrap("%s: GM address %p is not aligned to sizeof(T) = %zu", api, static_cast<const void*>(p), sizeof(T));
  }
}

// Count-form rule: whole 32-byte blocks only.
template <typename T>
ASC_TWIN_HOT inline void CheckCopyCount(const char* api, uint32_t count) {
  const uint64_t bytes = ElemBytes<T>(count);
  if (kIsInt4<T> && (count % 2 != 0 || bytes % ONE_BLK_SIZE != 0)) {
    RaiseTrap(
        "%s: count %u int4b_t elements = %llu B is not a whole number of 32-byte blocks (64 int4b_t "
        "elements each; the NPU rounds down and drops the tail)",
        api, count, static_cast<unsigned long long>(bytes));
  }
  if (bytes % ONE_BLK_SIZE != 0) {
    RaiseTrap(
        "%s: count %u x %zu B = %llu B is not a multiple of 32 B (the NPU rounds down to %llu B and "
        "drops the tail; use DataCopyPad)",
        api, count, sizeof(T), static_cast<unsigned long long>(bytes),
        static_cast<unsigned long long>(bytes / ONE_BLK_SIZE * ONE_BLK_SIZE));
  }
}

// Bytes spanned by `count` rows of `row` bytes placed every `pitch` bytes.
inline uint64_t Span(uint64_t count, uint64_t row, uint64_t pitch) {
  return count == 0 ? 0 : (count - 1) * pitch + row;
}

inline void CheckUbSpan(const char* api, const char* role, uint64_t span, uint64_t have) {
  if (span > have) {
    RaiseTrap("%s: %llu B of %s exceed the LocalTensor (%llu B)", api, static_cast<unsigned long long>(span), role,
              static_cast<unsigned long long>(have));
  }
}

template <typename T>
inline uint64_t TensorBytes(const LocalTensor<T>& t) {
  return ElemBytes<T>(t.GetSize());
}

}  // namespace twin

// ---------------- count form ----------------

template <typename T>
__aicore__ ASC_TWIN_HOT inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                             const uint32_t count) {
  constexpr const char* api = "DataCopy(GM->UB)";
  if (count == 0) return;
  twin::CheckCopyCount<T>(api, count);
  twin::CheckUbOperand(api, "dst", dst, count);
  twin::CheckGmAligned(api, src.GetPhyAddr());
  twin::CheckGm(api, src.GetPhyAddr(), twin::ElemBytes<T>(count));
  twin::CopyBlocks32(dst.TwinData(), src.GetPhyAddr(), twin::ElemBytes<T>(count));
}

template <typename T>
__aicore__ ASC_TWIN_HOT inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                             const uint32_t count) {
  constexpr const char* api = "DataCopy(UB->GM)";
  if (count == 0) return;
  twin::CheckCopyCount<T>(api, count);
  twin::CheckUbOperand(api, "src", src, count);
  twin::CheckGmAligned(api, dst.GetPhyAddr());
  twin::CheckGm(api, dst.GetPhyAddr(), twin::ElemBytes<T>(count));
  twin::WriteGmRow<T>(dst.GetPhyAddr(), src.TwinData(), twin::ElemBytes<T>(count), true);
}

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  constexpr const char* api = "DataCopy(UB->UB)";
  if (count == 0) return;
  twin::CheckCopyCount<T>(api, count);
  twin::CheckUbOperand(api, "dst", dst, count);
  twin::CheckUbOperand(api, "src", src, count);
  std::memmove(dst.TwinData(), src.TwinData(), twin::ElemBytes<T>(count));
}

// ---------------- DataCopyParams form (32-byte blocks on both sides) ----------------

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  constexpr const char* api = "DataCopy(GM->UB)";
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t row = uint64_t{p.blockLen} * ONE_BLK_SIZE;
  const uint64_t srcPitch = row + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dstPitch = row + uint64_t{p.dstStride} * ONE_BLK_SIZE;
  twin::CheckUbOperand(api, "dst", dst, 0);
  twin::CheckUbSpan(api, "dst", twin::Span(p.blockCount, row, dstPitch), twin::TensorBytes(dst));
  twin::CheckGmAligned(api, src.GetPhyAddr());
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  twin::CheckGm(api, s, twin::Span(p.blockCount, row, srcPitch));
  uint8_t* d = dst.Bytes();
  for (uint32_t i = 0; i < p.blockCount; ++i) twin::CopyBlocks32(d + i * dstPitch, s + i * srcPitch, row);
}

template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  constexpr const char* api = "DataCopy(UB->GM)";
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t row = uint64_t{p.blockLen} * ONE_BLK_SIZE;
  const uint64_t srcPitch = row + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dstPitch = row + uint64_t{p.dstStride} * ONE_BLK_SIZE;
  twin::CheckUbOperand(api, "src", src, 0);
  twin::CheckUbSpan(api, "src", twin::Span(p.blockCount, row, srcPitch), twin::TensorBytes(src));
  twin::CheckGmAligned(api, dst.GetPhyAddr());
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  twin::CheckGm(api, d, twin::Span(p.blockCount, row, dstPitch));
  const uint8_t* s = src.Bytes();
  for (uint32_t i = 0; i < p.blockCount; ++i) twin::WriteGmRow<T>(d + i * dstPitch, s + i * srcPitch, row, true);
}

// Between local memories (UB <-> UB, L1 <-> L1, L1 -> bias table, L1 -> Fixpipe buffer). Into
// the bias table (C2), blockLen and dstStride count 64-byte units on NpuArch 2201 (CANN's
// L1ToBiasTable rule); into the Fixpipe buffer (C2PIPE2GM), 128-byte units.
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const TPosition dstPos = static_cast<TPosition>(dst.GetPosition());
  const bool toBiasTable = dstPos == TPosition::C2;
  const bool toFixbuf = dstPos == TPosition::C2PIPE2GM;
  const char* api = toBiasTable ? "DataCopy(C1->C2)" : toFixbuf ? "DataCopy(C1->C2PIPE2GM)" : "DataCopy(UB->UB)";
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t dstUnit = toBiasTable ? 2 * ONE_BLK_SIZE : toFixbuf ? 4 * ONE_BLK_SIZE : ONE_BLK_SIZE;
  const uint64_t row = uint64_t{p.blockLen} * dstUnit;
  const uint64_t srcPitch = row + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dstPitch = row + uint64_t{p.dstStride} * dstUnit;
  twin::CheckUbOperand(api, "dst", dst, 0);
  twin::CheckUbOperand(api, "src", src, 0);
  twin::CheckUbSpan(api, "dst", twin::Span(p.blockCount, row, dstPitch), twin::TensorBytes(dst));
  twin::CheckUbSpan(api, "src", twin::Span(p.blockCount, row, srcPitch), twin::TensorBytes(src));
  for (uint32_t i = 0; i < p.blockCount; ++i) std::memmove(dst.Bytes() + i * dstPitch, src.Bytes() + i * srcPitch, row);
}

// ---------------- DataCopyPad ----------------

// ---------------- SetPadValue: the pad register of DataCopyPad ----------------

namespace twin {
template <typename T>
constexpr bool kPadValueType = kIsOneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                                        float, int64_t, uint64_t, double>;

template <typename T>
inline void WritePadRegister(T value) {
  static_assert(sizeof(T) <= sizeof(uint64_t), "DataCopyPad/SetPadValue: element types of at most 8 bytes");
  VecRegs& v = Block().vec;
  v.padValueBits = 0;
  std::memcpy(&v.padValueBits, &value, sizeof(T));
  v.padValueSet = true;
}
}  // namespace twin

// Sets the value GM -> UB DataCopyPad writes into padding (per block, kept until changed).
template <typename T, TPosition pos = TPosition::MAX>
__aicore__ inline void SetPadValue(T paddingValue) {
  static_assert(twin::kHasDataCopyPad || twin::kDependentFalse<T>,
                "SetPadValue is not available on this NpuArch (Atlas inference/training)");
  static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                "SetPadValue: pos must be TPosition::VECIN, VECOUT or MAX");
  static_assert(twin::kPadValueType<T>,
                "SetPadValue supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float, "
                "int64_t, uint64_t, double");
  twin::WritePadRegister(paddingValue);
}

// GM -> UB: blockCount rows of blockLen bytes; each UB row is
// [leftPadding elems][data][rightPadding elems] rounded up to 32 B. The pad is paddingValue
// when isPad (which also writes it into the pad register, as the NPU's DataCopyPad does),
// else the pad register if SetPadValue (or an earlier isPad copy) wrote it, else the row's
// first element (CANN: "dummy" data; the first element when there is no left/right padding).
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                                   const DataCopyPadExtParams<T>& pad) {
  static_assert(twin::kHasDataCopyPad || twin::kDependentFalse<T>,
                "DataCopyPad is not available on this NpuArch (Atlas inference/training)");
  static_assert(!twin::kIsInt4<T>, "DataCopyPad does not support int4b_t (move it as int8_t/uint8_t bytes)");
  constexpr const char* api = "DataCopyPad(GM->UB)";
  if (p.blockCount == 0 || p.blockLen == 0) return;
  if (p.blockLen % sizeof(T) != 0)
    twin::RaiseTrap("%s: blockLen %u B is not a multiple of sizeof(T) = %zu", api, p.blockLen, sizeof(T));
  if (p.blockLen > 2097151u) twin::RaiseTrap("%s: blockLen %u B exceeds 2097151", api, p.blockLen);
  if (pad.leftPadding * sizeof(T) > ONE_BLK_SIZE || pad.rightPadding * sizeof(T) > ONE_BLK_SIZE) {
    twin::RaiseTrap("%s: leftPadding/rightPadding (%u/%u elements) exceed 32 B", api, pad.leftPadding,
                    pad.rightPadding);
  }
  const uint64_t left = uint64_t{pad.leftPadding} * sizeof(T);
  const uint64_t rowUb = twin::RoundUp32(left + p.blockLen + uint64_t{pad.rightPadding} * sizeof(T));
  const uint64_t dstPitch = rowUb + uint64_t{p.dstStride} * ONE_BLK_SIZE;
  const uint64_t srcPitch = uint64_t{p.blockLen} + p.srcStride;
  twin::CheckUbOperand(api, "dst", dst, 0);
  twin::CheckUbSpan(api, "dst", twin::Span(p.blockCount, rowUb, dstPitch), twin::TensorBytes(dst));
  const uint8_t* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  twin::CheckGm(api, s, twin::Span(p.blockCount, p.blockLen, srcPitch));
  uint8_t* d = dst.Bytes();
  const uint64_t rowElems = rowUb / sizeof(T);
  const uint64_t dataBegin = pad.leftPadding;
  const uint64_t dataEnd = dataBegin + p.blockLen / sizeof(T);
  if (pad.isPad) twin::WritePadRegister(pad.paddingValue);
  const twin::VecRegs& regs = twin::Block().vec;
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    T* row = reinterpret_cast<T*>(d + i * dstPitch);
    const uint8_t* from = s + i * srcPitch;
    T value;
    std::memcpy(&value, regs.padValueSet ? reinterpret_cast<const uint8_t*>(&regs.padValueBits) : from, sizeof(T));
    std::memcpy(row + dataBegin, from, p.blockLen);
    for (uint64_t k = 0; k < dataBegin; ++k) row[k] = value;
    for (uint64_t k = dataEnd; k < rowElems; ++k) row[k] = value;
  }
}

// UB -> GM: reads 32-B padded UB rows, writes exactly blockLen bytes per row.
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) {
  static_assert(twin::kHasDataCopyPad || twin::kDependentFalse<T>,
                "DataCopyPad is not available on this NpuArch (Atlas inference/training)");
  static_assert(!twin::kIsInt4<T>, "DataCopyPad does not support int4b_t (move it as int8_t/uint8_t bytes)");
  constexpr const char* api = "DataCopyPad(UB->GM)";
  if (p.blockCount == 0 || p.blockLen == 0) return;
  if (p.blockLen % sizeof(T) != 0)
    twin::RaiseTrap("%s: blockLen %u B is not a multiple of sizeof(T) = %zu", api, p.blockLen, sizeof(T));
  if (p.blockLen > 2097151u) twin::RaiseTrap("%s: blockLen %u B exceeds 2097151", api, p.blockLen);
  const uint64_t rowUb = twin::RoundUp32(p.blockLen);
  const uint64_t srcPitch = rowUb + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dstPitch = uint64_t{p.blockLen} + p.dstStride;
  twin::CheckUbOperand(api, "src", src, 0);
  twin::CheckUbSpan(api, "src", twin::Span(p.blockCount, p.blockLen, srcPitch), twin::TensorBytes(src));
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  twin::CheckGm(api, d, twin::Span(p.blockCount, p.blockLen, dstPitch));
  const uint8_t* s = src.Bytes();
  for (uint32_t i = 0; i < p.blockCount; ++i)
    twin::WriteGmRow<T>(d + i * dstPitch, s + i * srcPitch, p.blockLen, false);
}

// Older overloads: DataCopyParams with blockLen in BYTES, pad value as raw bits.
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                                   const DataCopyPadParams& pad) {
  T value;
  std::memcpy(&value, &pad.paddingValue, sizeof(T) <= sizeof(uint64_t) ? sizeof(T) : sizeof(uint64_t));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
              DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}

template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_INTF_H_
