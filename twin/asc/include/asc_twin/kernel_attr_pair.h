// One entry pair of the `__aicore__` definition stack of bisheng's host pass (see
// host_kernel_attrs.h): the definition a kernel declaration switches to, then the one it switches
// back to. No include guard: kernel_attr_pairs.h includes it eight times.
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
