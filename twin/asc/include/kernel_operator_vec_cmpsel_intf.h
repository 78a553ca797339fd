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
    case CMPMODE::LT:
      return x < y;
    case CMPMODE::GT:
      return x > y;
    case CMPMODE::EQ:
      return x == y;
    case CMPMODE::LE:
      return x <= y;
    case CMPMODE::GE:
      return x >= y;
    default:
      return x != y;
  }
}

// The mode that gives b OP a from a OP' b (LT <-> GT, LE <-> GE; EQ, NE stay).
inline CMPMODE Mirror(CMPMODE m) {
  switch (m) {
    case CMPMODE::LT:
      return CMPMODE::GT;
    case CMPMODE::GT:
      return CMPMODE::LT;
    case CMPMODE::LE:
      return CMPMODE::GE;
    case CMPMODE::GE:
      return CMPMODE::LE;
    default:
      return m;
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
      if (p.Active(r, l))
        SetBit(out.data(), uint64_t{r} * p.lanes + l, CompareLane(s0.data[s0.Offset(r, l)], rhs(r, l), cmpMode));
    }
  }
  std::memcpy(dst.TwinData(), out.data(), out.size());
}

template <typename T, typename U>
inline void CheckSelTypes() {
  static_assert(kSelType<T>, "Select supports half, float");
  static_assert(kIsOneOf<U, uint8_t, uint16_t, uint32_t, uint64_t>,
                "Select: selMask is uint8_t/uint16_t/uint32_t/uint64_t");
}

// What CANN's Select writes into CMPMASK before its vsel: mode 0 the first 128 bits of selMask
// (vsel then reads lane bit l of CMPMASK in every repeat), mode 1 the scalar src1 repeated, mode 2
// selMask's UB address (vsel then reads selMask through it, consuming its bits continuously).
template <typename U>
inline void LoadCmpMaskFromSelMask(const char* api, const LocalTensor<U>& selMask) {
  CheckUbOperand(api, "selMask", selMask, (16 + sizeof(U) - 1) / sizeof(U));
  std::memcpy(Block().vec.cmpMask, selMask.TwinData(), 16);
}
template <typename T>
inline void LoadCmpMaskScalar(T scalar) {
  uint8_t image[16];
  for (size_t i = 0; i < sizeof(image); i += sizeof(T)) std::memcpy(image + i, &scalar, sizeof(T));
  std::memcpy(Block().vec.cmpMask, image, sizeof(image));
}
template <typename U>
inline void LoadCmpMaskAddress(const LocalTensor<U>& selMask) {
  const uint32_t at = static_cast<uint32_t>(selMask.Bytes() - Block().ub_base);
  uint32_t image[4] = {at, at, at, at};
  std::memcpy(Block().vec.cmpMask, image, sizeof(image));
}

// dst[i] = bit(i) ? src0[i] : src1(i). Mode 0: bit i % lanes of selMask (through CMPMASK, which
// keeps it); modes 1 and 2: bit i of selMask.
template <typename T, typename U, typename Rhs>
inline void SelectCount(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                        const LocalTensor<T>& src0, Rhs rhs, SELMODE selMode, uint32_t count) {
  if (count == 0) return;
  LevelTwoDone();
  if (static_cast<uint8_t>(selMode) > 2)
    RaiseTrap("%s: selMode %u is not a SELMODE", api, static_cast<unsigned>(selMode));
  CheckUbOperand(api, "dst", dst, count);
  CheckUbOperand(api, "src0", src0, count);
  const bool fromSpr = selMode == SELMODE::VSEL_CMPMASK_SPR;
  if (fromSpr) {
    LoadCmpMaskFromSelMask(api, selMask);
  } else {
    CheckUbOperand(api, "selMask", selMask, (uint64_t{count} / 8 + sizeof(U) - 1) / sizeof(U));
  }
  const uint64_t* spr = Block().vec.cmpMask;
  const uint32_t lanes = kRepElems<T>;
  T* d = dst.TwinData();
  const T* a = src0.TwinData();
  const U* m = selMask.TwinData();
  for (uint32_t i = 0; i < count; ++i) {
    const bool bit = fromSpr ? BitAt(spr, i % lanes) : BitAt(m, i);
    d[i] = bit ? a[i] : rhs(i);
  }
  if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) LoadCmpMaskAddress(selMask);
}

