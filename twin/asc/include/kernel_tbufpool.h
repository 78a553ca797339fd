// TBufPool (a region of UB that TPipe::InitBufPool carves out and that is divided again into
// queue buffers, TBufs and smaller pools, then Reset to reuse the same bytes for the next
// stage) and EXTERN_IMPL_BUFPOOL (what a user-written pool class needs to take part: CANN's
// Reset/Init/GetBufHandle/SetCurAddr/GetCurAddr/SetCurBufSize/GetCurBufSize). Included by
// kernel_tpipe.h after TPipe, TQue and TBuf.
#ifndef ASC_TWIN_KERNEL_TBUFPOOL_H_
#define ASC_TWIN_KERNEL_TBUFPOOL_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_type.h"

namespace AscendC {

constexpr uint32_t defaultBufIDSize = 4;

namespace twin {

// What every pool, built-in or user-written, holds: its span of UB (byte offsets from the
// block's UB base, as CANN's pool addresses are), the next free offset, the buffers handed out
// since the last Reset and the TPipe epoch that carved it (0 before InitBufPool).
struct PoolCore {
  uint32_t start = 0;
  uint32_t len = 0;
  uint32_t cur = 0;
  uint32_t buffers = 0;
  uint64_t epoch = 0;

  void Require(const char* api) const {
    if (epoch == 0 || epoch != Block().pipe_epoch) {
      RaiseTrap("%s: the TBufPool is not initialised (call TPipe::InitBufPool or TBufPool::InitBufPool first)", api);
    }
  }
  // `len` bytes (rounded up to 32) from the pool's next free offset; returns the offset.
  uint32_t Take(const char* api, uint64_t len) {
    Require(api);
    const uint64_t aligned = (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    if (uint64_t{cur} + aligned > uint64_t{start} + this->len) {
      RaiseTrap("%s: TBufPool capacity exceeded: %llu B requested at offset %u, the pool is [%u, %u)", api,
                static_cast<unsigned long long>(aligned), cur, start, start + this->len);
    }
    const uint32_t at = cur;
    cur += static_cast<uint32_t>(aligned);
    return at;
  }
  void Reset() {
    cur = start;
    buffers = 0;
  }
};

// The buffer block a pool gives a queue or TBuf: num buffers of len bytes from UB offset `at`.
inline BufferBlock PoolBlock(uint32_t at, uint32_t len, uint8_t num) {
  const BlockState& b = Block();
  BufferBlock blk;
  blk.base = b.ub_base + at;
  blk.ub_end = b.ub_base + b.ub_size;
  blk.len = len;
  blk.num = num;
  blk.epoch = b.pipe_epoch;
  return blk;
}

// A pool over share's bytes (CANN: the two share start address and length).
inline PoolCore SharedPool(const char* api, uint32_t len, const PoolCore& share) {
  share.Require(api);
  if (len > share.len) RaiseTrap("%s: len %u exceeds the shared TBufPool's %u B", api, len, share.len);
  return PoolCore{share.start, share.len, share.start, 0, share.epoch};
}

// InitStartBufHandle: num buffers of len bytes, not usable (epoch 0) until the last one is placed.
inline BufferBlock PendingBlock(const char* api, uint8_t num, uint32_t len) {
  if (num < 1 || num > QBUF_MAX_LEN) RaiseTrap("%s: num %u not in [1, %d]", api, num, QBUF_MAX_LEN);
  if (len == 0 || len % ONE_BLK_SIZE != 0) RaiseTrap("%s: len %u is not a positive multiple of 32 bytes", api, len);
  BufferBlock blk;
  blk.len = len;
  blk.num = num;
  blk.ub_end = Block().ub_base + Block().ub_size;
  return blk;
}
// InitBufHandle: buffer `index` at UB offset `addr`, inside the pool; usable once the last is placed.
inline void PlaceBuffer(const char* api, BufferBlock& blk, const PoolCore& pool, uint32_t index, uint32_t addr,
                        uint32_t len) {
  pool.Require(api);
  if (blk.num == 0) RaiseTrap("%s: InitStartBufHandle was not called first", api);
  if (index >= blk.num) RaiseTrap("%s: index %u is beyond the %u buffers of InitStartBufHandle", api, index, blk.num);
  if (len != blk.len) RaiseTrap("%s: len %u differs from InitStartBufHandle's %u", api, len, blk.len);
  if (addr % ONE_BLK_SIZE != 0) RaiseTrap("%s: address %u is not 32-byte aligned", api, addr);
  if (addr < pool.start || uint64_t{addr} + len > uint64_t{pool.start} + pool.len) {
    RaiseTrap("%s: buffer [%u, +%u B) is outside the pool [%u, %u)", api, addr, len, pool.start, pool.start + pool.len);
  }
  uint8_t* const at = Block().ub_base + addr;
  if (index == 0) {
    blk.base = at;
  } else if (blk.base == nullptr || at != blk.base + uint64_t{index} * len) {
    RaiseTrap("%s: buffer %u must follow buffer %u directly (the twin's queues keep their buffers back to back)", api,
              index, index - 1);
  }
  if (index + 1u == blk.num) blk.epoch = Block().pipe_epoch;
}

template <class Q>
inline void CheckUbHolder(const char* api, const char* what) {
  if (!IsUbPosition(Q::kTwinPosition)) {
    RaiseTrap("%s: %s position %d is not a UB position (VECIN/VECOUT/VECCALC)", api, what,
              static_cast<int>(Q::kTwinPosition));
  }
}

}  // namespace twin

template <TPosition pos, uint32_t bufIDSize = defaultBufIDSize>
class TBufPool {
 public:
  static constexpr TPosition poolPos = pos;
  static constexpr bool isTbufPool = true;
  static_assert(bufIDSize <= 16, "TBufPool: bufIDSize must not exceed 16");

