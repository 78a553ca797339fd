// utils/std/tuple.h (CANN's layout): AscendC::Std::tuple and its helpers (get, make_tuple, tie,
// tuple_size, tuple_element), the standard's; is_tuple and Int<v> (a compile-time size_t), which
// the standard lacks, are defined here.
#ifndef ASC_TWIN_UTILS_STD_TUPLE_H_
#define ASC_TWIN_UTILS_STD_TUPLE_H_

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "utils/std/type_traits.h"
#include "utils/std/utility.h"

namespace AscendC {
namespace Std {

using std::forward_as_tuple;
using std::get;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_cat;
using std::tuple_element;
using std::tuple_element_t;
using std::tuple_size;
using std::tuple_size_v;

template <size_t v>
using Int = integral_constant<size_t, v>;

template <typename T>
struct is_tuple : false_type {};
template <typename... Ts>
struct is_tuple<tuple<Ts...>> : true_type {};
template <typename T>
constexpr bool is_tuple_v = is_tuple<T>::value;

}  // namespace Std
}  // namespace AscendC

#endif  // ASC_TWIN_UTILS_STD_TUPLE_H_
