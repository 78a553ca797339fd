// TPipe (UB allocator of one kernel), TQue (buffers handed between CopyIn,
// Compute and CopyOut stages) and TBuf (scratch buffer without a queue).
// On the NPU queues also carry hardware events between pipes; a block runs
// its stages in program order here, so only the bookkeeping remains, and
// every misuse that would deadlock or corrupt on the NPU traps.
#ifndef ASC_TWIN_KERNEL_TPIPE_H_
#define ASC_TWIN_KERNEL_TPIPE_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_tensor.h"
#include "kernel_type.h"

namespace AscendC {

class TPipe;

// A buffer handle, as CANN names it; pools hand them to TQue/TBuf::InitStartBufHandle and
// InitBufHandle (the twin identifies a buffer by its address, the handle only by its slot).
using TBufHandle = uint8_t*;

namespace twin {
struct PoolCore;

inline bool IsUbPosition(TPosition p) {
  return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
}

// The memory TPipe::InitBuffer carves a queue or TBuf of position `p` from (CANN's TPosition ->
// Hardware on the separated AI core): A1/B1/C1/TSCM -> L1, A2 -> L0A, B2 -> L0B, CO1 -> L0C,
// C2 -> BiasTable, C2PIPE2GM -> Fixpipe buffer, VECIN/VECOUT/VECCALC/CO2/SPM -> UB. False for
// GM (and C2PIPE2LOCAL), which is no local memory.
inline bool PipeMemory(TPosition p, CoreBuffer* which) {
  switch (p) {
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::C1:
    case TPosition::TSCM:
      *which = CoreBuffer::L1;
      return true;
    case TPosition::A2:
      *which = CoreBuffer::L0A;
      return true;
    case TPosition::B2:
      *which = CoreBuffer::L0B;
      return true;
    case TPosition::CO1:
      *which = CoreBuffer::L0C;
      return true;
    case TPosition::C2:
      *which = CoreBuffer::BIAS;
      return true;
    case TPosition::C2PIPE2GM:
      *which = CoreBuffer::FIXBUF;
      return true;
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
    case TPosition::CO2:
    case TPosition::SPM:
      *which = CoreBuffer::UB;
      return true;
    default:
      return false;
  }
}

// The buffers one InitBuffer call gave to a queue or TBuf: `num` consecutive
// buffers of `len` bytes starting at `base`.
struct BufferBlock {
  uint8_t* base = nullptr;
  uint8_t* ub_end = nullptr;
  uint32_t len = 0;
  uint8_t num = 0;
  uint64_t epoch = 0;  // TPipe epoch that owns the buffers