// Level-0 Select over `bits(r, l)` (the selection bit of lane l in repeat r): dst = bit ? src0 :
// (scalar mode ? scalar : src1), active lanes only.
template <typename T, typename Bits>
inline void SelectLevel0(const char* api, const Plan& p, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                         const LocalTensor<T>* src1, T scalar, const BinaryRepeatParams& rp, Bits bits) {
  const Operand<T> d = MakeOperand(api, "dst", dst, rp.dstBlkStride, rp.dstRepStride);
  const LocalTensor<T>& second = src1 != nullptr ? *src1 : src0;
  const Operand<T> s[2] = {MakeOperand(api, "src0", src0, rp.src0BlkStride, rp.src0RepStride),
                           MakeOperand(api, "src1", second, src1 != nullptr ? rp.src1BlkStride : rp.src0BlkStride,
                                       src1 != nullptr ? rp.src1RepStride : rp.src0RepStride)};
  const bool useScalar = src1 == nullptr;
  auto next = [=](const T* v, uint32_t r, uint32_t l) { return bits(r, l) ? v[0] : (useScalar ? scalar : v[1]); };
  Level0Map(api, p, d, s, next);
}

// Built-in GatherMask patterns 1..7 (bit of lane l).
inline bool BuiltinPattern(uint8_t pattern, uint32_t l) {
  switch (pattern) {
    case 1:
      return l % 2 == 0;
    case 2:
      return l % 2 == 1;
    case 3:
      return l % 4 == 0;
    case 4:
      return l % 4 == 1;
    case 5:
      return l % 4 == 2;
    case 6:
      return l % 4 == 3;
    default:
      return true;
  }
}

// Which elements of src0 a GatherMask reads. Normal mode (reduceMode false): repeatTimes repeats
// of all lanes, mask unused. Counter mode (reduceMode true): on A2/A3 and later (CANN's
// "configuration 1") every one of the repeatTimes repeats takes `mask` elements, element k of
// repeat r at the k-th lane position from the repeat's start (blocks beyond the 256 bytes continue
// with the block stride); on NpuArch 2002 ("configuration 2") `mask` is the total, in repeats of
// all lanes, and repeatTimes is ignored. The pattern of repeat r starts src1RepeatStride x r
// 32-byte blocks in (consumed continuously over the mask elements); in configuration 2 the
// pattern is read continuously across repeats.
struct GatherShape {
  uint32_t repeats = 0;
  uint64_t perRepeat = 0;   // elements a repeat takes (all lanes, or mask in configuration 1)
  uint64_t total = 0;       // configuration 2: elements in all
  bool totalCount = false;  // configuration 2
  uint32_t lanes = 0;
  uint32_t patStride = 0;  // pattern repeat stride in 32-byte blocks

  uint64_t Elems(uint32_t r) const {
    if (!totalCount) return perRepeat;
    const uint64_t left = total - uint64_t{r} * lanes;
    return left < lanes ? left : lanes;
  }
  // Bit of the pattern that decides element k of repeat r.
  uint64_t PatternBit(uint32_t r, uint64_t k) const {
    return totalCount ? uint64_t{r} * lanes + k : uint64_t{r} * patStride * 256 + k;
  }
  // Pattern bytes the shape reads.
  uint64_t PatternBytes() const {
    if (repeats == 0) return 0;
    return (PatternBit(repeats - 1, Elems(repeats - 1) - 1)) / 8 + 1;
  }
};

