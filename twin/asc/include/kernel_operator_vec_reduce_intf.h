// Reductions: WholeReduceSum/Max/Min, RepeatReduceSum, BlockReduceSum/Max/Min,
// PairReduceSum (level-0: mask, repeatTime, strides), ReduceSum/Max/Min (count and level-0
// forms, with calIndex), and the reduce special registers (GetReduceRepeatSumSpr/GetAccVal,
// GetReduceRepeatMaxMinSpr/GetReduceMaxMinCount).
//
// Order of operations (what makes float results bit-exact against an NPU golden):
// - within one repeat (WholeReduceSum, RepeatReduceSum, ReduceSum) the lanes are added as a
//   binary tree of adjacent pairs over all 256 / sizeof(T) lanes, inactive lanes counting as 0:
//   (x0+x1), (x2+x3), ... then ((x0+x1)+(x2+x3)), ... Every addition is rounded to T; for half
//   a finite sum beyond 65504 is saturated to +-65504 (CANN: "results above 65504 are kept as
//   65504");
// - BlockReduceSum: the same tree within each 32-byte block; PairReduceSum: x[2j] + x[2j+1];
// - ReduceSum count form (CANN "method 2", A2/A3): a tree within each repeat, then the repeat
//   results added in order: ((r0 + r1) + r2) + ...;
// - ReduceSum level-0 form ("method 1"): a tree within each repeat, then the repeat results
//   reduced again by the same tree, 256 / sizeof(T) at a time, until one value is left.
// Max/Min: the first (lowest-index) lane among equal extremes wins; the index is written as the
// raw bits of an unsigned integer of T's width (reinterpret dst as uint16_t/uint32_t to read it).
// A 32-byte block with no active lane (BlockReduce*) yields 0. The special registers hold the
// result of the last repeat of the last WholeReduce* call, or the final result of Reduce*.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_REDUCE_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_REDUCE_INTF_H_

#include <cstring>
#include <limits>
#include <vector>

#include "asc_twin/elementwise.h"

namespace AscendC {

enum class ReduceOrder : uint8_t {
  ORDER_VALUE_INDEX = 0,
  ORDER_INDEX_VALUE = 1,
  ORDER_ONLY_VALUE = 2,
  ORDER_ONLY_INDEX = 3,
};

namespace twin {

template <typename T>
constexpr bool kReduceType = kIsOneOf<T, half, float>;

// One rounded addition as the vector unit does it (half saturates finite overflow).
template <typename T>
inline T ReduceAdd(T a, T b) {
  if constexpr (std::is_same<T, half>::value) {
    const float fa = a, fb = b;
    const half r(fa + fb);
    if ((r.val & 0x7fffu) == 0x7c00u && std::isfinite(fa) && std::isfinite(fb)) {
      return half::FromBits(static_cast<uint16_t>((r.val & 0x8000u) | 0x7bffu));
    }
    return r;
  } else {
    return a + b;
  }
}

// Adjacent-pair binary tree over n values (n a power of two), in place.
template <typename T>
inline T TreeSum(T* v, uint32_t n) {
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) v[i] = ReduceAdd(v[2 * i], v[2 * i + 1]);
  }
  return v[0];
}

template <typename T>
using IndexBits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