  // The epoch alone decides: buffers never carved hold epoch 0 and BlockState::pipe_epoch is
  // never 0, so an uninitialised queue never matches, inside a block or not.
  ASC_TWIN_HOT void Require(const char* api) const {
    if (__builtin_expect(epoch != Block().pipe_epoch || base == nullptr, 0)) {
      if (epoch == Block().pipe_epoch) RaiseNoMemory(api, CoreBuffer::UB);  // set up on an AIC (Carve)
      RaiseTrap("%s: buffers not initialised (call TPipe::InitBuffer first)", api);
    }
  }
  // Bit i set for each of the num buffers.
  uint64_t Mask() const { return num >= 64 ? ~uint64_t{0} : (uint64_t{1} << num) - 1; }
};

// The custom-pool protocol (InitStartBufHandle, then InitBufHandle per buffer); defined in
// kernel_tbufpool.h.
BufferBlock PendingBlock(const char* api, uint8_t num, uint32_t len);
void PlaceBuffer(const char* api, BufferBlock& blk, const PoolCore& pool, uint32_t index, uint32_t addr, uint32_t len);

}  // namespace twin

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue;
template <TPosition pos>
class TBuf;

class TPipe {
 public:
  __aicore__ inline TPipe() {
    twin::BlockState& b = twin::Block();
    if (b.env == nullptr && b.ub_base == nullptr) {
      twin::RaiseTrap("TPipe: no block environment (kernel not launched by the twin runtime)");
    }
    // Queue buffers are promised 32-byte aligned to the optimiser (ASC_TWIN_ASSUME): a host that
    // installs a block itself, not through the kernel entry's check, must give an aligned UB.
    if (reinterpret_cast<uintptr_t>(b.ub_base) % 32 != 0)
      twin::RaiseTrap("TPipe: the block's UB is not 32-byte aligned");
    if (b.pipe != nullptr) {
      twin::RaiseTrap("TPipe: a second TPipe was constructed while another is alive (call Destroy() first)");
    }
    b.pipe = this;
    ++b.pipe_epoch;
    epoch_ = b.pipe_epoch;
  }
  __aicore__ inline ~TPipe() { Destroy(); }
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  // num buffers of len bytes (rounded up to 32 B) for a TQue.
  // The buffers go to the memory of the queue's position (twin::PipeMemory).
  template <class T>
  __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    const twin::CoreBuffer which = Memory("queue", T::kTwinPosition);
    if (num < 1 || num > QBUF_MAX_LEN) twin::RaiseTrap("TPipe::InitBuffer: num %u not in [1, %d]", num, QBUF_MAX_LEN);
    que.TwinInit(Carve("TPipe::InitBuffer", que.TwinBlock(), num, len, which, T::kTwinPosition == TPosition::TSCM));
    return true;
  }

