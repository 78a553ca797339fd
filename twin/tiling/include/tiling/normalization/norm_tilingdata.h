// tiling/normalization/norm_tilingdata.h: the optiling host classes of the normalisation tiling
// structs (LayerNormTiling, LayerNormSeparateTiling, LayerNormGradTiling,
// LayerNormGradBetaTiling, RmsNormTiling, DeepNormTiling), expanded from the field lists of
// kernel_tiling/kernel_tiling.h, so SaveToBuffer writes the struct the kernel reads. CANN spreads
// them over one *_tilingdata.h per API; those names include this header.
#ifndef ASC_TWIN_TILING_NORMALIZATION_NORM_TILINGDATA_H_
#define ASC_TWIN_TILING_NORMALIZATION_NORM_TILINGDATA_H_

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormTiling)
ASC_TWIN_LAYERNORM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormSeparateTiling)
ASC_TWIN_LAYERNORM_SEPARATE_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormGradTiling)
ASC_TWIN_LAYERNORM_GRAD_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(LayerNormGradBetaTiling)
ASC_TWIN_LAYERNORM_GRAD_BETA_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(RmsNormTiling)
ASC_TWIN_RMSNORM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(DeepNormTiling)
ASC_TWIN_DEEPNORM_TILING_FIELDS(TILING_DATA_FIELD_DEF)
END_TILING_DATA_DEF;
}  // namespace optiling

#endif  // ASC_TWIN_TILING_NORMALIZATION_NORM_TILINGDATA_H_
