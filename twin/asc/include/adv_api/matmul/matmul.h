// adv_api/matmul/matmul.h: the Matmul high-level API (AscendC::MatmulImpl, namespace alias
// `matmul`), its types and configs. Kernels include lib/matmul_intf.h, which adds Matmul and
// REGIST_MATMUL_OBJ.
#ifndef ASC_TWIN_ADV_API_MATMUL_MATMUL_H_
#define ASC_TWIN_ADV_API_MATMUL_MATMUL_H_

#include "adv_api/matmul/constant_tiling.h"
#include "adv_api/matmul/detail/matmul_impl.h"
#include "adv_api/matmul/matmul_config.h"
#include "adv_api/matmul/matmul_type.h"
#include "adv_api/matmul/policy/matmul_policy.h"
#include "adv_api/matmul/tscm.h"
#include "adv_api/matmul/tiling.h"

namespace matmul = AscendC;

#endif  // ASC_TWIN_ADV_API_MATMUL_MATMUL_H_
