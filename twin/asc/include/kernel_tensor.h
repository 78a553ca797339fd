// GlobalTensor (a view of device memory, GM) and LocalTensor (a view of the
// block's Unified Buffer). Sizes are in ELEMENTS, as in CANN.
#ifndef ASC_TWIN_KERNEL_TENSOR_H_
#define ASC_TWIN_KERNEL_TENSOR_H_

#include <cstdint>
#include <cstring>

#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_shape_info.h"
#include "kernel_type.h"

namespace AscendC {

template <typename T>
class LocalTensor;

namespace twin {
template <typename L, typename R, typename Op>
struct TensorExpr;
}  // namespace twin

namespace twin {
// Where a position's data lives on the AI core: the UB for the vector positions, the block's
// L1 (A1, B1, C1, TSCM), L0A (A2), L0B (B2), L0C (CO1), BiasTable (C2) and Fixpipe buffer
// (C2PIPE2GM) for the cube ones; the runtime gives each block its core's memories
// (core_buffers.h). A memory the block's core lacks has base NULL and size 0.
struct LocalMemory {
  uint8_t* base;
  uint64_t size;
  const char* name;
};
inline CoreBuffer MemoryOfPosition(TPosition pos) {
  switch (pos) {
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      return CoreBuffer::L1;
    case TPosition::A2:
      return CoreBuffer::L0A;
    case TPosition::B2:
      return CoreBuffer::L0B;
    case TPosition::CO1:
      return CoreBuffer::L0C;
    case TPosition::C2:
      return CoreBuffer::BIAS;
    case TPosition::C2PIPE2GM:
      return CoreBuffer::FIXBUF;
    default:
      return CoreBuffer::UB;
  }
}
inline LocalMemory LocalMemoryOf(TPosition pos) {
  const CoreBuffer which = MemoryOfPosition(pos);
  LocalMemory mem{nullptr, 0, CoreBufferName(which)};
  MemoryOf(Block(), which, &mem.base, &mem.size);
  return mem;
}
}  // namespace twin

template <typename T>
class GlobalTensor {
 public:
  using PrimType = T;

  __aicore__ inline GlobalTensor() = default;

  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
    address_ = buffer;
    bufferSize_ = bufferSize;
  }
  __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer) {
    address_ = buffer;
    bufferSize_ = 0;
  }

  // A view starting `offset` elements later (int4b_t: an even offset, a view starts on a byte).
  __aicore__ inline GlobalTensor operator[](uint64_t offset) const {
    if (twin::kIsInt4<T> && offset % 2 != 0) {
      twin::RaiseTrap(
          "GlobalTensor<int4b_t>::operator[]: offset %llu is odd (two elements per byte; a view "
          "starts on a byte)",
          static_cast<unsigned long long>(offset));
    }
    GlobalTensor view;
    view.address_ = address_ + twin::ElemStep<T>(offset);
    view.bufferSize_ = bufferSize_ > offset ? bufferSize_ - offset : 0;
    view.cacheMode_ = cacheMode_;
    return view;
  }

  // Scalar GM access; each call is checked against the device allocations.
  __aicore__ inline T GetValue(uint64_t offset) const {
    const T* p = address_ + twin::ElemStep<T>(offset);
    CheckScalar("GlobalTensor::GetValue", p);
    if constexpr (twin::kIsInt4<T>) {
      return twin::LoadNibble(address_, offset);
    } else {
      T v;
      std::memcpy(&v, p, sizeof(T));
      return v;
    }
  }
  // NPU: goes through the per-core data cache; the twin stores directly.
  __aicore__ inline void SetValue(uint64_t offset, T value) const {
    T* p = address_ + twin::ElemStep<T>(offset);
    CheckScalar("GlobalTensor::SetValue", p);
    if constexpr (twin::kIsInt4<T>) {
      twin::StoreNibble(address_, offset, value);
    } else {
      std::memcpy(p, &value, sizeof(T));
    }
  }
  __aicore__ inline T& operator()(uint64_t offset) const {
    static_assert(!twin::kIsInt4<T>,
                  "GlobalTensor<int4b_t>::operator() cannot reference half a byte: use GetValue/SetValue");
    T* p = address_ + offset;
    CheckScalar("GlobalTensor::operator()", p);
    return *p;
  }

  __aicore__ inline uint64_t GetSize() const { return bufferSize_; }
  __aicore__ inline __gm__ T* GetPhyAddr() const { return address_; }
  __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const { return address_ + twin::ElemStep<T>(offset); }

  template <typename U>
  __aicore__ inline GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> out;
    out.address_ = reinterpret_cast<U*>(address_);
    out.bufferSize_ = twin::ElemsInBytes<U>(twin::ElemBytes<T>(bufferSize_));
    return out;
  }

  template <CacheRwMode rwMode = CacheRwMode::RW>
  __aicore__ inline void SetL2CacheHint(CacheMode mode) {
    cacheMode_ = mode;
  }

  // Public like CANN's BaseGlobalTensor members.
  __gm__ T* address_ = nullptr;
  uint64_t bufferSize_ = 0;

 private:
  static void CheckScalar(const char* api, const T* p) {
    if (reinterpret_cast<uintptr_t>(p) % alignof(T) != 0) {
      twin::RaiseTrap("%s: GM address %p is not aligned to %zu bytes", api, static_cast<const void*>(p), alignof(T));
    }
    twin::CheckGm(api, p, sizeof(T));
  }

  CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

