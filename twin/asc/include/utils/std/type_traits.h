// utils/std/type_traits.h (CANN's layout): AscendC::Std, the type traits kernels use in place of
// <type_traits>. A twin kernel is host C++, so where CANN's trait means what the standard's does
// it is the standard's (AscendC::Std::is_same<A, B> is std::is_same<A, B>: the same answers, and
// code mixing the two namespaces sees one type). Where CANN's differs, it is defined here:
// is_floating_point counts half, is_integral counts integral_constant, remove_cvref (C++20 in
// std), is_referenceable, is_constant, is_one_of / is_one_of_value.
#ifndef ASC_TWIN_UTILS_STD_TYPE_TRAITS_H_
#define ASC_TWIN_UTILS_STD_TYPE_TRAITS_H_

#include <type_traits>

#include "kernel_fp16.h"

namespace AscendC {
namespace Std {

using std::bool_constant;
using std::false_type;
using std::integral_constant;
using std::true_type;

using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;

using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;

using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;

template <typename T>
struct remove_cvref {
  using type = std::remove_cv_t<std::remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

// float, double, long double and half (not bfloat16_t), cv-qualified or not.
template <typename T>
struct is_floating_point
    : bool_constant<std::is_floating_point<T>::value || std::is_same<std::remove_cv_t<T>, half>::value> {};
template <typename T>
inline constexpr bool is_floating_point_v = is_floating_point<T>::value;

// The standard's integer types, and integral_constant (a compile-time integer).
template <typename T>
struct is_integral : std::is_integral<T> {};
template <typename T, T v>
struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T>
inline constexpr bool is_integral_v = is_integral<T>::value;

// Whether T& is a valid type (false for void and abominable function types).
template <typename T, typename = void>
struct is_referenceable : false_type {};
template <typename T>
struct is_referenceable<T, std::void_t<T&>> : true_type {};

// Whether T (references and const dropped) is an integral_constant holding n.
template <auto n, typename T>
struct is_constant : false_type {};
template <auto n, typename T>
struct is_constant<n, const T> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

// Whether T is one of Args (exactly, qualifiers included).
template <typename T, typename... Args>
struct is_one_of : bool_constant<(std::is_same<T, Args>::value || ...)> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

// is_one_of_value<T, V, Values...>: whether the value V of type T is one of Values.
template <typename T, T... Values>
struct is_one_of_value : false_type {};
template <typename T, T V, T... Values>
struct is_one_of_value<T, V, Values...> : bool_constant<((V == Values) || ...)> {};
template <typename T, T... Values>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Values...>::value;

}  // namespace Std
}  // namespace AscendC

#endif  // ASC_TWIN_UTILS_STD_TYPE_TRAITS_H_
