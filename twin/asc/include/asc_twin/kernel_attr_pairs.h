// Eight entries of the `__aicore__` definition stack of bisheng's host pass (see
// host_kernel_attrs.h). No include guard: host_kernel_attrs.h includes it many times.
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#pragma push_macro("__aicore__")
#undef __aicore__
#define __aicore__ ASC_TWIN_AICORE_ON_KERNEL
#pragma push_macro("__aicore__")
#undef __aicore__
