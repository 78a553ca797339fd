// The loop engine behind the count-form vector APIs: operands are checked
// once per call, then a plain indexed loop over raw pointers runs, which
// clang/gcc vectorize (dst may alias a source, as in Add(x, x, y, n)).
#ifndef ASC_TWIN_ELEMENTWISE_H_
#define ASC_TWIN_ELEMENTWISE_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "asc_twin/cpu_features.h"
#include "asc_twin/level0.h"
#include "kernel_tensor.h"

namespace AscendC {
namespace twin {

// Compute type: 16-bit floats are computed in float and rounded once per call.
template <typename T>
using Wide = std::conditional_t<std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value, float, T>;

template <typename T, typename F>
inline void BinaryLoop(T* d, const T* x, const T* y, uint32_t n, F f) {
  for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<T>(f(static_cast<Wide<T>>(x[i]), static_cast<Wide<T>>(y[i])));
}

// The same loop vectorized for AVX2 (entered only when HasAvx2()): same operations in the same
// order per element, so results are bit-identical to BinaryLoop.
template <typename T, typename F>
ASC_TWIN_TARGET_AVX2 inline void BinaryLoopAvx2(T* d, const T* x, const T* y, uint32_t n, F f) {
  for (uint32_t i = 0; i < n; ++i) d[i] = static_cast<T>(f(static_cast<Wide<T>>(x[i]), static_cast<Wide<T>>(y[i])));
}

template <typename T, typename F>
ASC_TWIN_HOT inline void MapBinary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a,
                                   const LocalTensor<T>& b, int32_t count, F f) {
  if (!CheckCount(api, count)) return;
  LevelTwoDone();
  CheckUbOperand(api, "dst", dst, static_cast<uint32_t>(count));
  CheckUbOperand(api, "src0", a, static_cast<uint32_t>(count));
  CheckUbOperand(api, "src1", b, static_cast<uint32_t>(count));
  T* d = dst.TwinData();
  const T* x = a.TwinData();
  const T* y = b.TwinData();
  const uint32_t n = static_cast<uint32_t>(count);
  // 32-bit element types only: their AVX2 loops are plain lane-wise arithmetic. (half goes
  // through a software conversion that gains nothing from a clone.)
  if constexpr (sizeof(T) == 4) {
    if (HasAvx2()) return BinaryLoopAvx2(d, x, y, n, f);
  }
  BinaryLoop(d, x, y, n, f);
}

template <typename D, typename S, typename F>
inline void MapUnary(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, int32_t count, F f) {
  if (!CheckCount(api, count)) return;
  LevelTwoDone();
  CheckUbOperand(api, "dst", dst, static_cast<uint32_t>(count));
  CheckUbOperand(api, "src", src, static_cast<uint32_t>(count));
  D* d = dst.TwinData();
  const S* s = src.TwinData();
  const uint32_t n = static_cast<uint32_t>(count);
  if constexpr (kIsInt4<D> || kIsInt4<S>) {
    for (uint32_t i = 0; i < n; ++i) StoreElem<D>(d, i, f(LoadElem(s, i)));
  } else {
    for (uint32_t i = 0; i < n; ++i) d[i] = f(s[i]);
  }
}

// Level-0 forms: dst = f(src0, src1) / f(src) per active lane, computed in Wide<T>.
template <typename T, bool isSetMask, typename M, typename F>
inline void BinaryLevel0(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                         const LocalTensor<T>& src1, M mask, int64_t repeatTime, const BinaryRepeatParams& p, F f) {
  const Plan plan = MakePlan<T, isSetMask>(api, mask, repeatTime);
  const Operand<T> d = MakeOperand(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
  const Operand<T> s[2] = {MakeOperand(api, "src0", src0, p.src0BlkStride, p.src0RepStride),
                           MakeOperand(api, "src1", src1, p.src1BlkStride, p.src1RepStride)};
  Level0Map(api, plan, d, s,
            [f](const T* v) { return static_cast<T>(f(static_cast<Wide<T>>(v[0]), static_cast<Wide<T>>(v[1]))); });
}

template <typename D, typename S, bool isSetMask, typename M, typename F>
inline void UnaryLevel0(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, M mask,
                        int64_t repeatTime, const UnaryRepeatParams& p, F f) {
  using Lane = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;  // the wider type sets the lanes
  const Plan plan = MakePlan<Lane, isSetMask>(api, mask, repeatTime);
  const Operand<D> d = MakeOperand(api, "dst", dst, p.dstBlkStride, p.dstRepStride);
  const Operand<S> s[1] = {MakeOperand(api, "src", src, p.srcBlkStride, p.srcRepStride)};
  Level0Map(api, plan, d, s, [f](const S* v) { return f(v[0]); });
}

// dst = f(dst, src0, src1) (ops that read their destination: FusedMulAdd, MulAddDst, Axpy...).
template <typename T, typename F>
inline void WithDstMap(const char* api, const Plan& plan, const Operand<T>& d, const Operand<T>& s0,
                       const Operand<T>& s1, F f) {
  const Operand<T> s[3] = {d, s0, s1};
  Level0Map(api, plan, d, s, [f](const T* v) {
    return static_cast<T>(f(static_cast<Wide<T>>(v[0]), static_cast<Wide<T>>(v[1]), static_cast<Wide<T>>(v[2])));
  });
}

// Level-0 form of the ops that also read dst: dst = f(dst, src0, src1).
template <typename T, bool isSetMask, typename M, typename F>
inline void DstBinaryLevel0(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                            const LocalTensor<T>& src1, M mask, int64_t repeatTime, const BinaryRepeatParams& p, F f) {
  const Plan plan = MakePlan<T, isSetMask>(api, mask, repeatTime);
  WithDstMap(api, plan, MakeOperand(api, "dst", dst, p.dstBlkStride, p.dstRepStride),
             MakeOperand(api, "src0", src0, p.src0BlkStride, p.src0RepStride),
             MakeOperand(api, "src1", src1, p.src1BlkStride, p.src1RepStride), f);
}

// Integer + - * wrap around like the hardware instead of being UB in C++.
template <typename T>
using Unsigned = std::make_unsigned_t<T>;

template <typename T>
inline T WrapAdd(T a, T b) {
  if constexpr (std::is_integral<T>::value)
    return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
  else
    return a + b;
}
template <typename T>
inline T WrapSub(T a, T b) {
  if constexpr (std::is_integral<T>::value)
    return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
  else
    return a - b;
}
template <typename T>
inline T WrapMul(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ELEMENTWISE_H_
