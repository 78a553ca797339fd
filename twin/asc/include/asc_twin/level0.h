// The engine behind the level-0 (mask/repeat) vector APIs: resolves the mask
// (argument or register, Normal or Counter mode) into a plan of repeats and active lanes,
// checks every operand's reach against its LocalTensor before anything is written, then
// runs repeat by repeat: all sources of a repeat are read before its results are written
// (in-place calls behave as on the NPU). Strides are in 32-byte blocks.
#ifndef ASC_TWIN_LEVEL0_H_
#define ASC_TWIN_LEVEL0_H_

#include <cstdint>
#include <type_traits>

#include "kernel_operator_vec_mask_intf.h"
#include "kernel_struct_repeat.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

template <typename T>
constexpr uint32_t kRepElems = static_cast<uint32_t>(ElemsInBytes<T>(256));  // elements of one 256-byte repeat
template <typename T>
constexpr uint32_t kBlkElems = static_cast<uint32_t>(ElemsInBytes<T>(32));  // elements of one 32-byte block

struct Plan {
  uint32_t repeats = 0;
  uint32_t lanes = 0;  // lanes of a repeat (elements per repeat)
  bool counter = false;
  uint64_t count = 0;         // Counter mode: elements in total
  uint64_t bits[2] = {0, 0};  // Normal mode: active lanes

  bool Active(uint32_t r, uint32_t lane) const {
    if (counter) return uint64_t{r} * lanes + lane < count;
    return (bits[lane >> 6] >> (lane & 63)) & 1u;
  }
  // Highest active lane of repeat r (lanes if none).
  uint32_t LastLane(uint32_t r) const {
    if (counter) {
      const uint64_t left = count - uint64_t{r} * lanes;
      return static_cast<uint32_t>((left >= lanes ? lanes : left) - 1);
    }
    if (bits[1] != 0 && lanes > 64) return 127u - static_cast<uint32_t>(__builtin_clzll(bits[1]));
    if (bits[0] != 0) return 63u - static_cast<uint32_t>(__builtin_clzll(bits[0]));
    return lanes;
  }
};

inline void CheckRepeat(const char* api, int64_t repeatTimes) {
  if (repeatTimes < 0 || repeatTimes > MAX_REPEAT_TIMES) {
    RaiseTrap("%s: repeatTimes %lld is outside [0, 255]", api, static_cast<long long>(repeatTimes));
  }
}

template <typename T>
inline Plan FinishPlan(const char* api, int64_t repeatTimes, bool repeatFromMask) {
  VecRegs& v = Block().vec;
  Plan p;
  p.lanes = kRepElems<T>;
  if (v.counterMode) {
    p.counter = true;
    p.count = v.maskLow;
    p.repeats = static_cast<uint32_t>((p.count + p.lanes - 1) / p.lanes);
    return p;
  }
  (void)repeatFromMask;
  CheckRepeat(api, repeatTimes);
  p.repeats = static_cast<uint32_t>(repeatTimes);
  p.bits[0] = v.maskLow;
  p.bits[1] = p.lanes > 64 ? v.maskHigh : 0;
  if (p.lanes < 64) p.bits[0] &= (1ull << p.lanes) - 1;
  return p;
}

// Continuous mask (number of leading lanes), or a Counter-mode count.
template <typename T, bool isSetMask>
inline Plan MakePlan(const char* api, uint64_t mask, int64_t repeatTimes) {
  VecRegs& v = Block().vec;
  if (isSetMask) {
    if (v.counterMode) {
      v.maskLow = mask;
      v.maskHigh = 0;
    } else {
      if (mask == 0 || mask > kRepElems<T>) {
        RaiseTrap("%s: mask %llu is outside [1, %u] for a %zu-bit type", api, static_cast<unsigned long long>(mask),
                  kRepElems<T>, sizeof(T) * 8);
      }
      v.maskLow = mask >= 64 ? ~0ull : ((1ull << mask) - 1);
      v.maskHigh = mask >= 128 ? ~0ull : (mask > 64 ? ((1ull << (mask - 64)) - 1) : 0);
    }
  }
  return FinishPlan<T>(api, repeatTimes, false);
}

// Bit mask: mask[0] lanes 0..63, mask[1] lanes 64..127 (must be 0 for 32-bit types).
template <typename T, bool isSetMask>
inline Plan MakePlan(const char* api, const uint64_t mask[], int64_t repeatTimes) {
  VecRegs& v = Block().vec;
  if (isSetMask) {
    if (mask == nullptr) RaiseTrap("%s: mask array is null", api);
    if (v.counterMode) {
      v.maskLow = mask[0];
      v.maskHigh = 0;
    } else {
      if (sizeof(T) >= 4 && mask[1] != 0) {
        RaiseTrap("%s: mask[1] = 0x%llx must be 0 for a %zu-bit type (64 lanes)", api,
                  static_cast<unsigned long long>(mask[1]), sizeof(T) * 8);
      }
      if (mask[0] == 0 && mask[1] == 0) RaiseTrap("%s: mask {0, 0} selects no lane", api);
      v.maskLow = mask[0];
      v.maskHigh = mask[1];
    }
  }
  return FinishPlan<T>(api, repeatTimes, false);
}