  __aicore__ inline TBufPool() = default;
  __aicore__ inline ~TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  template <class T>
  __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    constexpr const char* api = "TBufPool::InitBuffer";
    twin::CheckUbHolder<T>(api, "queue");
    if (num < 1) twin::RaiseTrap("%s: num %u not in [1, %u]", api, num, bufIDSize);
    if (len == 0) twin::RaiseTrap("%s: len is 0", api);
    TakeIds(api, num);
    const uint64_t aligned = (uint64_t{len} + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const uint32_t at = core_.Take(api, aligned * num);
    que.TwinInit(twin::PoolBlock(at, static_cast<uint32_t>(aligned), num));
    return true;
  }
  template <TPosition bufPos>
  __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    constexpr const char* api = "TBufPool::InitBuffer";
    twin::CheckUbHolder<TBuf<bufPos>>(api, "TBuf");
    if (len == 0) twin::RaiseTrap("%s: len is 0", api);
    TakeIds(api, 1);
    const uint32_t at = core_.Take(api, len);
    buf.TwinInit(twin::PoolBlock(at, (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE, 1));
    return true;
  }
  // A smaller pool of `len` bytes out of this one.
  template <class T>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len) {
    constexpr const char* api = "TBufPool::InitBufPool";
    CheckSubIds<T>(api, bufIDSize - core_.buffers, "remaining");
    const uint32_t at = core_.Take(api, len);
    bufPool.TwinPool() = twin::PoolCore{at, (len + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE, at, 0, core_.epoch};
    return true;
  }
  // A pool over the same bytes as shareBuf (start and length shared; len must not exceed it).
  template <class T, class U>
  __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    constexpr const char* api = "TBufPool::InitBufPool";
    core_.Require(api);
    CheckSubIds<T>(api, bufIDSize, "set");
    bufPool.TwinPool() = twin::SharedPool(api, len, shareBuf.TwinPool());
    return true;
  }
  // Frees every buffer and pool carved from this pool; the same bytes are handed out again.
  __aicore__ inline void Reset() { core_.Reset(); }

  // ---- twin internals ----
  twin::PoolCore& TwinPool() { return core_; }

 private:
  void TakeIds(const char* api, uint32_t n) {
    if (core_.buffers + n > bufIDSize) {
      twin::RaiseTrap("%s: more than %u buffers in one TBufPool (bufIDSize)", api, bufIDSize);
    }
    core_.buffers += n;
  }
  template <class T>
  static void CheckSubIds(const char* api, uint32_t limit, const char* which) {
    if (T::bufSize > limit) {
      twin::RaiseTrap("%s: the new pool's bufIDSize %u exceeds the %s buffers of this TBufPool (%u)", api,
                      static_cast<unsigned>(T::bufSize), which, limit);
    }
  }
  twin::PoolCore core_;

 public:
  static constexpr int32_t bufSize = bufIDSize;
};

// Declares, inside a user's pool class, what CANN's macro declares: poolPos, bufSize,
// isTbufPool, Reset, Init, GetBufHandle, SetCurAddr, GetCurAddr, SetCurBufSize, GetCurBufSize
// (addresses are byte offsets into UB), and the state TPipe::InitBufPool fills in.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                            \
 public:                                                                                                  \
  static constexpr AscendC::TPosition poolPos = POSITION;                                                 \
  static constexpr int32_t bufSize = BUFID_SIZE;                                                          \
  static constexpr bool isTbufPool = true;                                                                \
  __aicore__ inline ~EXT_BUFPOOL() { Reset(); }                                                           \
  __aicore__ inline void Reset() { twinPool_.Reset(); }                                                   \
  __aicore__ inline void Init() { twinPool_ = AscendC::twin::PoolCore{}; }                                \
  __aicore__ inline AscendC::TBufHandle GetBufHandle(uint8_t offset) {                                    \
    if (offset >= BUFID_SIZE) {                                                                           \
      AscendC::twin::RaiseTrap(#EXT_BUFPOOL "::GetBufHandle: buffer %u is beyond its %d buffers", offset, \
                               static_cast<int>(BUFID_SIZE));                                             \
    }                                                                                                     \
    return &twinHandles_[offset];                                                                         \
  }                                                                                                       \
  __aicore__ inline void SetCurAddr(uint32_t curAddr) { twinPool_.cur = curAddr; }                        \
  __aicore__ inline uint32_t GetCurAddr() const { return twinPool_.cur; }                                 \
  __aicore__ inline void SetCurBufSize(uint8_t curBufSize) { twinPool_.buffers = curBufSize; }            \
  __aicore__ inline uint8_t GetCurBufSize() const { return static_cast<uint8_t>(twinPool_.buffers); }     \
  AscendC::twin::PoolCore& TwinPool() { return twinPool_; }                                               \
                                                                                                          \
 private:                                                                                                 \
  AscendC::twin::PoolCore twinPool_;                                                                      \
  uint8_t twinHandles_[BUFID_SIZE] = {};                                                                  \
                                                                                                          \
 public:

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TBUFPOOL_H_