template <typename T>
inline GatherShape MakeGatherShape(const char* api, bool reduceMode, uint32_t mask, const GatherMaskParams& p) {
  GatherShape g;
  g.lanes = kRepElems<T>;
  g.patStride = p.src1RepeatStride;
  if (reduceMode && mask == 0) RaiseTrap("%s: mask 0 is outside [1, 4294967295] (reduceMode = true)", api);
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2002
  if (reduceMode) {
    g.totalCount = true;
    g.total = mask;
    g.repeats = static_cast<uint32_t>((uint64_t{mask} + g.lanes - 1) / g.lanes);
    return g;
  }
#endif
  if (p.repeatTimes > MAX_REPEAT_TIMES) RaiseTrap("%s: repeatTimes %u is outside [0, 255]", api, p.repeatTimes);
  g.repeats = p.repeatTimes;
  g.perRepeat = reduceMode ? mask : g.lanes;
  return g;
}

// GatherMask: selected elements of src0 packed into dst; rsvdCnt = how many.
template <typename T, typename Bit>
inline void GatherMaskImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const GatherShape& g,
                           const GatherMaskParams& p, uint64_t& rsvdCnt, Bit bit) {
  constexpr const char* api = "GatherMask";
  static_assert(kIsOneOf<T, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float>,
                "GatherMask supports 16- and 32-bit types");
  const Operand<T> s = MakeOperand(api, "src0", src0, p.src0BlockStride, p.src0RepeatStride);
  for (uint32_t r = g.repeats >= 2 ? g.repeats - 2 : 0; r < g.repeats; ++r) {
    const uint64_t reach = s.Offset(r, static_cast<uint32_t>(g.Elems(r) - 1)) + 1;
    if (reach > s.size) {
      RaiseTrap("%s: src0 repeat %u reaches element %llu, beyond its LocalTensor of %u elements", api, r,
                static_cast<unsigned long long>(reach - 1), s.size);
    }
  }
  CheckUbOperand(api, "dst", dst, 0);
  std::vector<T> out;
  for (uint32_t r = 0; r < g.repeats; ++r) {
    const uint64_t n = g.Elems(r);
    for (uint64_t k = 0; k < n; ++k) {
      if (bit(r, k)) out.push_back(s.data[s.Offset(r, static_cast<uint32_t>(k))]);
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
  twin::CompareCount(
      "Compare", dst, src0, [b](uint32_t i) { return b[i]; }, cmpMode, count);
}

#define ASC_TWIN_COMPARE_L0(MaskDecl)                                                                               \
  template <typename T, typename U, bool isSetMask = true>                                                          \
  __aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                 CMPMODE cmpMode, MaskDecl, uint8_t repeatTime,                                     \
                                 const BinaryRepeatParams& repeatParams) {                                          \
    const twin::Operand<T> s0 =                                                                                     \
        twin::MakeOperand("Compare", "src0", src0, repeatParams.src0BlkStride, repeatParams.src0RepStride);         \
    const twin::Operand<T> s1 =                                                                                     \
        twin::MakeOperand("Compare", "src1", src1, repeatParams.src1BlkStride, repeatParams.src1RepStride);         \
    const twin::Plan p = twin::MakePlan<T, isSetMask>("Compare", mask, repeatTime);                                 \
    twin::CheckReach("Compare", p, s1);                                                                             \
    twin::CompareLevel0<T, U, false>(                                                                               \
        "Compare", dst, s0, [s1](uint32_t r, uint32_t l) { return s1.data[s1.Offset(r, l)]; }, cmpMode,             \
        MASK_PLACEHOLDER, repeatTime);                                                                              \
  }                                                                                                                 \
  /* One repeat into the CMPMASK register (no dst). */                                                              \
  template <typename T, bool isSetMask = true>                                                                      \
  __aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, MaskDecl, \
                                 const BinaryRepeatParams& repeatParams) {                                          \
    static_assert(twin::kCmpType<T>, "Compare supports half, float, int32_t");                                      \
    twin::CheckCmpMode("Compare", cmpMode);                                                                         \
    const twin::Operand<T> s0 = twin::MakeOperand("Compare", "src0", src0, repeatParams.src0BlkStride, 0);          \
    const twin::Operand<T> s1 = twin::MakeOperand("Compare", "src1", src1, repeatParams.src1BlkStride, 0);          \
    const twin::Plan p = twin::MakePlan<T, isSetMask>("Compare", mask, 1);                                          \
    twin::CheckReach("Compare", p, s0);                                                                             \
    twin::CheckReach("Compare", p, s1);                                                                             \
    uint64_t* spr = twin::Block().vec.cmpMask;                                                                      \
    spr[0] = spr[1] = 0;                                                                                            \
    for (uint32_t l = 0; l < p.lanes; ++l) {                                                                        \
      if (p.Active(0, l))                                                                                           \
        twin::SetBit(spr, l, twin::CompareLane(s0.data[s0.Offset(0, l)], s1.data[s1.Offset(0, l)], cmpMode));       \
    }                                                                                                               \
  }
