// What TransData needs of Ascend C's Layout beyond the basic API's (kernel_operator_layout.h:
// Shape, Stride, MakeShape, MakeStride, MakeLayout, Layout<Shape, Stride>): a layout given by its
// shape alone (no strides) and the is_layout_v trait TransData's parameter checks use.
#ifndef ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_LAYOUT_H_
#define ASC_TWIN_ADV_API_TRANSPOSE_TRANSDATA_LAYOUT_H_

#include <type_traits>

#include "kernel_macros.h"
#include "kernel_operator_layout.h"

namespace AscendC {

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