// One operand of a level-0 call: a LocalTensor with its block and repeat strides.
template <typename T>
struct Operand {
  const char* role;
  T* data;
  uint32_t size;
  uint32_t blk;  // block stride (32-B blocks)
  uint32_t rep;  // repeat stride (32-B blocks)

  uint64_t Offset(uint32_t r, uint32_t lane) const {
    constexpr uint32_t be = kBlkElems<T>;
    return uint64_t{r} * rep * be + uint64_t{lane / be} * blk * be + lane % be;
  }
};

template <typename T>
inline Operand<T> MakeOperand(const char* api, const char* role, const LocalTensor<T>& t, uint32_t blk, uint32_t rep) {
  CheckUbOperand(api, role, t, 0);
  return Operand<T>{role, t.TwinData(), t.GetSize(), blk, rep};
}

// Traps unless every active lane of the plan stays inside the operand's tensor.
template <typename T>
inline void CheckReach(const char* api, const Plan& p, const Operand<T>& o) {
  if (p.repeats == 0) return;
  uint64_t reach = 0;
  uint32_t worstRepeat = 0;
  // Lane offsets grow with the lane, so each repeat reaches furthest at its last active lane;
  // only the last repeat can differ (Counter mode), so two candidates suffice.
  for (uint32_t r : {p.repeats >= 2 ? p.repeats - 2 : 0u, p.repeats - 1}) {
    const uint32_t last = p.LastLane(r);
    if (last >= p.lanes) continue;
    const uint64_t off = o.Offset(r, last) + 1;
    if (off > reach) {
      reach = off;
      worstRepeat = r;
    }
  }
  if (reach > o.size) {
    RaiseTrap("%s: %s repeat %u reaches element %llu, beyond its LocalTensor of %u elements", api, o.role, worstRepeat,
              static_cast<unsigned long long>(reach - 1), o.size);
  }
}

// dst[lane] = f(src_0[lane], ..., src_{N-1}[lane]) (or f(values, repeat, lane)) for every active
// lane of every repeat.
// In Counter mode an element-wise level-0 call takes its `count` elements block after block with
// each operand's block stride, across repeat boundaries: the repeat stride is unused (CANN's
// Copy sample gathers row starts of an [18, 64] int32 tensor with count 144, block stride 8).
// As a repeat stride that is one repeat's worth of blocks at the block stride.
template <typename T>
inline Operand<T> CounterOperand(const Plan& p, Operand<T> o) {
  if (p.counter) o.rep = p.lanes / kBlkElems<T> * o.blk;
  return o;
}

template <typename D, typename S, size_t N, typename F>
inline void Level0Map(const char* api, const Plan& p, const Operand<D>& dstIn, const Operand<S> (&srcIn)[N], F f) {
  const Operand<D> dst = CounterOperand(p, dstIn);
  Operand<S> src[N == 0 ? 1 : N];
  for (size_t k = 0; k < N; ++k) src[k] = CounterOperand(p, srcIn[k]);
  CheckReach(api, p, dst);
  for (size_t k = 0; k < N; ++k) CheckReach(api, p, src[k]);
  constexpr uint32_t kMaxLanes = 128;
  S in[kMaxLanes][N == 0 ? 1 : N];
  D out[kMaxLanes];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t lane = 0; lane < p.lanes; ++lane) {
      if (!p.Active(r, lane)) continue;
      for (size_t k = 0; k < N; ++k) in[lane][k] = LoadElem(src[k].data, src[k].Offset(r, lane));
      if constexpr (std::is_invocable<F, const S*, uint32_t, uint32_t>::value) {
        out[lane] = f(static_cast<const S*>(in[lane]), r, lane);  // ops that need the lane's position
      } else {
        out[lane] = f(static_cast<const S*>(in[lane]));
      }
    }
    for (uint32_t lane = 0; lane < p.lanes; ++lane) {
      if (p.Active(r, lane)) StoreElem(dst.data, dst.Offset(r, lane), out[lane]);
    }
  }
}

// The plan of a count (level-2) call over `count` contiguous elements.
template <typename T>
inline Plan CountPlan(uint32_t count) {
  Plan p;
  p.lanes = kRepElems<T>;
  p.counter = true;
  p.count = count;
  p.repeats = (count + p.lanes - 1) / p.lanes;
  return p;
}

// The count forms end in Normal mode with all lanes on (CANN's level-2 implementations
// switch to Counter mode and back).
ASC_TWIN_HOT inline void LevelTwoDone() {
  VecRegs& v = Block().vec;
  v.counterMode = false;
  v.maskHigh = ~0ull;
  v.maskLow = ~0ull;
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_LEVEL0_H_