  template <TPosition bufPos>
  __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    const twin::CoreBuffer which = Memory("TBuf", bufPos);
    buf.TwinInit(Carve("TPipe::InitBuffer", buf.TwinBlock(), 1, len, which, bufPos == TPosition::TSCM));
    return true;
  }

  // A TBufPool (or a pool class with EXTERN_IMPL_BUFPOOL) over the next `len` bytes of UB
  // (rounded up to 32 B); the pool divides them further.
  template <class T>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len) {
    constexpr const char* api = "TPipe::InitBufPool";
    CheckPoolPosition<T>(api);
    if (len == 0) twin::RaiseTrap("%s: len is 0", api);
    const twin::BufferBlock span = Carve(api, twin::BufferBlock{}, 1, len);
    const uint32_t at = static_cast<uint32_t>(span.base - twin::Block().ub_base);  // pools are UB only
    InitPool(bufPool.TwinPool(), at, span.len);
    return true;
  }
  // A pool over the same bytes as shareBuf (start and length shared; len must not exceed it).
  template <class T, class U>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    constexpr const char* api = "TPipe::InitBufPool";
    CheckPoolPosition<T>(api);
    if (destroyed_ || twin::Block().pipe != this) twin::RaiseTrap("%s: the TPipe was destroyed", api);
    ShareInto(api, bufPool.TwinPool(), len, shareBuf.TwinPool());
    return true;
  }

  // Releases all buffers (and event ids) so InitBuffer can be called again.
  __aicore__ inline void Reset() {
    twin::BlockState& b = twin::Block();
    for (uint64_t& used : cur_) used = 0;
    buffers_ = 0;
    for (uint8_t& taken : eventsTaken_) taken = 0;
    if (b.pipe == this) epoch_ = ++b.pipe_epoch;
  }
  __aicore__ inline void Destroy() {
    twin::BlockState& b = twin::Block();
    if (destroyed_) return;
    destroyed_ = true;
    if (b.pipe == this) {
      b.pipe = nullptr;
      ++b.pipe_epoch;
    }
  }

  // Event ids per HardEvent, as CANN's TPipe hands them out: AllocEventID takes the lowest free
  // id and keeps it until ReleaseEventID; FetchEventID names the lowest free id without taking
  // it (for a SetFlag/WaitFlag pair right away). No free id traps (CANN asserts).
  template <HardEvent evt>
  __aicore__ inline TEventID AllocEventID() {
    const TEventID id = LowestFreeEvent("TPipe::AllocEventID", evt);
    eventsTaken_[static_cast<uint32_t>(evt)] |= static_cast<uint8_t>(1u << id);
    return id;
  }
  template <HardEvent evt>
  __aicore__ inline void ReleaseEventID(TEventID id) {
    if (id < 0 || id >= twin::kEventIds) {
      twin::RaiseTrap("TPipe::ReleaseEventID<HardEvent::%s>: id %d is outside [0, %d]", twin::EventInfo(evt).name, id,
                      twin::kEventIds - 1);
    }
    eventsTaken_[static_cast<uint32_t>(evt)] &= static_cast<uint8_t>(~(1u << id));
  }
  template <HardEvent evt>
  __aicore__ inline TEventID FetchEventID() {
    return LowestFreeEvent("TPipe::FetchEventID", evt);
  }
  __aicore__ inline TEventID FetchEventID(HardEvent evt) { return LowestFreeEvent("TPipe::FetchEventID", evt); }

  // UB bytes handed out so far.
  uint64_t TwinUsedBytes() const { return cur_[static_cast<uint32_t>(twin::CoreBuffer::UB)]; }

 private:
  // Inlined: returned through memory, the block is re-read with wider loads than it was written
  // with, which stalls store forwarding on every InitBuffer.
  static twin::CoreBuffer Memory(const char* what, TPosition pos) {
    twin::CoreBuffer which = twin::CoreBuffer::UB;
    if (!twin::PipeMemory(pos, &which)) {
      twin::RaiseTrap(
          "TPipe::InitBuffer: %s position %d is not a local memory position (GM and C2PIPE2LOCAL hold "
          "no buffers)",
          what, static_cast<int>(pos));
    }
    return which;
  }
  __attribute__((always_inline)) twin::BufferBlock Carve(const char* api, const twin::BufferBlock& old, uint8_t num,
                                                         uint32_t len, twin::CoreBuffer which = twin::CoreBuffer::UB,
                                                         bool tscm = false) {
    const twin::BlockState& b = twin::Block();
    if (destroyed_ || b.pipe != this) twin::RaiseTrap("%s: the TPipe was destroyed", api);
    if (old.base != nullptr && old.epoch == epoch_) {
      twin::RaiseTrap("%s: buffer already initialised by this TPipe (call Reset() first)", api);
    }
    if (len == 0) twin::RaiseTrap("%s: len is 0", api);
    if (buffers_ + num > static_cast<uint32_t>(QBUF_MAX_LEN)) {
      twin::RaiseTrap("%s: more than %d buffers in one TPipe", api, QBUF_MAX_LEN);
    }
    const uint64_t aligned = (uint64_t{len} + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const uint64_t need = aligned * num;
    uint8_t* base = nullptr;
    uint64_t size = 0;
    twin::MemoryOf(b, which, &base, &size, tscm);
    if (base == nullptr) {
      // The AIC of a mixed kernel may set up the AIVs' UB queues before REGIST_MATMUL_OBJ makes it
      // the Matmul server (asc-devkit's matmul_fused does): on the NPU that only computes
      // addresses. The buffers exist but hold no memory; their first use traps (Require).
      if (which != twin::CoreBuffer::UB || b.core_type != ASC_TWIN_CORE_AIC || !twin::IsMixedKernel(b)) {
        twin::RaiseNoMemory(api, which);
      }
      twin::BufferBlock none;
      none.len = static_cast<uint32_t>(aligned);
      none.num = num;
      none.epoch = epoch_;
      buffers_ += num;
      return none;
    }
    uint64_t& cur = cur_[static_cast<uint32_t>(which)];
    if (cur + need > size) {
      const char* name = twin::CoreBufferName(which);
      twin::RaiseTrap("%s: %s capacity exceeded: %u x %llu B requested at offset %llu, %s of %s is %llu B", api, name,
                      num, static_cast<unsigned long long>(aligned), static_cast<unsigned long long>(cur), name,
                      (b.env && b.env->soc_version) ? b.env->soc_version : "this SoC",
                      static_cast<unsigned long long>(size));
    }
    twin::BufferBlock blk;
    blk.base = base + cur;
    blk.ub_end = base + size;
    blk.len = static_cast<uint32_t>(aligned);
    blk.num = num;
    blk.epoch = epoch_;
    cur += need;
    buffers_ += num;
    return blk;
  }
  template <class T>
  static void CheckPoolPosition(const char* api) {
    if (!twin::IsUbPosition(T::poolPos)) {
      twin::RaiseTrap("%s: pool position %d is not a UB position (VECIN/VECOUT/VECCALC; L1 is not modelled)", api,
                      static_cast<int>(T::poolPos));
    }
  }
  // Defined after PoolCore (kernel_tbufpool.h).
  void InitPool(twin::PoolCore& pool, uint32_t at, uint32_t len) const;
  static void ShareInto(const char* api, twin::PoolCore& pool, uint32_t len, const twin::PoolCore& share);
  TEventID LowestFreeEvent(const char* api, HardEvent evt) const {
    const twin::HardEventInfo info = twin::EventInfo(evt);  // traps on HardEvent::MAX
    const uint32_t taken = eventsTaken_[static_cast<uint32_t>(evt)];
    for (int32_t id = 0; id < twin::kEventIds; ++id) {
      if (!(taken >> id & 1u)) return static_cast<TEventID>(id);
    }
    twin::RaiseTrap("%s<HardEvent::%s>: all %d event ids are allocated (ReleaseEventID missing?)", api, info.name,
                    twin::kEventIds);
  }

  uint64_t cur_[static_cast<uint32_t>(twin::CoreBuffer::COUNT)] = {};  // bytes handed out per memory
  uint32_t buffers_ = 0;
  uint64_t epoch_ = 0;
  uint8_t eventsTaken_[static_cast<uint32_t>(HardEvent::MAX)] = {};  // bit i: id i held by AllocEventID
  bool destroyed_ = false;
};

