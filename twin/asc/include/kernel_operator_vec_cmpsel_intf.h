// Compare / Compares (bit-mask output, LSB first: bit i of byte i / 8 is element i),
// GetCmpMask / SetCmpMask (the 128-bit CMPMASK register), Select (all SELMODEs) and
// GatherMask (pattern tensor or built-in patterns 1..7).
//
// Twin choices where CANN's docs are silent: in level-0 Compare the bits of repeat r are
// written at bit r * elementsPerRepeat + lane, inactive lanes as 0 (dst strides have no
// effect); int32_t operands are accepted for Compare/Compares besides half/float.
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_CMPSEL_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_CMPSEL_INTF_H_

#include <cstring>
#include <vector>

#include "asc_twin/elementwise.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT = 1, EQ = 2, LE = 3, GE = 4, NE = 5 };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE = 1, VSEL_TENSOR_TENSOR_MODE = 2 };
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

namespace twin {

template <typename T>
constexpr bool kCmpType = kIsOneOf<T, half, float, int32_t>;
template <typename T>
constexpr bool kSelType = kIsOneOf<T, half, float>;

template <typename T>
inline bool CompareLane(T a, T b, CMPMODE m) {
  const Wide<T> x = static_cast<Wide<T>>(a), y = static_cast<Wide<T>>(b);
  switch (m) {
    case CMPMODE::LT: return x < y;
    case CMPMODE::GT: return x > y;
    case CMPMODE::EQ: return x == y;
    case CMPMODE::LE: return x <= y;
    case CMPMODE::GE: return x >= y;
    default: return x != y;
  }
}

inline void CheckCmpMode(const char* api, CMPMODE m) {
  if (static_cast<uint8_t>(m) > 5) RaiseTrap("%s: cmpMode %u is not a CMPMODE", api, static_cast<unsigned>(m));
}

template <typename U>
inline bool BitAt(const U* base, uint64_t i) {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(base);
  return (b[i / 8] >> (i % 8)) & 1u;
}
template <typename U>
inline void SetBit(U* base, uint64_t i, bool v) {
  uint8_t* b = reinterpret_cast<uint8_t*>(base);
  b[i / 8] = static_cast<uint8_t>(v ? (b[i / 8] | (1u << (i % 8))) : (b[i / 8] & ~(1u << (i % 8))));
}

// Count forms of Compare/Compares: count * sizeof(T) must be a whole number of 256-B repeats.
template <typename T, typename U, typename Rhs>
inline void CompareCount(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& src0, Rhs rhs,
                         CMPMODE cmpMode, uint32_t count) {
  static_assert(kCmpType<T>, "Compare/Compares support half, float, int32_t");
  CheckCmpMode(api, cmpMode);
  if (count == 0) return;
  LevelTwoDone();
  if (uint64_t{count} * sizeof(T) % 256 != 0) {
    RaiseTrap("%s: count %u (%llu bytes) is not a multiple of 256 bytes", api, count,
              static_cast<unsigned long long>(uint64_t{count} * sizeof(T)));
  }
  CheckUbOperand(api, "src0", src0, count);
  CheckUbOperand(api, "dst", dst, (uint64_t{count} / 8 + sizeof(U) - 1) / sizeof(U));
  const T* a = src0.TwinData();
  uint8_t* d = reinterpret_cast<uint8_t*>(dst.TwinData());
  for (uint32_t i = 0; i < count; i += 8) {
    uint8_t byte = 0;
    for (uint32_t k = 0; k < 8; ++k) byte |= static_cast<uint8_t>(CompareLane(a[i + k], rhs(i + k), cmpMode) << k);
    d[i / 8] = byte;
  }
}

template <typename T, typename U, bool isSetMask, typename M, typename Rhs>
inline void CompareLevel0(const char* api, const LocalTensor<U>& dst, const Operand<T>& s0, Rhs rhs, CMPMODE cmpMode,
                          M mask, int64_t repeatTime) {
  static_assert(kCmpType<T>, "Compare/Compares support half, float, int32_t");
  CheckCmpMode(api, cmpMode);
  const Plan p = MakePlan<T, isSetMask>(api, mask, repeatTime);
  CheckReach(api, p, s0);
  const uint64_t bits = uint64_t{p.repeats} * p.lanes;
  CheckUbOperand(api, "dst", dst, (bits / 8 + sizeof(U) - 1) / sizeof(U));
  std::vector<uint8_t> out((bits + 7) / 8, 0);
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t l = 0; l < p.lanes; ++l) {
      if (p.Active(r, l)) SetBit(out.data(), uint64_t{r} * p.lanes + l, CompareLane(s0.data[s0.Offset(r, l)], rhs(r, l), cmpMode));
    }
  }
  std::memcpy(dst.TwinData(), out.data(), out.size());
}

