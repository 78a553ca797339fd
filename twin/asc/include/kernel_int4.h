// int4b_t: a signed 4-bit integer (-8..7). In UB and GM two elements share a byte, as on the
// NPU: element 2k in the low nibble, element 2k+1 in the high nibble. The object itself is
// one byte (`storage`, the low 4 bits hold the value) so that a LocalTensor<int4b_t> can keep
// a byte pointer; tensors of int4b_t address elements through the nibble helpers below.
#ifndef ASC_TWIN_KERNEL_INT4_H_
#define ASC_TWIN_KERNEL_INT4_H_

#include <cstdint>
#include <type_traits>

#include "kernel_macros.h"

namespace AscendC {

struct int4b_t {
  uint8_t storage;  // value in bits 0-3 (two's complement), bits 4-7 zero

  __aicore__ int4b_t() = default;
  __aicore__ constexpr int4b_t(int32_t value) : storage(static_cast<uint8_t>(static_cast<uint32_t>(value) & 0xFu)) {}
  __aicore__ constexpr int4b_t(uint32_t value) : storage(static_cast<uint8_t>(value & 0xFu)) {}

  // Sign-extended value.
  __aicore__ constexpr operator int8_t() const {
    return static_cast<int8_t>((storage & 0x8u) ? static_cast<int>(storage & 0xFu) - 16
                                                : static_cast<int>(storage & 0xFu));
  }
  __aicore__ constexpr bool operator==(const int4b_t& o) const { return ((storage ^ o.storage) & 0xFu) == 0; }
  __aicore__ constexpr bool operator!=(const int4b_t& o) const { return !(*this == o); }
  __aicore__ constexpr bool operator<(const int4b_t& o) const { return int8_t(*this) < int8_t(o); }
  __aicore__ constexpr bool operator>(const int4b_t& o) const { return o < *this; }
  __aicore__ constexpr bool operator<=(const int4b_t& o) const { return !(o < *this); }
  __aicore__ constexpr bool operator>=(const int4b_t& o) const { return !(*this < o); }
};
static_assert(sizeof(int4b_t) == 1 && std::is_trivially_copyable<int4b_t>::value, "int4b_t must be one byte");

namespace twin {

template <typename T>
constexpr bool kIsInt4 = std::is_same<typename std::remove_cv<T>::type, int4b_t>::value;

// Bytes that `n` elements of T occupy (int4b_t: two per byte, a trailing odd element takes a byte).
template <typename T>
constexpr uint64_t ElemBytes(uint64_t n) {
  return kIsInt4<T> ? (n + 1) / 2 : n * sizeof(T);
}
// Byte offset of element `i` (int4b_t: the byte holding it).
template <typename T>
constexpr uint64_t ElemByteOffset(uint64_t i) {
  return kIsInt4<T> ? i / 2 : i * sizeof(T);
}
// Pointer steps of a T* to element `i` (int4b_t: one step per byte, so i / 2).
template <typename T>
constexpr uint64_t ElemStep(uint64_t i) {
  return kIsInt4<T> ? i / 2 : i;
}
// Elements of T that fit in `bytes`.
template <typename T>
constexpr uint64_t ElemsInBytes(uint64_t bytes) {
  return kIsInt4<T> ? bytes * 2 : bytes / sizeof(T);
}

// Element i of packed int4 data starting at `base`.
inline int4b_t LoadNibble(const void* base, uint64_t i) {
  const uint8_t byte = static_cast<const uint8_t*>(base)[i / 2];
  return int4b_t(static_cast<uint32_t>(i % 2 ? byte >> 4 : byte));
}
inline void StoreNibble(void* base, uint64_t i, int4b_t v) {
  uint8_t& byte = static_cast<uint8_t*>(base)[i / 2];
  const uint32_t nib = v.storage & 0xFu;
  byte = static_cast<uint8_t>(i % 2 ? (byte & 0x0Fu) | (nib << 4) : (byte & 0xF0u) | nib);
}

// Element i of a T array in UB, for code that runs over every element type (int4b_t: packed).
template <typename T>
inline T LoadElem(const T* base, uint64_t i) {
  if constexpr (kIsInt4<T>) {
    return LoadNibble(base, i);
  } else {
    return base[i];
  }
}
template <typename T>
inline void StoreElem(T* base, uint64_t i, T v) {
  if constexpr (kIsInt4<T>) {
    StoreNibble(base, i, v);
  } else {
    base[i] = v;
  }
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_INT4_H_
