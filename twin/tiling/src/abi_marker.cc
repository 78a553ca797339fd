// The ABI guard's marker for the twin's own ABI, also defined in libtiling_api.a (as in
// libgraph_base.so): CANN's samples link `tiling_api register platform` without graph_base, and
// their host code includes tiling/tiling_api.h and register/tilingdata_base.h, whose guard
// references the marker. Code built with the other ABI still fails to link (that marker is
// defined nowhere). Weak: where libgraph_base is linked too, its definition is the one used.
#include "ge_twin/abi_guard.h"

#if defined(__GLIBCXX__)
static_assert(GE_TWIN_ABI_OF_THIS_TU == GE_TWIN_CXX11_ABI,
              "libtiling_api.a must be built with the _GLIBCXX_USE_CXX11_ABI recorded in ge_twin/abi_config.h");
#endif

namespace ge {
namespace twin_abi {
#if GE_TWIN_CXX11_ABI
__attribute__((weak)) void uses__GLIBCXX_USE_CXX11_ABI_1() {}
#else
__attribute__((weak)) void uses__GLIBCXX_USE_CXX11_ABI_0() {}
#endif
}  // namespace twin_abi
}  // namespace ge
