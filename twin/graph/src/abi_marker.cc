// Defines the ABI marker that the public headers reference (include/ge_twin/abi_guard.h) for the
// ABI this library is built with; code built with the other ABI references a marker that exists
// nowhere and so fails to link or load.
#include "ge_twin/abi_guard.h"

#if defined(__GLIBCXX__)
static_assert(GE_TWIN_ABI_OF_THIS_TU == GE_TWIN_CXX11_ABI,
              "libgraph_base.so must be built with the _GLIBCXX_USE_CXX11_ABI recorded in ge_twin/abi_config.h");
#endif

namespace ge {
namespace twin_abi {
#if GE_TWIN_CXX11_ABI
void uses__GLIBCXX_USE_CXX11_ABI_1() {}
#else
void uses__GLIBCXX_USE_CXX11_ABI_0() {}
#endif
}  // namespace twin_abi
}  // namespace ge
