// The part of Ascend C's Layout that TransData takes (CANN's basic-API names): Shape and Stride
// are tuples (AscendC::Std::tuple, with Std::get / tuple_size / tuple_element / is_tuple_v),
// MakeShape, MakeStride, MakeLayout and Layout<Shape, Stride> with GetShape() / GetStride(),
// is_layout_v. Nothing else of the layout algebra (Crd2Idx, tiles, static layouts) is here.
#ifndef ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_LAYOUT_H_
#define ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_LAYOUT_H_

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "kernel_macros.h"

namespace AscendC {
namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
template <typename T>
struct is_tuple : std::false_type {};
template <typename... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};
template <typename T>
constexpr bool is_tuple_v = is_tuple<std::remove_cv_t<std::remove_reference_t<T>>>::value;
}  // namespace Std

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;

template <typename... Ts>
__aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <typename... Ts>
__aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}

template <typename T, typename U>
struct Layout {
  __aicore__ inline constexpr Layout() = default;
  __aicore__ inline constexpr Layout(const T& shape, const U& stride) : shape_(shape), stride_(stride) {}
  __aicore__ inline constexpr const T& GetShape() const { return shape_; }
  __aicore__ inline constexpr const U& GetStride() const { return stride_; }

 private:
  T shape_{};
  U stride_{};
};

template <typename T, typename U>
__aicore__ inline constexpr auto MakeLayout(const T& shape, const U& stride) {
  return Layout<T, U>(shape, stride);
}
template <typename T>
__aicore__ inline constexpr auto MakeLayout(const T& shape) {
  return Layout<T, Stride<>>(shape, Stride<>());
}

template <typename T>
struct is_layout : std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<std::remove_cv_t<std::remove_reference_t<T>>>::value;

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_LAYOUT_H_
