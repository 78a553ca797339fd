// adv_api/matmul/tscm.h: AscendC::TSCM, the queue kernels stage a Matmul input in L1 with
// (MatmulType<TPosition::TSCM, ...>): CANN's TQueBind<src, TPosition::TSCM, depth, mask>. On the
// twin it is the queue at TPosition::TSCM, whose buffers TPipe carves from L1; `src` (where the
// data comes from, GM or VECOUT) only documents the flow.
#ifndef ASC_TWIN_ADV_API_MATMUL_TSCM_H_
#define ASC_TWIN_ADV_API_MATMUL_TSCM_H_

#include <cstdint>

#include "kernel_tpipe.h"
#include "kernel_type.h"

namespace AscendC {

template <TPosition src, int32_t depth = 1, auto mask = 0>
using TSCM = TQue<TPosition::TSCM, depth, mask>;

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_TSCM_H_
