// Ascend C on the CPU: the one header kernels include (CANN layout).
#ifndef ASC_TWIN_KERNEL_OPERATOR_H_
#define ASC_TWIN_KERNEL_OPERATOR_H_

#include <cassert>  // CANN's kernel_operator.h brings assert into kernels (its samples call it unqualified)

#include "kernel_type.h"
#include "kernel_tensor.h"
#include "kernel_tpipe.h"
#include "kernel_operator_intf.h"
#include "kernel_tiling_macros.h"
#include "kernel_legacy.h"
#include "kernel_ascendc_utils.h"
#include "kernel_pop_stack_buffer.h"
#include "adv_api/kernel_api.h"
#include "utils/std/type_traits.h"
#include "utils/std/tuple.h"
#include "kernel_operator_layout.h"
#include "asc_twin/host_launch.h"
#include "asc_twin/convert_from_bytes.h"

#endif  // ASC_TWIN_KERNEL_OPERATOR_H_