template <typename T, typename U>
inline void CheckSelTypes() {
  static_assert(kSelType<T>, "Select supports half, float");
  static_assert(kIsOneOf<U, uint8_t, uint16_t, uint32_t, uint64_t>, "Select: selMask is uint8_t/uint16_t/uint32_t/uint64_t");
}

// dst[i] = bit(i) ? src0[i] : src1(i); mode 0 takes bit i % lanes from CMPMASK.
template <typename T, typename U, typename Rhs>
inline void SelectCount(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                        const LocalTensor<T>& src0, Rhs rhs, SELMODE selMode, uint32_t count) {
  if (count == 0) return;
  LevelTwoDone();
  if (static_cast<uint8_t>(selMode) > 2) RaiseTrap("%s: selMode %u is not a SELMODE", api, static_cast<unsigned>(selMode));
  CheckUbOperand(api, "dst", dst, count);
  CheckUbOperand(api, "src0", src0, count);
  const bool fromSpr = selMode == SELMODE::VSEL_CMPMASK_SPR;
  if (!fromSpr) CheckUbOperand(api, "selMask", selMask, (uint64_t{count} / 8 + sizeof(U) - 1) / sizeof(U));
  const uint64_t* spr = Block().vec.cmpMask;
  const uint32_t lanes = kRepElems<T>;
  T* d = dst.TwinData();
  const T* a = src0.TwinData();
  const U* m = selMask.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const bool bit = fromSpr ? BitAt(spr, i % lanes) : BitAt(m, i);
    d[i] = bit ? a[i] : rhs(i);
  }
}

// Built-in GatherMask patterns 1..7 (bit of lane l).
inline bool BuiltinPattern(uint8_t pattern, uint32_t l) {
  switch (pattern) {
    case 1: return l % 2 == 0;
    case 2: return l % 2 == 1;
    case 3: return l % 4 == 0;
    case 4: return l % 4 == 1;
    case 5: return l % 4 == 2;
    case 6: return l % 4 == 3;
    default: return true;
  }
}

// GatherMask: selected elements of src0 packed into dst; rsvdCnt = how many.
template <typename T, typename Bit>
inline void GatherMaskImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src0, bool reduceMode, uint32_t mask,
                           const GatherMaskParams& p, uint64_t& rsvdCnt, Bit bit) {
  constexpr const char* api = "GatherMask";
  static_assert(kIsOneOf<T, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float>,
                "GatherMask supports 16- and 32-bit types");
  const uint32_t lanes = kRepElems<T>;
  Plan plan;
  plan.lanes = lanes;
  if (reduceMode) {
    plan.counter = true;
    plan.count = mask;
    plan.repeats = (mask + lanes - 1) / lanes;
  } else {
    if (p.repeatTimes > MAX_REPEAT_TIMES) RaiseTrap("%s: repeatTimes %u is outside [0, 255]", api, p.repeatTimes);
    plan.repeats = p.repeatTimes;
    plan.bits[0] = ~0ull;
    plan.bits[1] = lanes > 64 ? ~0ull : 0;
    if (lanes < 64) plan.bits[0] = (1ull << lanes) - 1;
  }
  const Operand<T> s = MakeOperand(api, "src0", src0, p.src0BlockStride, p.src0RepeatStride);
  CheckReach(api, plan, s);
  CheckUbOperand(api, "dst", dst, 0);
  std::vector<T> out;
  for (uint32_t r = 0; r < plan.repeats; ++r) {
    for (uint32_t l = 0; l < lanes; ++l) {
      if (plan.Active(r, l) && bit(r, l)) out.push_back(s.data[s.Offset(r, l)]);
    }
  }
  if (out.size() > dst.GetSize()) {
    RaiseTrap("%s: %zu selected elements exceed dst (a LocalTensor of %u elements)", api, out.size(), dst.GetSize());
  }
  std::memcpy(dst.TwinData(), out.data(), out.size() * sizeof(T));
  rsvdCnt = out.size();
}

}  // namespace twin

// ---- Compare ----
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count) {
  if (count != 0) twin::CheckUbOperand("Compare", "src1", src1, count);
  const T* b = src1.TwinData();
  twin::CompareCount("Compare", dst, src0, [b](uint32_t i) { return b[i]; }, cmpMode, count);
}