template <typename T>
class LocalTensor {
 public:
  using PrimType = T;

  __aicore__ inline LocalTensor() = default;

  // Static-tensor style: `addr` is a byte offset in the local memory of `pos` (the UB, or for
  // the cube positions L1/L0A/L0B/L0C/BiasTable/Fixpipe buffer: twin::LocalMemoryOf), `tileSize`
  // elements.
  __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize) {
    const twin::BlockState& b = twin::Block();
    if (b.env == nullptr && b.ub_base == nullptr)
      twin::RaiseTrap("LocalTensor: no block environment (UB not installed)");
    const twin::LocalMemory mem = twin::LocalMemoryOf(pos);
    if (mem.base == nullptr) twin::RaiseNoMemory("LocalTensor", twin::MemoryOfPosition(pos));
    if (addr % ONE_BLK_SIZE != 0) twin::RaiseTrap("LocalTensor: %s address %u is not 32-byte aligned", mem.name, addr);
    if (twin::kIsInt4<T> && tileSize % 2 != 0) {
      twin::RaiseTrap("LocalTensor<int4b_t>: tileSize %u is odd (two elements per byte)", tileSize);
    }
    const uint64_t end = uint64_t{addr} + twin::ElemBytes<T>(tileSize);
    if (end > mem.size) {
      twin::RaiseTrap("LocalTensor: [%u, %llu) exceeds the %s capacity of %llu bytes", addr,
                      static_cast<unsigned long long>(end), mem.name, static_cast<unsigned long long>(mem.size));
    }
    addr_ = reinterpret_cast<T*>(mem.base + addr);
    limit_ = mem.base + mem.size;
    size_ = tileSize;
    pos_ = pos;
  }

  // A tensor starting `offset` elements later; offset must be < GetSize() (int4b_t: and even,
  // since a view starts on a byte).
  __aicore__ inline LocalTensor operator[](uint32_t offset) const {
    CheckIndex("LocalTensor::operator[]", offset);
    if (twin::kIsInt4<T> && offset % 2 != 0) {
      twin::RaiseTrap(
          "LocalTensor<int4b_t>::operator[]: offset %u is odd (two elements per byte; a view starts "
          "on a byte)",
          offset);
    }
    LocalTensor view = *this;
    view.addr_ = addr_ + twin::ElemStep<T>(offset);
    view.size_ = size_ - offset;
    return view;
  }

  __aicore__ inline T GetValue(uint32_t offset) const {
    CheckIndex("LocalTensor::GetValue", offset);
    if constexpr (twin::kIsInt4<T>) {
      return twin::LoadNibble(addr_, offset);
    } else {
      return addr_[offset];
    }
  }
  template <typename S>
  __aicore__ inline void SetValue(uint32_t index, S value) const {
    CheckIndex("LocalTensor::SetValue", index);
    if constexpr (twin::kIsInt4<T>) {
      twin::StoreNibble(addr_, index, static_cast<T>(value));
    } else {
      addr_[index] = static_cast<T>(value);
    }
  }
  __aicore__ inline T& operator()(uint32_t offset) const {
    static_assert(!twin::kIsInt4<T>,
                  "LocalTensor<int4b_t>::operator() cannot reference half a byte: use GetValue/SetValue");
    CheckIndex("LocalTensor::operator()", offset);
    return addr_[offset];
  }

  __aicore__ inline uint32_t GetSize() const { return size_; }
  __aicore__ inline void SetSize(uint32_t size) {
    if (addr_ != nullptr && twin::ElemBytes<T>(size) > static_cast<uint64_t>(limit_ - Bytes())) {
      twin::RaiseTrap("LocalTensor::SetSize: %u elements exceed the underlying buffer", size);
    }
    size_ = size;
  }
  // Bytes (int4b_t: half the element count).
  __aicore__ inline uint32_t GetLength() const { return static_cast<uint32_t>(twin::ElemBytes<T>(size_)); }
  __aicore__ inline void SetBufferLen(uint32_t dataLen) {
    SetSize(static_cast<uint32_t>(twin::ElemsInBytes<T>(dataLen)));
  }
  __aicore__ inline int32_t GetPosition() const { return static_cast<int32_t>(pos_); }
  __aicore__ inline void SetUserTag(TTagType tag) { tag_ = tag; }
  // The shape the high-level APIs read (kernel_shape_info.h); a tensor without one gives a
  // default ShapeInfo (0 dimensions). Views and copies keep it.
  __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo) {
    shapeSlot_ = twin::ShapeInfoTable::Intern(shapeInfo);
  }
  __aicore__ inline ShapeInfo GetShapeInfo() const { return twin::ShapeInfoTable::At(shapeSlot_); }
  __aicore__ inline TTagType GetUserTag() const { return tag_; }

  // Byte address in its local memory (UB, L1, ...), as the NPU reports it.
  __aicore__ inline uint64_t GetPhyAddr() const { return GetPhyAddr(0); }
  __aicore__ inline uint64_t GetPhyAddr(uint32_t offset) const {
    const uint8_t* base = twin::LocalMemoryOf(pos_).base;
    return static_cast<uint64_t>(Bytes() + twin::ElemByteOffset<T>(offset) - base);
  }

  // Same bytes viewed as U (byte length preserved; int4b_t counts two elements a byte).
  template <typename U>
  __aicore__ inline LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>::TwinMake(reinterpret_cast<U*>(addr_),
                                    static_cast<uint32_t>(twin::ElemsInBytes<U>(twin::ElemBytes<T>(size_))), limit_,
                                    pos_);
  }

  // Whole-tensor expressions: dst = a + b (count = dst.GetSize()).
  template <typename L, typename R, typename Op>
  __aicore__ inline LocalTensor& operator=(const twin::TensorExpr<L, R, Op>& e) {
    Op::Apply(*this, e.lhs, e.rhs, static_cast<int32_t>(size_));
    return *this;
  }

  // ---- twin internals ----
  static LocalTensor TwinMake(T* addr, uint32_t size, uint8_t* limit, TPosition pos, uint8_t queueBuffer = 0) {
    LocalTensor t;
    t.addr_ = addr;
    t.size_ = size;
    t.limit_ = limit;
    t.pos_ = pos;
    t.queueBuffer_ = queueBuffer;
    return t;
  }
  // The queue buffer AllocTensor/DeQue made this tensor from: a hint TQue checks against the
  // tensor's address before it trusts it (views and copies keep it).
  uint8_t TwinQueueBuffer() const { return queueBuffer_; }
  T* TwinData() const { return addr_; }
  uint8_t* Bytes() const { return reinterpret_cast<uint8_t*>(addr_); }

 private:
  void CheckIndex(const char* api, uint32_t i) const {
    if (i >= size_) twin::RaiseTrap("%s: index %u out of range for a LocalTensor of %u elements", api, i, size_);
  }

  T* addr_ = nullptr;
  uint8_t* limit_ = nullptr;  // end of the buffer this view lives in
  uint32_t size_ = 0;
  TPosition pos_ = TPosition::VECCALC;
  uint8_t queueBuffer_ = 0;  // in the padding after pos_: the tensor stays 32 bytes
  uint16_t shapeSlot_ = 0;   // ditto: SetShapeInfo's slot in twin::ShapeInfoTable, 0 = none
  TTagType tag_ = 0;
};