ASC_TWIN_COMPARE_L0(const uint64_t mask[])
ASC_TWIN_COMPARE_L0(const uint64_t mask)
#undef ASC_TWIN_COMPARE_L0

// ---- Compares (scalar right-hand side) ----
template <typename T, typename U>
__aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                                const typename twin::NonDeduced<T>::type src1, CMPMODE cmpMode, uint32_t count) {
  const T b = src1;
  twin::CompareCount(
      "Compares", dst, src0, [b](uint32_t) { return b; }, cmpMode, count);
}
#define ASC_TWIN_COMPARES_L0(MaskDecl)                                                                      \
  template <typename T, typename U, bool isSetMask = true>                                                  \
  __aicore__ inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                    \
                                  const typename twin::NonDeduced<T>::type src1, CMPMODE cmpMode, MaskDecl, \
                                  uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {              \
    const twin::Operand<T> s0 =                                                                             \
        twin::MakeOperand("Compares", "src0", src0, repeatParams.srcBlkStride, repeatParams.srcRepStride);  \
    const T b = src1;                                                                                       \
    twin::CompareLevel0<T, U, isSetMask>(                                                                   \
        "Compares", dst, s0, [b](uint32_t, uint32_t) { return b; }, cmpMode, mask, repeatTime);             \
  }
ASC_TWIN_COMPARES_L0(const uint64_t mask[])
ASC_TWIN_COMPARES_L0(const uint64_t mask)
#undef ASC_TWIN_COMPARES_L0

// ---- Compares with a flexible scalar position (CANN documents it for Ascend 950; the twin
// offers it on every NpuArch). Either operand may be the scalar: a value of the tensor's type, or
// a LocalTensor whose first element is the scalar (config.scalarTensorIndex: 0 = src0, 1 = src1,
// when both are tensors). dst bits: compare(src0_i, src1_i) with the scalar standing for its side.
struct BinaryDefaultType {};
struct BinaryConfig {
  int8_t scalarTensorIndex = 1;  // which operand is the scalar when both are LocalTensors
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};

namespace twin {
template <typename X>
struct LocalTensorOf {
  static constexpr bool value = false;
};
template <typename E>
struct LocalTensorOf<LocalTensor<E>> {
  static constexpr bool value = true;
  using type = E;
};
// The fixed form (tensor, scalar value) stays the older overload: a LocalTensor src1 (a tensor
// point, or the vector with a scalar src0) makes the call flexible.
template <typename A, typename B>
constexpr bool kFlexibleCompares = LocalTensorOf<B>::value;

// The vector operand and the scalar of a flexible Compares; `scalarLeft`: the scalar is src0.
template <typename A, typename B, const BinaryConfig& config>
struct FlexOperands {
  static constexpr bool kBothTensors = LocalTensorOf<A>::value && LocalTensorOf<B>::value;
  static constexpr bool scalarLeft = kBothTensors ? config.scalarTensorIndex == 0 : !LocalTensorOf<A>::value;
  using Vec = typename LocalTensorOf<typename std::conditional<scalarLeft, B, A>::type>::type;
  static_assert(!kBothTensors || config.scalarTensorIndex == 0 || config.scalarTensorIndex == 1,
                "Compares: BinaryConfig::scalarTensorIndex must be 0 or 1");

