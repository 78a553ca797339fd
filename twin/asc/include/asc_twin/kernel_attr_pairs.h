// Eight entry pairs of the `__aicore__` definition stack of bisheng's host pass (see
// host_kernel_attrs.h). No include guard: host_kernel_attrs.h includes it many times.
#define __aicore__ ASC_TWIN_AICORE_DEVICE_FN
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
#include "asc_twin/kernel_attr_pair.h"