#define ASC_TWIN_COMPARE_L0(MaskDecl)                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                                        \
  __aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                 CMPMODE cmpMode, MaskDecl, uint8_t repeatTime,                                   \
                                 const BinaryRepeatParams& repeatParams) {                                        \
    const twin::Operand<T> s0 = twin::MakeOperand("Compare", "src0", src0, repeatParams.src0BlkStride,            \
                                                  repeatParams.src0RepStride);                                    \
    const twin::Operand<T> s1 = twin::MakeOperand("Compare", "src1", src1, repeatParams.src1BlkStride,            \
                                                  repeatParams.src1RepStride);                                    \
    const twin::Plan p = twin::MakePlan<T, isSetMask>("Compare", mask, repeatTime);                               \
    twin::CheckReach("Compare", p, s1);                                                                           \
    twin::CompareLevel0<T, U, false>("Compare", dst, s0, [s1](uint32_t r, uint32_t l) { return s1.data[s1.Offset(r, l)]; }, \
                                     cmpMode, MASK_PLACEHOLDER, repeatTime);                                      \
  }                                                                                                               \
  /* One repeat into the CMPMASK register (no dst). */                                                            \
  template <typename T, bool isSetMask = true>                                                                    \
  __aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, MaskDecl, \
                                 const BinaryRepeatParams& repeatParams) {                                        \
    static_assert(twin::kCmpType<T>, "Compare supports half, float, int32_t");                                    \
    twin::CheckCmpMode("Compare", cmpMode);                                                                       \
    const twin::Operand<T> s0 = twin::MakeOperand("Compare", "src0", src0, repeatParams.src0BlkStride, 0);        \
    const twin::Operand<T> s1 = twin::MakeOperand("Compare", "src1", src1, repeatParams.src1BlkStride, 0);        \
    const twin::Plan p = twin::MakePlan<T, isSetMask>("Compare", mask, 1);                                        \
    twin::CheckReach("Compare", p, s0);                                                                           \
    twin::CheckReach("Compare", p, s1);                                                                           \
    uint64_t* spr = twin::Block().vec.cmpMask;                                                                    \
    spr[0] = spr[1] = 0;                                                                                          \
    for (uint32_t l = 0; l < p.lanes; ++l) {                                                                      \
      if (p.Active(0, l)) twin::SetBit(spr, l, twin::CompareLane(s0.data[s0.Offset(0, l)], s1.data[s1.Offset(0, l)], cmpMode)); \
    }                                                                                                             \
  }
ASC_TWIN_COMPARE_L0(const uint64_t mask[])
ASC_TWIN_COMPARE_L0(const uint64_t mask)
#undef ASC_TWIN_COMPARE_L0

// ---- Compares (scalar right-hand side) ----
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const typename twin::NonDeduced<T>::type src1, CMPMODE cmpMode, uint32_t count) {
  const T b = src1;
  twin::CompareCount("Compares", dst, src0, [b](uint32_t) { return b; }, cmpMode, count);
}
#define ASC_TWIN_COMPARES_L0(MaskDecl)                                                                            \
  template <typename T, typename U, bool isSetMask = true>                                                        \
  __aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                          \
                                  const typename twin::NonDeduced<T>::type src1, CMPMODE cmpMode, MaskDecl,       \
                                  uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                    \
    const twin::Operand<T> s0 = twin::MakeOperand("Compares", "src0", src0, repeatParams.srcBlkStride,            \
                                                  repeatParams.srcRepStride);                                     \
    const T b = src1;                                                                                             \
    twin::CompareLevel0<T, U, isSetMask>("Compares", dst, s0, [b](uint32_t, uint32_t) { return b; }, cmpMode,      \
                                         mask, repeatTime);                                                       \
  }
ASC_TWIN_COMPARES_L0(const uint64_t mask[])
ASC_TWIN_COMPARES_L0(const uint64_t mask)
#undef ASC_TWIN_COMPARES_L0

// ---- CMPMASK register ----
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst) {
  twin::CheckUbOperand("GetCmpMask", "dst", dst, (16 + sizeof(T) - 1) / sizeof(T));
  std::memcpy(dst.TwinData(), twin::Block().vec.cmpMask, 16);
}
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src) {
  twin::CheckUbOperand("SetCmpMask", "src", src, (16 + sizeof(T) - 1) / sizeof(T));
  std::memcpy(twin::Block().vec.cmpMask, src.TwinData(), 16);
}

// ---- Select ----
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  twin::CheckSelTypes<T, U>();
  if (count != 0) twin::CheckUbOperand("Select", "src1", src1, count);
  if (selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    twin::RaiseTrap("Select: SELMODE VSEL_TENSOR_SCALAR_MODE needs a scalar src1, got a tensor");
  }
  const T* b = src1.TwinData();
  twin::SelectCount("Select", dst, selMask, src0, [b](uint32_t i) { return b[i]; }, selMode, count);
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              typename twin::NonDeduced<T>::type src1, SELMODE selMode, uint32_t count) {
  twin::CheckSelTypes<T, U>();
  if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    twin::RaiseTrap("Select: SELMODE VSEL_TENSOR_TENSOR_MODE needs a tensor src1, got a scalar");
  }
  const T b = src1;
  twin::SelectCount("Select", dst, selMask, src0, [b](uint32_t) { return b; }, selMode, count);
}