  static const LocalTensor<Vec>& Vector(const A& a, const B& b) {
    if constexpr (scalarLeft)
      return b;
    else
      return a;
  }
  template <typename S>
  static Vec ScalarOf(const char* api, const S& s) {
    if constexpr (LocalTensorOf<S>::value) {
      CheckUbOperand(api, scalarLeft ? "src0" : "src1", s, 1);
      return s.TwinData()[0];
    } else {
      return static_cast<Vec>(s);
    }
  }
  static Vec Scalar(const char* api, const A& a, const B& b) {
    if constexpr (scalarLeft)
      return ScalarOf(api, a);
    else
      return ScalarOf(api, b);
  }
};
}  // namespace twin

template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,
          const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2, typename T3, typename T4,
          typename std::enable_if<twin::kFlexibleCompares<T3, T4>, int>::type = 0>
__aicore__ inline void Compares(const T2& dst, const T3& src0, const T4& src1, CMPMODE cmpMode, uint32_t count) {
  using F = twin::FlexOperands<T3, T4, config>;
  const auto& v = F::Vector(src0, src1);
  const typename F::Vec b = F::Scalar("Compares", src0, src1);
  // A scalar on the left compares b OP v_i: the same as v_i OP' b with the mode mirrored.
  twin::CompareCount(
      "Compares", dst, v, [b](uint32_t) { return b; }, F::scalarLeft ? twin::Mirror(cmpMode) : cmpMode, count);
}
#define ASC_TWIN_COMPARES_FLEX_L0(MaskDecl)                                                                            \
  template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,                   \
            const BinaryConfig& config = DEFAULT_BINARY_CONFIG, typename T2, typename T3, typename T4,                 \
            typename std::enable_if<twin::kFlexibleCompares<T3, T4>, int>::type = 0>                                   \
  __aicore__ inline void Compares(const T2& dst, const T3& src0, const T4& src1, CMPMODE cmpMode, MaskDecl,            \
                                  uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {                         \
    using F = twin::FlexOperands<T3, T4, config>;                                                                      \
    const auto& v = F::Vector(src0, src1);                                                                             \
    const typename F::Vec b = F::Scalar("Compares", src0, src1);                                                       \
    const twin::Operand<typename F::Vec> s0 = twin::MakeOperand("Compares", F::scalarLeft ? "src1" : "src0", v,        \
                                                                repeatParams.srcBlkStride, repeatParams.srcRepStride); \
    twin::CompareLevel0<typename F::Vec, typename T2::PrimType, isSetMask>(                                            \
        "Compares", dst, s0, [b](uint32_t, uint32_t) { return b; }, F::scalarLeft ? twin::Mirror(cmpMode) : cmpMode,   \
        mask, repeatTime);                                                                                             \
  }
ASC_TWIN_COMPARES_FLEX_L0(const uint64_t mask[])
ASC_TWIN_COMPARES_FLEX_L0(const uint64_t mask)
#undef ASC_TWIN_COMPARES_FLEX_L0

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
  twin::SelectCount(
      "Select", dst, selMask, src0, [b](uint32_t i) { return b[i]; }, selMode, count);
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              typename twin::NonDeduced<T>::type src1, SELMODE selMode, uint32_t count) {
  twin::CheckSelTypes<T, U>();
  if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    twin::RaiseTrap("Select: SELMODE VSEL_TENSOR_TENSOR_MODE needs a tensor src1, got a scalar");
  }
  const T b = src1;
  twin::SelectCount(
      "Select", dst, selMask, src0, [b](uint32_t) { return b; }, selMode, count);
  if (count != 0) twin::LoadCmpMaskScalar(b);
}

