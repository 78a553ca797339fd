// All basic-API interfaces implemented by the twin.
#ifndef ASC_TWIN_KERNEL_OPERATOR_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_INTF_H_

#include "kernel_local_mem_allocator.h"
#include "kernel_operator_atomic_intf.h"
#include "kernel_operator_block_sync_intf.h"
#include "kernel_operator_data_copy_intf.h"
#include "kernel_operator_data_copy_nd2nz.h"
#include "kernel_operator_data_copy_slice.h"
#include "kernel_operator_determine_compute_sync_intf.h"
#include "kernel_operator_fixpipe_intf.h"
#include "kernel_operator_group_barrier_intf.h"
#include "kernel_operator_misc_intf.h"
#include "kernel_operator_mm_intf.h"
#include "kernel_operator_mm_load3d.h"
#include "kernel_operator_mm_sparse_intf.h"
#include "kernel_operator_sys_var_intf.h"
#include "kernel_operator_vec_binary_intf.h"
#include "kernel_operator_vec_cast_intf.h"
#include "kernel_operator_vec_cmpsel_intf.h"
#include "kernel_operator_vec_mask_intf.h"
#include "kernel_operator_vec_reduce_intf.h"
#include "kernel_operator_vec_scalar_intf.h"
#include "kernel_operator_vec_sort_intf.h"
#include "kernel_operator_vec_transpose_intf.h"
#include "kernel_operator_vec_unary_intf.h"
#include "kernel_utils.h"

#endif  // ASC_TWIN_KERNEL_OPERATOR_INTF_H_