__aicore__ inline TPipe* GetTPipePtr() { return twin::Block().pipe; }

// A queue of `depth` tensors over the buffers InitBuffer gave it. Buffers are
// handed out in ring order over the free ones; EnQue/DeQue are FIFO.
template <TPosition pos, int32_t depth, auto mask>
class TQue {
 public:
  static constexpr TPosition kTwinPosition = pos;

  __aicore__ inline TQue() = default;
  TQue(const TQue&) = delete;
  TQue& operator=(const TQue&) = delete;

  template <typename T>
  __aicore__ ASC_TWIN_HOT inline LocalTensor<T> AllocTensor() {
    blk_.Require("TQue::AllocTensor");
    // Ring order from the cursor: the lowest free buffer at or after it, else the lowest free
    // one (bit scans: a loop over the buffers cost more than the rest of the bookkeeping).
    const uint64_t free = ~allocated_ & free_mask_;
    if (__builtin_expect(free == 0, 0)) {
      twin::RaiseTrap("TQue::AllocTensor: no free buffer (all %u buffers are allocated; FreeTensor missing?)",
                      blk_.num);
    }
    const uint64_t ahead = free & ahead_mask_;
    const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(ahead != 0 ? ahead : free));
    allocated_ |= uint64_t{1} << i;
    // Buffers after i: past the last one the mask only has bits of no buffer, so the next call
    // wraps to the lowest free one (two shifts: i + 1 may be 64).
    ahead_mask_ = (~uint64_t{0} << i) << 1;
    return Tensor<T>(i);
  }
  template <typename T>
  __aicore__ inline void AllocTensor(LocalTensor<T>& t) {
    t = AllocTensor<T>();
  }

  template <typename T>
  __aicore__ ASC_TWIN_HOT inline bool EnQue(const LocalTensor<T>& t) {
    blk_.Require("TQue::EnQue");
    const uint32_t i = IndexOf("TQue::EnQue", t);
    if (__builtin_expect(!Held(i), 0)) {                         // one test on the fast path for both misuses
      if (i >= blk_.num) ScanIndexOf("TQue::EnQue", t.Bytes());  // traps: not this queue's buffer
      if (!(allocated_ >> i & 1u)) twin::RaiseTrap("TQue::EnQue: tensor's buffer is not allocated (already freed?)");
      twin::RaiseTrap("TQue::EnQue: tensor is already in the queue");
    }
    if (__builtin_expect(count_ >= Capacity(), 0)) {
      twin::RaiseTrap("TQue::EnQue: queue is full (depth %u; DeQue missing?)", static_cast<unsigned>(Capacity()));
    }
    fifo_[(head_ + count_) % kFifoCap] = static_cast<uint8_t>(i);
    ++count_;
    queued_ |= uint64_t{1} << i;
    return true;
  }

  template <typename T>
  __aicore__ ASC_TWIN_HOT inline LocalTensor<T> DeQue() {
    blk_.Require("TQue::DeQue");
    if (__builtin_expect(count_ == 0, 0)) twin::RaiseTrap("TQue::DeQue: queue is empty (no EnQue before DeQue)");
    const uint32_t i = fifo_[head_];
    head_ = (head_ + 1) % kFifoCap;
    --count_;
    queued_ &= ~(uint64_t{1} << i);
    return Tensor<T>(i);
  }
  template <typename T>
  __aicore__ inline void DeQue(LocalTensor<T>& t) {
    t = DeQue<T>();
  }

  template <typename T>
  __aicore__ ASC_TWIN_HOT inline void FreeTensor(LocalTensor<T>& t) {
    blk_.Require("TQue::FreeTensor");
    const uint32_t i = IndexOf("TQue::FreeTensor", t);
    if (__builtin_expect(!Held(i), 0)) {
      if (i >= blk_.num) ScanIndexOf("TQue::FreeTensor", t.Bytes());  // traps: not this queue's buffer
      if (!(allocated_ >> i & 1u)) twin::RaiseTrap("TQue::FreeTensor: buffer is already free (double FreeTensor)");
      twin::RaiseTrap("TQue::FreeTensor: tensor is still in the queue (DeQue it first)");
    }
    allocated_ &= ~(uint64_t{1} << i);
  }

  __aicore__ inline bool VacantInQue() const { return count_ < Capacity(); }
  __aicore__ inline bool HasTensorInQue() const { return count_ > 0; }
  __aicore__ inline int32_t GetTensorCountInQue() const { return static_cast<int32_t>(count_); }
  __aicore__ inline bool HasIdleBuffer() const { return blk_.num > 0 && allocated_ != blk_.Mask(); }
  __aicore__ inline void FreeAllEvent() {}

  // What a pool class written with EXTERN_IMPL_BUFPOOL calls: InitStartBufHandle names how many
  // buffers of what length, then InitBufHandle gives each buffer's UB address (offset) in turn.
  // The twin's queue keeps its buffers back to back, so buffer i must start at buffer 0 + i x len.
  __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len) {
    (void)startBufhandle;
    TwinInit(twin::PendingBlock("TQue::InitStartBufHandle", num, len));
  }
  template <class P>
  __aicore__ inline void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                       uint32_t len) {
    (void)bufhandle;
    twin::PlaceBuffer("TQue::InitBufHandle", blk_, bufPool->TwinPool(), index, curPoolAddr, len);
  }

  // ---- twin internals (used by TPipe::InitBuffer) ----
  const twin::BufferBlock& TwinBlock() const { return blk_; }
  void TwinInit(const twin::BufferBlock& blk) {
    blk_ = blk;
    free_mask_ = blk.Mask();
    allocated_ = queued_ = 0;
    ahead_mask_ = ~uint64_t{0};
    head_ = count_ = 0;
  }

 private:
  static constexpr uint32_t kFifoCap = 64;
  // depth 0 (in-place overloads) is treated as "as deep as there are buffers".
  uint32_t Capacity() const { return depth > 0 ? static_cast<uint32_t>(depth) : blk_.num; }
  // Buffer i is allocated and not queued: what EnQue and FreeTensor need.
  bool Held(uint32_t i) const { return ((allocated_ & ~queued_) >> i & 1u) != 0; }

  template <typename T>
  ASC_TWIN_HOT LocalTensor<T> Tensor(uint32_t i) const {
    uint8_t* start = blk_.base + uint64_t{i} * blk_.len;
    // What Carve guarantees (a 32-byte aligned UB base, offsets and lengths in 32-byte steps),
    // told to the compiler: the null and alignment checks of the API calls that take this
    // tensor next in the same function fold away.
    ASC_TWIN_ASSUME(start != nullptr && reinterpret_cast<uintptr_t>(start) % ONE_BLK_SIZE == 0);
    return LocalTensor<T>::TwinMake(reinterpret_cast<T*>(start), static_cast<uint32_t>(twin::ElemsInBytes<T>(blk_.len)),
                                    blk_.base + uint64_t{i + 1} * blk_.len, pos, static_cast<uint8_t>(i));
  }
  // The buffer `t` starts; traps unless it is the start of one of this queue's buffers. The
  // tensor names the buffer it was made from: one multiply confirms it (a division or a scan of
  // the buffer starts cost more); a view, a copy from another queue or TBuf falls back to the scan.
  template <typename T>
  ASC_TWIN_HOT uint32_t IndexOf(const char* api, const LocalTensor<T>& t) const {
    const uint32_t hint = t.TwinQueueBuffer();  // < 64: TQue made it (0 for other tensors)
    if (__builtin_expect(t.Bytes() == blk_.base + uint64_t{hint} * blk_.len, 1)) {
      // A start past this queue's buffers (another queue's, by coincidence) is never allocated
      // here, so the caller's allocated-bit test sends it to ScanIndexOf's message.
      return hint;
    }
    return ScanIndexOf(api, t.Bytes());
  }
  __attribute__((noinline)) uint32_t ScanIndexOf(const char* api, const uint8_t* p) const {
    const uint8_t* start = blk_.base;
    for (uint32_t i = 0; i < blk_.num; ++i, start += blk_.len) {
      if (p == start) return i;
    }
    twin::RaiseTrap("%s: tensor was not allocated from this queue", api);
  }

  twin::BufferBlock blk_;
  uint64_t free_mask_ = 0;              // bit i for each buffer (blk_.Mask())
  uint64_t allocated_ = 0;              // bit i: buffer i handed out by AllocTensor
  uint64_t queued_ = 0;                 // bit i: buffer i is in the FIFO
  uint64_t ahead_mask_ = ~uint64_t{0};  // the ring's cursor: bits of the buffers at or after it
  uint32_t head_ = 0;
  uint32_t count_ = 0;
  uint8_t fifo_[kFifoCap] = {};
};

