/*
 * libstdc++ ABI guard of the twin's C++ headers (included by every public C++ header).
 *
 * CANN's C++ libraries are built with _GLIBCXX_USE_CXX11_ABI=0; code built with the other value
 * passes std::string objects of another layout and crashes at run time. To turn that into a clear
 * build/load error, every translation unit that includes a twin header references a marker
 * function chosen by the ABI it is compiled with:
 *   - the same ABI as the twin's libraries (GE_TWIN_CXX11_ABI, recorded in ge_twin/abi_config.h
 *     when they were built): ge::twin_abi::uses__GLIBCXX_USE_CXX11_ABI_<n>(), defined in
 *     libgraph_base.so;
 *   - the other ABI: ge::twin_abi::built_with__GLIBCXX_USE_CXX11_ABI_<a>__but_this_CANN_needs_<b>(),
 *     defined nowhere, so linking an executable fails with that name in the linker error, and
 *     a shared library that references it is refused by the OPP loader with one line naming
 *     both values.
 * Only libstdc++ has the two ABIs; with another standard library nothing is referenced.
 */
#ifndef GE_TWIN_ABI_GUARD_H_
#define GE_TWIN_ABI_GUARD_H_

#include <cstddef> /* pulls in libstdc++'s c++config.h, which defines _GLIBCXX_USE_CXX11_ABI */

#include "ge_twin/abi_config.h"

/* Not in bisheng's device pass (the kernels of an .asc file): a device binary links no host
 * library and passes no std::string to one; the file's host pass carries the check. */
#if defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && !defined(__ASC_TWIN_DEVICE_PASS__)
#if _GLIBCXX_USE_CXX11_ABI
#define GE_TWIN_ABI_OF_THIS_TU 1
#else
#define GE_TWIN_ABI_OF_THIS_TU 0
#endif

namespace ge {
namespace twin_abi {
/* Explicit default visibility: under -fvisibility=hidden (OPP libraries) an undefined hidden
 * reference could not be resolved against libgraph_base.so. */
#if GE_TWIN_ABI_OF_THIS_TU == GE_TWIN_CXX11_ABI && GE_TWIN_CXX11_ABI
__attribute__((visibility("default"))) void uses__GLIBCXX_USE_CXX11_ABI_1();
#define GE_TWIN_ABI_MARKER ::ge::twin_abi::uses__GLIBCXX_USE_CXX11_ABI_1
#elif GE_TWIN_ABI_OF_THIS_TU == GE_TWIN_CXX11_ABI
__attribute__((visibility("default"))) void uses__GLIBCXX_USE_CXX11_ABI_0();
#define GE_TWIN_ABI_MARKER ::ge::twin_abi::uses__GLIBCXX_USE_CXX11_ABI_0
#elif GE_TWIN_ABI_OF_THIS_TU
__attribute__((visibility("default"))) void built_with__GLIBCXX_USE_CXX11_ABI_1__but_this_CANN_needs_0();
#define GE_TWIN_ABI_MARKER ::ge::twin_abi::built_with__GLIBCXX_USE_CXX11_ABI_1__but_this_CANN_needs_0
#else
__attribute__((visibility("default"))) void built_with__GLIBCXX_USE_CXX11_ABI_0__but_this_CANN_needs_1();
#define GE_TWIN_ABI_MARKER ::ge::twin_abi::built_with__GLIBCXX_USE_CXX11_ABI_0__but_this_CANN_needs_1
#endif

#if defined(__has_attribute)
#if __has_attribute(retain)
#define GE_TWIN_ABI_RETAIN retain,
#endif
#endif
#ifndef GE_TWIN_ABI_RETAIN
#define GE_TWIN_ABI_RETAIN
#endif

namespace {
/* A data relocation against the marker: `used` keeps it from the optimiser, `retain` from
 * --gc-sections, and data relocations are bound at load time even under lazy binding. */
__attribute__((GE_TWIN_ABI_RETAIN used)) void (*const abi_marker_reference)() = &GE_TWIN_ABI_MARKER;
}  // namespace
}  // namespace twin_abi
}  // namespace ge
#endif /* __GLIBCXX__ */

#endif /* GE_TWIN_ABI_GUARD_H_ */