template <typename T>
inline T IndexAsT(uint64_t index) {
  const IndexBits<T> bits = static_cast<IndexBits<T>>(index);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

template <typename T>
inline uint64_t RawBits(T v) {
  IndexBits<T> bits;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}

template <typename T>
inline T FromRawBits(uint64_t raw) {
  return IndexAsT<T>(raw);
}

// Reads repeat r of src into lanes[] (inactive lanes: 0) and active[].
template <typename T>
inline void GatherRepeat(const Plan& p, const Operand<T>& src, uint32_t r, T* lanes, bool* active) {
  for (uint32_t l = 0; l < p.lanes; ++l) {
    active[l] = p.Active(r, l);
    lanes[l] = active[l] ? src.data[src.Offset(r, l)] : T(0);
  }
}

// Traps unless dst holds `reach` elements (dst of a reduction needs element alignment only).
template <typename T>
inline void CheckReduceDst(const char* api, const LocalTensor<T>& dst, uint64_t reach) {
  if (dst.TwinData() == nullptr) RaiseTrap("%s: dst is an unallocated LocalTensor", api);
  if (reach > dst.GetSize()) {
    RaiseTrap("%s: dst needs %llu elements, beyond its LocalTensor of %u elements", api,
              static_cast<unsigned long long>(reach), dst.GetSize());
  }
}

inline void CheckStride(const char* api, const char* what, int32_t v) {
  if (v < 0 || v > 65535) RaiseTrap("%s: %s %d is outside [0, 65535]", api, what, v);
}

template <typename T, bool kMax>
inline bool Better(T a, T b) {
  return kMax ? (a > b) : (a < b);
}

// Extreme of the active lanes: (value, lane). Returns lanes when no lane is active.
template <typename T, bool kMax>
inline uint32_t ExtremeLane(const T* lanes, const bool* active, uint32_t n, uint32_t begin = 0) {
  uint32_t best = n;
  for (uint32_t l = begin; l < n; ++l) {
    if (!active[l]) continue;
    if (best == n || Better<T, kMax>(lanes[l], lanes[best])) best = l;
  }
  return best;
}

enum class ReduceKind { kSum, kMax, kMin };

// The plan of a level-0 reduction (repeatTime and dstRepStride checked).
template <typename T, bool isSetMask, typename M>
inline Plan ReducePlan(const char* api, M mask, int32_t repeatTime, int32_t dstRepStride) {
  CheckRepeat(api, repeatTime);
  CheckStride(api, "dstRepStride", dstRepStride);
  return MakePlan<T, isSetMask>(api, mask, repeatTime);
}

template <typename T, bool isSetMask, typename M>
inline void WholeReduceSumImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, M mask,
                               int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
  static_assert(kReduceType<T>, "WholeReduceSum supports half, float");
  const Plan p = ReducePlan<T, isSetMask>(api, mask, repeatTime, dstRepStride);
  const Operand<T> s =
      MakeOperand(api, "src", src, static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride));
  CheckReach(api, p, s);
  if (p.repeats == 0) return;
  CheckReduceDst(api, dst, uint64_t{p.repeats - 1} * static_cast<uint32_t>(dstRepStride) + 1);
  T lanes[128];
  bool active[128];
  std::vector<T> out(p.repeats);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    GatherRepeat(p, s, r, lanes, active);
    out[r] = TreeSum(lanes, p.lanes);
  }
  for (uint32_t r = 0; r < p.repeats; ++r) dst.TwinData()[uint64_t{r} * static_cast<uint32_t>(dstRepStride)] = out[r];
  Block().vec.accValueBits = RawBits(out[p.repeats - 1]);
}

template <typename T, bool kMax, bool isSetMask, typename M>
inline void WholeReduceExtremeImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, M mask,
                                   int32_t repeatTime, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                                   ReduceOrder order) {
  static_assert(kReduceType<T>, "WholeReduceMax/WholeReduceMin support half, float");
  if (static_cast<uint8_t>(order) > 3)
    RaiseTrap("%s: ReduceOrder %u is not a ReduceOrder", api, static_cast<unsigned>(order));
  const Plan p = ReducePlan<T, isSetMask>(api, mask, repeatTime, dstRepStride);
  const Operand<T> s =
      MakeOperand(api, "src", src, static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride));
  CheckReach(api, p, s);
  if (p.repeats == 0) return;
  const bool pair = order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE;
  const uint32_t unit = pair ? 2 : 1;
  CheckReduceDst(api, dst, uint64_t{p.repeats - 1} * static_cast<uint32_t>(dstRepStride) * unit + unit);
  T lanes[128];
  bool active[128];
  std::vector<T> vals(p.repeats);
  std::vector<uint32_t> idx(p.repeats);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    GatherRepeat(p, s, r, lanes, active);
    const uint32_t best = ExtremeLane<T, kMax>(lanes, active, p.lanes);
    vals[r] = lanes[best];
    idx[r] = best;
  }
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < p.repeats; ++r) {
    T* o = d + uint64_t{r} * static_cast<uint32_t>(dstRepStride) * unit;
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX:
        o[0] = vals[r];
        o[1] = IndexAsT<T>(idx[r]);
        break;
      case ReduceOrder::ORDER_INDEX_VALUE:
        o[0] = IndexAsT<T>(idx[r]);
        o[1] = vals[r];
        break;
      case ReduceOrder::ORDER_ONLY_VALUE:
        o[0] = vals[r];
        break;
      default:
        o[0] = IndexAsT<T>(idx[r]);
        break;
    }
  }
  Block().vec.reduceValueBits = RawBits(vals[p.repeats - 1]);
  Block().vec.reduceIndex = idx[p.repeats - 1];
}

