// kernel_operator_layout.h: the basic API's layouts and coordinates (AscendC::Shape, Stride,
// Layout, Coord; MakeShape, MakeStride, MakeLayout, MakeCoord, Crd2Idx), CANN's names, over
// AscendC::Std::tuple. A layout maps a coordinate to an element offset: the sum of each
// coordinate times its stride, nested tuples summed the same way.
#ifndef ASC_TWIN_KERNEL_OPERATOR_LAYOUT_H_
#define ASC_TWIN_KERNEL_OPERATOR_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "kernel_macros.h"
#include "utils/std/tuple.h"

namespace AscendC {

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;

template <typename... Ts>
__aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return {t...};
}
template <typename... Ts>
__aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return {t...};
}
template <typename... Ts>
__aicore__ inline constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return {t...};
}

template <typename T, typename U, typename S>
__aicore__ inline constexpr auto Crd2Idx(const T& coord, const U& shape, const S& stride);

namespace twin {
template <typename T, typename U, typename S, size_t... Is>
constexpr auto Crd2IdxEach(const T& coord, const U& shape, const S& stride, Std::index_sequence<Is...>) {
  return (Crd2Idx(Std::get<Is>(coord), Std::get<Is>(shape), Std::get<Is>(stride)) + ...);
}

// The number of elements a shape spans (the product of its extents, nested ones included).
template <typename T>
constexpr auto ShapeProduct(const T& shape) {
  if constexpr (Std::is_tuple_v<T>) {
    return std::apply([](const auto&... s) { return (static_cast<int64_t>(ShapeProduct(s)) * ... * int64_t(1)); },
                      shape);
  } else {
    return shape;
  }
}
}  // namespace twin

// Offset of coord in a layout of the given shape and stride. The coordinate, shape and stride
// have the same nesting; a leaf coordinate contributes coord * stride.
template <typename T, typename U, typename S>
__aicore__ inline constexpr auto Crd2Idx(const T& coord, const U& shape, const S& stride) {
  if constexpr (Std::is_tuple_v<T>) {
    static_assert(Std::is_tuple_v<U> && Std::is_tuple_v<S>,
                  "Crd2Idx: a tuple coordinate needs a tuple shape and stride");
    static_assert(Std::tuple_size_v<T> == Std::tuple_size_v<U> && Std::tuple_size_v<U> == Std::tuple_size_v<S>,
                  "Crd2Idx: coordinate, shape and stride must have the same rank");
    return twin::Crd2IdxEach(coord, shape, stride, Std::make_index_sequence<Std::tuple_size_v<T>>{});
  } else {
    static_assert(!Std::is_tuple_v<S>, "Crd2Idx: an integer coordinate of a nested shape is not supported");
    (void)shape;
    return coord * stride;
  }
}

template <typename T, typename U>
struct Layout : private Std::tuple<T, U> {
  __aicore__ inline constexpr Layout(const T& shape = {}, const U& stride = {}) : Std::tuple<T, U>(shape, stride) {}

  __aicore__ inline constexpr decltype(auto) layout() { return *this; }
  __aicore__ inline constexpr decltype(auto) layout() const { return *this; }
  __aicore__ inline constexpr decltype(auto) GetShape() { return Std::get<0>(Base()); }
  __aicore__ inline constexpr decltype(auto) GetShape() const { return Std::get<0>(Base()); }
  __aicore__ inline constexpr decltype(auto) GetStride() { return Std::get<1>(Base()); }
  __aicore__ inline constexpr decltype(auto) GetStride() const { return Std::get<1>(Base()); }
  __aicore__ inline constexpr auto GetSize() const { return twin::ShapeProduct(GetShape()); }

  template <typename S>
  __aicore__ inline constexpr auto operator()(const S& coord) const {
    return Crd2Idx(coord, GetShape(), GetStride());
  }

 private:
  constexpr Std::tuple<T, U>& Base() { return *this; }
  constexpr const Std::tuple<T, U>& Base() const { return *this; }
};

template <typename T, typename U>
__aicore__ inline constexpr auto MakeLayout(const T& shape, const U& stride) {
  return Layout<T, U>(shape, stride);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_LAYOUT_H_