static_assert(sizeof(LocalTensor<float>) == 32, "LocalTensor is copied by value in every call: keep it 32 bytes");

namespace twin {

// Checks shared by all APIs that take UB operands: 32-B aligned start and
// `count` elements inside the tensor. One branch on the fast path; the message is worked out
// out of line.
// Takes the tensor's fields by value: a reference would make every caller keep its tensors in
// memory for the rare trap.
[[noreturn]] __attribute__((noinline, cold)) inline void RaiseUbOperandTrap(const char* api, const char* role,
                                                                            const void* addr, uint32_t size,
                                                                            uint64_t count) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  if (a == 0) RaiseTrap("%s: %s is an unallocated LocalTensor", api, role);
  if (a % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: %s UB address %llu is not 32-byte aligned", api, role,
              static_cast<unsigned long long>(static_cast<const uint8_t*>(addr) - Block().ub_base));
  }
  RaiseTrap("%s: %llu elements exceed %s (a LocalTensor of %u elements)", api, static_cast<unsigned long long>(count),
            role, size);
}

template <typename T>
ASC_TWIN_HOT inline void CheckUbOperand(const char* api, const char* role, const LocalTensor<T>& t, uint64_t count) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(t.TwinData());
  if (__builtin_expect((a == 0) | (a % ONE_BLK_SIZE != 0) | (count > t.GetSize()), 0)) {
    RaiseUbOperandTrap(api, role, t.TwinData(), t.GetSize(), count);
  }
}

// Returns false for count == 0 (a NOP on A2/A3); traps on negative counts.
ASC_TWIN_HOT inline bool CheckCount(const char* api, int32_t count) {
  if (count < 0) RaiseTrap("%s: count %d is negative", api, count);
  return count > 0;
}

template <typename L, typename R, typename Op>
struct TensorExpr {
  const L& lhs;
  const R& rhs;
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TENSOR_H_