// BlockReduce*: one result per 32-byte block, 8 per repeat; PairReduceSum: one per lane pair.
template <typename T, ReduceKind kKind, bool kPair, bool isSetMask, typename M>
inline void GroupReduceImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime,
                            M mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride) {
  static_assert(kReduceType<T>, "BlockReduce*/PairReduceSum support half, float");
  const Plan p = ReducePlan<T, isSetMask>(api, mask, repeatTime, dstRepStride);
  const Operand<T> s =
      MakeOperand(api, "src", src, static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride));
  CheckReach(api, p, s);
  if (p.repeats == 0) return;
  const uint32_t group = kPair ? 2 : kBlkElems<T>;
  const uint32_t outs = p.lanes / group;  // results per repeat
  CheckReduceDst(api, dst, uint64_t{p.repeats - 1} * static_cast<uint32_t>(dstRepStride) * outs + outs);
  T lanes[128];
  bool active[128];
  std::vector<T> out(uint64_t{p.repeats} * outs);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    GatherRepeat(p, s, r, lanes, active);
    for (uint32_t g = 0; g < outs; ++g) {
      T* v = lanes + g * group;
      const bool* a = active + g * group;
      T res(0);
      if (kKind == ReduceKind::kSum) {
        res = TreeSum(v, group);
      } else {
        const uint32_t best = ExtremeLane<T, kKind == ReduceKind::kMax>(v, a, group);
        if (best < group) res = v[best];
      }
      out[uint64_t{r} * outs + g] = res;
    }
  }
  T* d = dst.TwinData();
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t g = 0; g < outs; ++g)
      d[uint64_t{r} * static_cast<uint32_t>(dstRepStride) * outs + g] = out[uint64_t{r} * outs + g];
  }
}

// Repeat results of ReduceSum level-0: reduced by the tree, `lanes` at a time, until one is left.
template <typename T>
inline T TreeOfRepeats(std::vector<T> v, uint32_t lanes) {
  while (v.size() > 1) {
    std::vector<T> next;
    for (size_t i = 0; i < v.size(); i += lanes) {
      T chunk[128];
      for (uint32_t l = 0; l < lanes; ++l) chunk[l] = i + l < v.size() ? v[i + l] : T(0);
      next.push_back(TreeSum(chunk, lanes));
    }
    v.swap(next);
  }
  return v.empty() ? T(0) : v[0];
}

template <typename T>
inline void CheckTmp(const char* api, const LocalTensor<T>& tmp) {
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
}

