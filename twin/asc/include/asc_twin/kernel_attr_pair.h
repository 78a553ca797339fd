// One entry pair of each definition stack of bisheng's host pass (see host_kernel_attrs.h):
// `__aicore__` (the kernel form, then the function form) and `__global__` (the entering form,
// then the plain form). No include guard: kernel_attr_pairs.h includes it eight times.
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__global__")
#undef __global__
#define __global__ ASC_TWIN_GLOBAL_ENTER
#pragma push_macro("__global__")
#undef __global__
#define __global__ ASC_TWIN_GLOBAL_IN_KERNEL