// Level-0 Select. Bits: VSEL_CMPMASK_SPR takes lane bit l from CMPMASK for every repeat;
// the tensor modes take bit r * lanes + l of selMask. VSEL_TENSOR_SCALAR_MODE uses src1's first
// element as the scalar. (Twin choices: CANN's docs do not spell out the per-repeat bit offset.)
#define ASC_TWIN_SELECT_L0(MaskDecl)                                                                          \
  template <typename T, typename U, bool isSetMask = true>                                                    \
  __aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,                     \
                                const LocalTensor<T>& src0, const LocalTensor<T>& src1, SELMODE selMode,      \
                                MaskDecl, uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {       \
    twin::CheckSelTypes<T, U>();                                                                              \
    constexpr const char* api = "Select";                                                                     \
    if (static_cast<uint8_t>(selMode) > 2) twin::RaiseTrap("Select: selMode %u is not a SELMODE", static_cast<unsigned>(selMode)); \
    const twin::Plan p = twin::MakePlan<T, isSetMask>(api, mask, repeatTime);                                 \
    const bool scalar = selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE;                                          \
    const twin::Operand<T> d = twin::MakeOperand(api, "dst", dst, repeatParams.dstBlkStride, repeatParams.dstRepStride); \
    const twin::Operand<T> s[2] = {                                                                           \
        twin::MakeOperand(api, "src0", src0, repeatParams.src0BlkStride, repeatParams.src0RepStride),         \
        twin::MakeOperand(api, "src1", src1, scalar ? 0 : repeatParams.src1BlkStride, scalar ? 0 : repeatParams.src1RepStride)}; \
    const bool fromSpr = selMode == SELMODE::VSEL_CMPMASK_SPR;                                                \
    if (!fromSpr) twin::CheckUbOperand(api, "selMask", selMask, (uint64_t{p.repeats} * p.lanes / 8 + sizeof(U) - 1) / sizeof(U)); \
    const uint64_t* spr = twin::Block().vec.cmpMask;                                                          \
    const U* bits = selMask.TwinData();                                                                       \
    const T scalarValue = src1.TwinData()[0];                                                                 \
    auto next = [=](const T* v, uint32_t r, uint32_t l) {                                                     \
      const bool bit = fromSpr ? twin::BitAt(spr, l) : twin::BitAt(bits, uint64_t{r} * p.lanes + l);        \
      return bit ? v[0] : (scalar ? scalarValue : v[1]);                                                      \
    };                                                                                                        \
    twin::Level0Map(api, p, d, s, next);                                                                      \
  }
ASC_TWIN_SELECT_L0(const uint64_t mask[])
ASC_TWIN_SELECT_L0(uint64_t mask)
#undef ASC_TWIN_SELECT_L0

// ---- GatherMask ----
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  static_assert(twin::kIsOneOf<U, uint16_t, uint32_t>, "GatherMask: the pattern tensor is uint16_t or uint32_t");
  twin::CheckUbOperand("GatherMask", "src1Pattern", src1Pattern, 0);
  const U* pat = src1Pattern.TwinData();
  const uint32_t lanes = twin::kRepElems<T>;
  const uint32_t patStride = gatherMaskParams.src1RepeatStride;
  const uint64_t patBytes = reduceMode ? (uint64_t{mask} + 7) / 8
                                       : (gatherMaskParams.repeatTimes == 0 ? 0
                                          : uint64_t{gatherMaskParams.repeatTimes - 1u} * patStride * 32 + lanes / 8);
  if (patBytes > uint64_t{src1Pattern.GetSize()} * sizeof(U)) {
    twin::RaiseTrap("GatherMask: the pattern needs %llu bytes, beyond src1Pattern (%u elements)",
                    static_cast<unsigned long long>(patBytes), src1Pattern.GetSize());
  }
  twin::GatherMaskImpl(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt, [&](uint32_t r, uint32_t l) {
    return reduceMode ? twin::BitAt(pat, uint64_t{r} * lanes + l) : twin::BitAt(pat, uint64_t{r} * patStride * 256 + l);
  });
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7) twin::RaiseTrap("GatherMask: built-in src1Pattern %u is outside [1, 7]", src1Pattern);
  twin::GatherMaskImpl(dst, src0, reduceMode, mask, gatherMaskParams, rsvdCnt,
                       [src1Pattern](uint32_t, uint32_t l) { return twin::BuiltinPattern(src1Pattern, l); });
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_CMPSEL_INTF_H_