// ReduceSum/Max/Min over the active lanes of all repeats. kSequential: the count form's order
// (repeat results added in order); otherwise the level-0 order (tree of repeat results).
template <typename T, ReduceKind kKind>
inline void ReduceAllImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          const LocalTensor<T>& tmp, const Plan& p, const Operand<T>& s, bool sequential,
                          bool calIndex) {
  static_assert(kReduceType<T>, "ReduceSum/ReduceMax/ReduceMin support half, float");
  (void)src;  // read through s (its plan and strides)
  CheckTmp(api, tmp);
  CheckReach(api, p, s);
  if (p.repeats == 0) return;
  const bool withIndex = kKind != ReduceKind::kSum && calIndex;
  CheckReduceDst(api, dst, withIndex ? 2 : 1);
  T lanes[128];
  bool active[128];
  if (kKind == ReduceKind::kSum) {
    std::vector<T> rs(p.repeats);
    for (uint32_t r = 0; r < p.repeats; ++r) {
      GatherRepeat(p, s, r, lanes, active);
      rs[r] = TreeSum(lanes, p.lanes);
    }
    T acc = rs[0];
    if (sequential) {
      for (uint32_t r = 1; r < p.repeats; ++r) acc = ReduceAdd(acc, rs[r]);
    } else {
      acc = TreeOfRepeats(rs, p.lanes);
    }
    dst.TwinData()[0] = acc;
    Block().vec.accValueBits = RawBits(acc);
    return;
  }
  constexpr bool kMax = kKind == ReduceKind::kMax;
  T best(0);
  uint64_t bestIdx = 0;
  bool any = false;
  for (uint32_t r = 0; r < p.repeats; ++r) {
    GatherRepeat(p, s, r, lanes, active);
    const uint32_t l = ExtremeLane<T, kMax>(lanes, active, p.lanes);
    if (l == p.lanes) continue;
    if (!any || Better<T, kMax>(lanes[l], best)) {
      best = lanes[l];
      bestIdx = uint64_t{r} * p.lanes + l;
      any = true;
    }
  }
  dst.TwinData()[0] = best;
  if (withIndex) dst.TwinData()[1] = IndexAsT<T>(bestIdx);
  Block().vec.reduceValueBits = RawBits(best);
  Block().vec.reduceIndex = bestIdx;
}

template <typename T, ReduceKind kKind>
inline void ReduceCountForm(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            const LocalTensor<T>& tmp, int32_t count, bool calIndex) {
  if (!CheckCount(api, count)) return;
  LevelTwoDone();
  CheckUbOperand(api, "src", src, static_cast<uint32_t>(count));
  const Plan p = CountPlan<T>(static_cast<uint32_t>(count));
  const Operand<T> s = MakeOperand(api, "src", src, 1, 8);
  ReduceAllImpl<T, kKind>(api, dst, src, tmp, p, s, true, calIndex);
}

template <typename T, ReduceKind kKind, typename M>
inline void ReduceLevel0Form(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                             const LocalTensor<T>& tmp, M mask, int32_t repeatTime, int32_t srcRepStride,
                             bool calIndex) {
  CheckRepeat(api, repeatTime);
  const Plan p = MakePlan<T, true>(api, mask, repeatTime);
  const Operand<T> s = MakeOperand(api, "src", src, 1, static_cast<uint32_t>(srcRepStride));
  ReduceAllImpl<T, kKind>(api, dst, src, tmp, p, s, false, calIndex);
}

}  // namespace twin

// ---- WholeReduce*, RepeatReduceSum ----
#define ASC_TWIN_WHOLE_REDUCE(MaskDecl)                                                                              \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskDecl,              \
                                        const int32_t repeatTime, const int32_t dstRepStride,                        \
                                        const int32_t srcBlkStride, const int32_t srcRepStride) {                    \
    twin::WholeReduceSumImpl<T, isSetMask>("WholeReduceSum", dst, src, mask, repeatTime, dstRepStride, srcBlkStride, \
                                           srcRepStride);                                                            \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ inline void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskDecl,              \
                                        const int32_t repeatTime, const int32_t dstRepStride,                        \
                                        const int32_t srcBlkStride, const int32_t srcRepStride,                      \
                                        ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                        \
    twin::WholeReduceExtremeImpl<T, true, isSetMask>("WholeReduceMax", dst, src, mask, repeatTime, dstRepStride,     \
                                                     srcBlkStride, srcRepStride, order);                             \
  }                                                                                                                  \
  template <typename T, bool isSetMask = true>                                                                       \
  __aicore__ inline void WholeReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskDecl,              \
                                        const int32_t repeatTime, const int32_t dstRepStride,                        \
                                        const int32_t srcBlkStride, const int32_t srcRepStride,                      \
                                        ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                        \
    twin::WholeReduceExtremeImpl<T, false, isSetMask>("WholeReduceMin", dst, src, mask, repeatTime, dstRepStride,    \
                                                      srcBlkStride, srcRepStride, order);                            \
  }
ASC_TWIN_WHOLE_REDUCE(const uint64_t mask[])
ASC_TWIN_WHOLE_REDUCE(const int32_t mask)
#undef ASC_TWIN_WHOLE_REDUCE

