// convert_from_bytes<T>(bytes): the sizeof(T) bytes at `bytes` as a T, usable in constant
// expressions (CANN's AOT compilation idiom: a tiling struct fixed at compile time from a
// constexpr byte array, `static constexpr T value = convert_from_bytes<T>(bytes);`). CANN's
// toolchain provides it to kernel sources; the twin declares it at global scope through
// kernel_operator.h.
#ifndef ASC_TWIN_CONVERT_FROM_BYTES_H_
#define ASC_TWIN_CONVERT_FROM_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

template <typename T>
constexpr T convert_from_bytes(const uint8_t* bytes) {
  static_assert(std::is_trivially_copyable<T>::value, "convert_from_bytes: T must be trivially copyable");
  struct Raw {
    uint8_t b[sizeof(T)];
  } raw{};
  for (size_t i = 0; i < sizeof(T); ++i) raw.b[i] = bytes[i];
  return __builtin_bit_cast(T, raw);
}

#endif  // ASC_TWIN_CONVERT_FROM_BYTES_H_