// Level-0 Select. Mode 0 loads CMPMASK from selMask and takes lane bit l of it in every repeat;
// modes 1 and 2 take bit r * lanes + l of selMask. With a tensor src1, VSEL_TENSOR_SCALAR_MODE
// uses src1's first element as the scalar (twin choice; CANN's scalar form takes a T).
#define ASC_TWIN_SELECT_L0(MaskDecl)                                                                                  \
  template <typename T, typename U, bool isSetMask = true>                                                            \
  __aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, \
                                const LocalTensor<T>& src1, SELMODE selMode, MaskDecl, uint8_t repeatTime,            \
                                const BinaryRepeatParams& repeatParams) {                                             \
    twin::CheckSelTypes<T, U>();                                                                                      \
    constexpr const char* api = "Select";                                                                             \
    if (static_cast<uint8_t>(selMode) > 2)                                                                            \
      twin::RaiseTrap("Select: selMode %u is not a SELMODE", static_cast<unsigned>(selMode));                         \
    const twin::Plan p = twin::MakePlan<T, isSetMask>(api, mask, repeatTime);                                         \
    const bool fromSpr = selMode == SELMODE::VSEL_CMPMASK_SPR;                                                        \
    if (fromSpr)                                                                                                      \
      twin::LoadCmpMaskFromSelMask(api, selMask);                                                                     \
    else                                                                                                              \
      twin::CheckUbOperand(api, "selMask", selMask, (uint64_t{p.repeats} * p.lanes / 8 + sizeof(U) - 1) / sizeof(U)); \
    const uint64_t* spr = twin::Block().vec.cmpMask;                                                                  \
    const U* bits = selMask.TwinData();                                                                               \
    const bool scalar = selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE;                                                  \
    if (scalar) twin::CheckUbOperand(api, "src1", src1, 1);                                                           \
    twin::SelectLevel0<T>(api, p, dst, src0, scalar ? nullptr : &src1, src1.TwinData()[0], repeatParams,              \
                          [=](uint32_t r, uint32_t l) {                                                               \
                            return fromSpr ? twin::BitAt(spr, l) : twin::BitAt(bits, uint64_t{r} * p.lanes + l);      \
                          });                                                                                         \
    if (scalar) twin::LoadCmpMaskScalar(src1.TwinData()[0]);                                                          \
    if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) twin::LoadCmpMaskAddress(selMask);                               \
  }                                                                                                                   \
  /* Mode 1 with a scalar src1: bit r * lanes + l of selMask. */                                                      \
  template <typename T, typename U, bool isSetMask = true>                                                            \
  __aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, \
                                typename twin::NonDeduced<T>::type src1, SELMODE selMode, MaskDecl,                   \
                                uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {                         \
    twin::CheckSelTypes<T, U>();                                                                                      \
    constexpr const char* api = "Select";                                                                             \
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {                                                                \
      twin::RaiseTrap("Select: a scalar src1 needs SELMODE VSEL_TENSOR_SCALAR_MODE, got selMode %u",                  \
                      static_cast<unsigned>(selMode));                                                                \
    }                                                                                                                 \
    const twin::Plan p = twin::MakePlan<T, isSetMask>(api, mask, repeatTime);                                         \
    twin::CheckUbOperand(api, "selMask", selMask, (uint64_t{p.repeats} * p.lanes / 8 + sizeof(U) - 1) / sizeof(U));   \
    const U* bits = selMask.TwinData();                                                                               \
    twin::LoadCmpMaskScalar(static_cast<T>(src1));                                                                    \
    twin::SelectLevel0<T>(api, p, dst, src0, nullptr, static_cast<T>(src1), repeatParams,                             \
                          [=](uint32_t r, uint32_t l) { return twin::BitAt(bits, uint64_t{r} * p.lanes + l); });      \
  }
ASC_TWIN_SELECT_L0(const uint64_t mask[])
ASC_TWIN_SELECT_L0(uint64_t mask)
#undef ASC_TWIN_SELECT_L0