// Continuous mask only; dstBlkStride has no effect (CANN: "invalid, any value").
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t mask, const int32_t dstBlkStride, const int32_t srcBlkStride,
                                       const int32_t dstRepStride, const int32_t srcRepStride) {
  (void)dstBlkStride;
  twin::WholeReduceSumImpl<T, isSetMask>("RepeatReduceSum", dst, src, static_cast<uint64_t>(mask), repeatTime,
                                         dstRepStride, srcBlkStride, srcRepStride);
}

// ---- BlockReduce*, PairReduceSum ----
#define ASC_TWIN_GROUP_REDUCE(Name, Kind, Pair, MaskDecl)                                                              \
  template <typename T, bool isSetMask = true>                                                                         \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,          \
                              MaskDecl, const int32_t dstRepStride, const int32_t srcBlkStride,                        \
                              const int32_t srcRepStride) {                                                            \
    twin::GroupReduceImpl<T, twin::ReduceKind::Kind, Pair, isSetMask>(#Name, dst, src, repeatTime, mask, dstRepStride, \
                                                                      srcBlkStride, srcRepStride);                     \
  }
#define ASC_TWIN_GROUP_REDUCE_BOTH(Name, Kind, Pair)             \
  ASC_TWIN_GROUP_REDUCE(Name, Kind, Pair, const uint64_t mask[]) \
  ASC_TWIN_GROUP_REDUCE(Name, Kind, Pair, const int32_t mask)
ASC_TWIN_GROUP_REDUCE_BOTH(BlockReduceSum, kSum, false)
ASC_TWIN_GROUP_REDUCE_BOTH(BlockReduceMax, kMax, false)
ASC_TWIN_GROUP_REDUCE_BOTH(BlockReduceMin, kMin, false)
ASC_TWIN_GROUP_REDUCE_BOTH(PairReduceSum, kSum, true)
#undef ASC_TWIN_GROUP_REDUCE_BOTH
#undef ASC_TWIN_GROUP_REDUCE

// ---- ReduceRepeat / ReduceDataBlock / ReducePairElem: one name, the operation a template
// argument (CANN's newer spelling of WholeReduce*, BlockReduce*, PairReduceSum). ----
enum class ReduceType {
  NONE = -1,
  SUM = 0,
  MAX,
  MIN,
};