template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  static constexpr TPosition kTwinPosition = pos;

  __aicore__ inline TBuf() = default;
  TBuf(const TBuf&) = delete;
  TBuf& operator=(const TBuf&) = delete;

  // The whole buffer; every call returns the same start address.
  template <typename T>
  __aicore__ inline LocalTensor<T> Get() {
    blk_.Require("TBuf::Get");
    return Make<T>(0, static_cast<uint32_t>(twin::ElemsInBytes<T>(blk_.len)));
  }
  // The first `len` elements.
  template <typename T>
  __aicore__ inline LocalTensor<T> Get(uint32_t len) {
    blk_.Require("TBuf::Get");
    if (twin::ElemBytes<T>(len) > blk_.len) {
      twin::RaiseTrap("TBuf::Get: %u elements (%llu B) exceed the buffer of %u B", len,
                      static_cast<unsigned long long>(twin::ElemBytes<T>(len)), blk_.len);
    }
    return Make<T>(0, len);
  }
  // `size` elements starting `bufOffset` bytes into the buffer.
  template <typename T>
  __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    blk_.Require("TBuf::GetWithOffset");
    if (uint64_t{bufOffset} + twin::ElemBytes<T>(size) > blk_.len) {
      twin::RaiseTrap("TBuf::GetWithOffset: [%u, +%llu B) exceeds the buffer of %u B", bufOffset,
                      static_cast<unsigned long long>(twin::ElemBytes<T>(size)), blk_.len);
    }
    return Make<T>(bufOffset, size);
  }

  // TBuf is a one-buffer queue in CANN (it derives from TQueBind): AllocTensor hands out the
  // whole buffer, FreeTensor gives it back. A tensor from Get() may be freed too (CANN's samples
  // do), so FreeTensor only checks that the tensor is this TBuf's buffer.
  template <typename T>
  __aicore__ inline LocalTensor<T> AllocTensor() {
    blk_.Require("TBuf::AllocTensor");
    if (allocated_) twin::RaiseTrap("TBuf::AllocTensor: the buffer is already allocated (FreeTensor missing?)");
    allocated_ = true;
    return Get<T>();
  }
  template <typename T>
  __aicore__ inline void FreeTensor(LocalTensor<T>& tensor) {
    blk_.Require("TBuf::FreeTensor");
    CheckOwn("TBuf::FreeTensor", tensor);
    if (queued_) twin::RaiseTrap("TBuf::FreeTensor: tensor is still in the queue (DeQue it first)");
    allocated_ = false;
  }
  template <typename T>
  __aicore__ inline void EnQue(const LocalTensor<T>& tensor) {
    blk_.Require("TBuf::EnQue");
    CheckOwn("TBuf::EnQue", tensor);
    if (queued_) twin::RaiseTrap("TBuf::EnQue: queue is full (depth 1; DeQue missing?)");
    queued_ = true;
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> DeQue() {
    blk_.Require("TBuf::DeQue");
    if (!queued_) twin::RaiseTrap("TBuf::DeQue: queue is empty (no EnQue before DeQue)");
    queued_ = false;
    return Get<T>();
  }
  // See TQue::InitStartBufHandle (a TBuf has one buffer).
  __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len) {
    (void)startBufhandle;
    if (num != 1) twin::RaiseTrap("TBuf::InitStartBufHandle: a TBuf has one buffer, num is %u", num);
    TwinInit(twin::PendingBlock("TBuf::InitStartBufHandle", num, len));
  }
  template <class P>
  __aicore__ inline void InitBufHandle(P* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                       uint32_t len) {
    (void)bufhandle;
    twin::PlaceBuffer("TBuf::InitBufHandle", blk_, bufPool->TwinPool(), index, curPoolAddr, len);
  }

  // ---- twin internals ----
  const twin::BufferBlock& TwinBlock() const { return blk_; }
  void TwinInit(const twin::BufferBlock& blk) {
    blk_ = blk;
    allocated_ = queued_ = false;
  }

 private:
  template <typename T>
  void CheckOwn(const char* api, const LocalTensor<T>& t) const {
    if (t.Bytes() != blk_.base) twin::RaiseTrap("%s: tensor was not allocated from this TBuf", api);
  }
  template <typename T>
  LocalTensor<T> Make(uint32_t byteOffset, uint32_t size) const {
    return LocalTensor<T>::TwinMake(reinterpret_cast<T*>(blk_.base + byteOffset), size, blk_.base + blk_.len, pos);
  }
  twin::BufferBlock blk_;
  bool allocated_ = false;
  bool queued_ = false;
};

}  // namespace AscendC

#include "kernel_tbufpool.h"

namespace AscendC {
inline void TPipe::InitPool(twin::PoolCore& pool, uint32_t at, uint32_t len) const {
  pool = twin::PoolCore{at, len, at, 0, epoch_};
}
inline void TPipe::ShareInto(const char* api, twin::PoolCore& pool, uint32_t len, const twin::PoolCore& share) {
  pool = twin::SharedPool(api, len, share);
}
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TPIPE_H_