// Level-0 Select with the mask register (SetVectorMask) and the selection in CMPMASK: mode 0
// reads lane bit l of CMPMASK (e.g. after a Compare without dst or SetCmpMask); mode 2 reads the
// selMask whose UB address CMPMASK holds (bit r * lanes + l).
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  twin::CheckSelTypes<T, uint8_t>();
  static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                "Select(dst, src0, src1, repeatTime, repeatParams) takes VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE");
  constexpr const char* api = "Select";
  const twin::Plan p = twin::MakePlan<T, false>(api, MASK_PLACEHOLDER, repeatTime);
  const uint64_t* spr = twin::Block().vec.cmpMask;
  const uint8_t* via = nullptr;
  if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
    const twin::BlockState& b = twin::Block();
    const uint64_t at = static_cast<uint32_t>(spr[0]);
    const uint64_t need = (uint64_t{p.repeats} * p.lanes + 7) / 8;
    if (at + need > b.ub_size) {
      twin::RaiseTrap("Select: CMPMASK holds UB address %llu, and %llu selMask bytes from it pass the UB end",
                      static_cast<unsigned long long>(at), static_cast<unsigned long long>(need));
    }
    via = b.ub_base + at;
  }
  twin::SelectLevel0(api, p, dst, src0, &src1, T(), repeatParams, [=](uint32_t r, uint32_t l) {
    return via != nullptr ? twin::BitAt(via, uint64_t{r} * p.lanes + l) : twin::BitAt(spr, l);
  });
}
// Level-0 mode 1 with the mask register and the scalar in CMPMASK (its first element).
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams) {
  twin::CheckSelTypes<T, U>();
  constexpr const char* api = "Select";
  const twin::Plan p = twin::MakePlan<T, false>(api, MASK_PLACEHOLDER, repeatTime);
  twin::CheckUbOperand(api, "selMask", selMask, (uint64_t{p.repeats} * p.lanes / 8 + sizeof(U) - 1) / sizeof(U));
  T scalar;
  std::memcpy(&scalar, twin::Block().vec.cmpMask, sizeof(T));
  const U* bits = selMask.TwinData();
  twin::SelectLevel0<T>(api, p, dst, src0, nullptr, scalar, repeatParams,
                        [=](uint32_t r, uint32_t l) { return twin::BitAt(bits, uint64_t{r} * p.lanes + l); });
}

// ---- GatherMask ----
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt) {
  static_assert(twin::kIsOneOf<U, uint16_t, uint32_t>, "GatherMask: the pattern tensor is uint16_t or uint32_t");
  twin::CheckUbOperand("GatherMask", "src1Pattern", src1Pattern, 0);
  const twin::GatherShape g = twin::MakeGatherShape<T>("GatherMask", reduceMode, mask, gatherMaskParams);
  const uint64_t patBytes = g.PatternBytes();
  if (patBytes > uint64_t{src1Pattern.GetSize()} * sizeof(U)) {
    twin::RaiseTrap("GatherMask: the pattern needs %llu bytes, beyond src1Pattern (%u elements)",
                    static_cast<unsigned long long>(patBytes), src1Pattern.GetSize());
  }
  const U* pat = src1Pattern.TwinData();
  twin::GatherMaskImpl(dst, src0, g, gatherMaskParams, rsvdCnt,
                       [&](uint32_t r, uint64_t k) { return twin::BitAt(pat, g.PatternBit(r, k)); });
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt) {
  if (src1Pattern < 1 || src1Pattern > 7)
    twin::RaiseTrap("GatherMask: built-in src1Pattern %u is outside [1, 7]", src1Pattern);
  const twin::GatherShape g = twin::MakeGatherShape<T>("GatherMask", reduceMode, mask, gatherMaskParams);
  // The built-in patterns repeat every 2 or 4 elements, so the element index within the repeat
  // decides (a whole repeat is a multiple of 4 lanes).
  twin::GatherMaskImpl(dst, src0, g, gatherMaskParams, rsvdCnt, [src1Pattern](uint32_t, uint64_t k) {
    return twin::BuiltinPattern(src1Pattern, static_cast<uint32_t>(k % 4));
  });
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_CMPSEL_INTF_H_