#define ASC_TWIN_REDUCE_BY_TYPE(MaskDecl)                                                                            \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                    \
  __aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskDecl,                \
                                      const int32_t repeatTime, const int32_t dstRepStride,                          \
                                      const int32_t srcBlkStride, const int32_t srcRepStride,                        \
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                          \
    static_assert(std::is_same<T, U>::value, "ReduceRepeat: dst and src have the same type on this NpuArch");        \
    static_assert(reduceType != ReduceType::NONE, "ReduceRepeat: reduceType is SUM, MAX or MIN");                    \
    if constexpr (reduceType == ReduceType::SUM) {                                                                   \
      twin::WholeReduceSumImpl<T, isSetMask>("ReduceRepeat", dst, src, mask, repeatTime, dstRepStride, srcBlkStride, \
                                             srcRepStride);                                                          \
    } else {                                                                                                         \
      twin::WholeReduceExtremeImpl<T, reduceType == ReduceType::MAX, isSetMask>(                                     \
          "ReduceRepeat", dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);              \
    }                                                                                                                \
  }                                                                                                                  \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                    \
  __aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskDecl,             \
                                         const int32_t repeatTime, const int32_t dstRepStride,                       \
                                         const int32_t srcBlkStride, const int32_t srcRepStride) {                   \
    static_assert(std::is_same<T, U>::value, "ReduceDataBlock: dst and src have the same type on this NpuArch");     \
    static_assert(reduceType != ReduceType::NONE, "ReduceDataBlock: reduceType is SUM, MAX or MIN");                 \
    constexpr twin::ReduceKind kind = reduceType == ReduceType::SUM   ? twin::ReduceKind::kSum                       \
                                      : reduceType == ReduceType::MAX ? twin::ReduceKind::kMax                       \
                                                                      : twin::ReduceKind::kMin;                      \
    twin::GroupReduceImpl<T, kind, false, isSetMask>("ReduceDataBlock", dst, src, repeatTime, mask, dstRepStride,    \
                                                     srcBlkStride, srcRepStride);                                    \
  }                                                                                                                  \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                    \
  __aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskDecl,              \
                                        const int32_t repeatTime, const int32_t dstRepStride,                        \
                                        const int32_t srcBlkStride, const int32_t srcRepStride) {                    \
    static_assert(std::is_same<T, U>::value, "ReducePairElem: dst and src have the same type on this NpuArch");      \
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");                    \
    twin::GroupReduceImpl<T, twin::ReduceKind::kSum, true, isSetMask>("ReducePairElem", dst, src, repeatTime, mask,  \
                                                                      dstRepStride, srcBlkStride, srcRepStride);     \
  }
ASC_TWIN_REDUCE_BY_TYPE(const uint64_t mask[])
ASC_TWIN_REDUCE_BY_TYPE(const int32_t mask)
#undef ASC_TWIN_REDUCE_BY_TYPE

// ---- ReduceSum / ReduceMax / ReduceMin ----
#define ASC_TWIN_REDUCE_EXTREME(Name, Kind)                                                                    \
  template <typename T>                                                                                        \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                            \
                              const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0) { \
    twin::ReduceCountForm<T, twin::ReduceKind::Kind>(#Name, dst, src, sharedTmpBuffer, count, calIndex);       \
  }                                                                                                            \
  ASC_TWIN_REDUCE_EXTREME_L0(Name, Kind, const uint64_t mask[])                                                \
  ASC_TWIN_REDUCE_EXTREME_L0(Name, Kind, const int32_t mask)
#define ASC_TWIN_REDUCE_EXTREME_L0(Name, Kind, MaskDecl)                                                  \
  template <typename T>                                                                                   \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                              const LocalTensor<T>& sharedTmpBuffer, MaskDecl, const int32_t repeatTime,  \
                              const int32_t srcRepStride, bool calIndex = 0) {                            \
    twin::ReduceLevel0Form<T, twin::ReduceKind::Kind>(#Name, dst, src, sharedTmpBuffer, mask, repeatTime, \
                                                      srcRepStride, calIndex);                            \
  }
ASC_TWIN_REDUCE_EXTREME(ReduceMax, kMax)
ASC_TWIN_REDUCE_EXTREME(ReduceMin, kMin)
#undef ASC_TWIN_REDUCE_EXTREME

template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count) {
  twin::ReduceCountForm<T, twin::ReduceKind::kSum>("ReduceSum", dst, src, sharedTmpBuffer, count, false);
}
#define ASC_TWIN_REDUCE_SUM_L0(MaskDecl)                                                                        \
  template <typename T>                                                                                         \
  __aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,                        \
                                   const LocalTensor<T>& sharedTmpBuffer, MaskDecl, const int32_t repeatTime,   \
                                   const int32_t srcRepStride) {                                                \
    twin::ReduceLevel0Form<T, twin::ReduceKind::kSum>("ReduceSum", dst, src, sharedTmpBuffer, mask, repeatTime, \
                                                      srcRepStride, false);                                     \
  }
ASC_TWIN_REDUCE_SUM_L0(const uint64_t mask[])
ASC_TWIN_REDUCE_SUM_L0(const int32_t mask)
#undef ASC_TWIN_REDUCE_SUM_L0
#undef ASC_TWIN_REDUCE_EXTREME_L0

// ---- special registers ----
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  maxMinValue = twin::FromRawBits<T>(twin::Block().vec.reduceValueBits);
  maxMinIndex = twin::IndexAsT<T>(twin::Block().vec.reduceIndex);
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue) {
  maxMinValue = twin::FromRawBits<T>(twin::Block().vec.reduceValueBits);
}
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr() {
  return twin::FromRawBits<T>(twin::Block().vec.accValueBits);
}
// Older names of the same registers.
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
  GetReduceRepeatMaxMinSpr(maxMinValue, maxMinIndex);
}
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue) {
  GetReduceRepeatMaxMinSpr(maxMinValue);
}
template <typename T>
__aicore__ inline T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_REDUCE_INTF_H_
