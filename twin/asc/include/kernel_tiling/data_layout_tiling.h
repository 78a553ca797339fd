// kernel_tiling/data_layout_tiling.h: the tiling structs of the data-layout high-level APIs
// (Pad, UnPad, the ConfusionTranspose form of Transpose), as a kernel reads them: CANN's names
// and field order, all uint32_t. Included by kernel_tiling/kernel_tiling.h; the host classes of
// tiling/pad/pad_tilingdata.h and tiling/transpose/confusion_transpose_tilingdata.h expand the
// same lists, so SaveToBuffer writes exactly these bytes.
#ifndef ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TILING_H_
#define ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TILING_H_

#include <cstdint>

// (X-macro lists laid out by hand: the formatter never settles on them.)
// clang-format off
#define ASC_TWIN_UNPAD_TILING_FIELDS(F) \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, tmpBuffer1BlockNum) F(uint32_t, tmpBuffer1RowNum) \
  F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling) F(uint32_t, widthFractal) F(uint32_t, widthFractalTail)
#define ASC_TWIN_PAD_TILING_FIELDS(F) \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, srcOriWidth) \
  F(uint32_t, widthWithoutLastBlock) F(uint32_t, blocksPerRow) F(uint32_t, heightTiling) \
  F(uint32_t, heightFractal) F(uint32_t, heightFractalTail) F(uint32_t, mainLoopOffset) \
  F(uint32_t, tailBlockOffset) F(uint32_t, tmpBuffer1BlockNum) F(uint32_t, tmpBuffer1RowNum) \
  F(uint32_t, tmpBuffer2Offset) F(uint32_t, widthTiling) F(uint32_t, widthFractal) \
  F(uint32_t, widthFractalTail) F(uint32_t, widthFractalTailAlingned) F(uint32_t, brcbTiling) \
  F(uint32_t, brcbFractal) F(uint32_t, brcbFractalTail) F(uint32_t, maxRepeatTimes) \
  F(uint32_t, brcbTilingRepeatTimes) F(uint32_t, brcbTilingRepeatTimesTail) \
  F(uint32_t, brcbFractalTailRepeatTimes) F(uint32_t, brcbFractalTailRepeatTimesTail) F(uint32_t, reserved)
// The twin's meaning of CANN's opaque param0..param17 (twin/tiling/README.md): param0 the
// scenario (TransposeType value), param1..param4 the srcShape ([B, N, S, H/N], or [H, W] in
// param1..param2 for scenario 7), param5 the minimum sharedTmpBuffer in bytes, param6 typeSize.
#define ASC_TWIN_CONFUSION_TRANSPOSE_TILING_FIELDS(F) \
  F(uint32_t, param0) F(uint32_t, param1) F(uint32_t, param2) F(uint32_t, param3) F(uint32_t, param4) \
  F(uint32_t, param5) F(uint32_t, param6) F(uint32_t, param7) F(uint32_t, param8) F(uint32_t, param9) \
  F(uint32_t, param10) F(uint32_t, param11) F(uint32_t, param12) F(uint32_t, param13) F(uint32_t, param14) \
  F(uint32_t, param15) F(uint32_t, param16) F(uint32_t, param17)
// clang-format on

#define ASC_TWIN_LAYOUT_TILING_FIELD(type, name) type name = 0;
namespace AscendC {
namespace tiling {
struct UnPadTiling {
  ASC_TWIN_UNPAD_TILING_FIELDS(ASC_TWIN_LAYOUT_TILING_FIELD)
};
struct PadTiling {
  ASC_TWIN_PAD_TILING_FIELDS(ASC_TWIN_LAYOUT_TILING_FIELD)
};
struct ConfusionTransposeTiling {
  ASC_TWIN_CONFUSION_TRANSPOSE_TILING_FIELDS(ASC_TWIN_LAYOUT_TILING_FIELD)
};
}  // namespace tiling
}  // namespace AscendC
#undef ASC_TWIN_LAYOUT_TILING_FIELD

namespace AscendC {
// The data formats a tile may be in and TransData's pair of them. Host code (GetTransDataMaxMinTmpSize)
// and kernels share them; CANN guards both the same way, as several headers define them.
#ifndef ASCC_ENUM_DATAFORMAT
#define ASCC_ENUM_DATAFORMAT
enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
  NCDHW,
  NDC1HWC0,
  FRACTAL_Z_3D,
};
#endif  // ASCC_ENUM_DATAFORMAT
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG
}  // namespace AscendC

// Kernels name them without a namespace (`PadTiling tiling;`), as CANN's kernel_tiling.h allows.
using UnPadTiling = AscendC::tiling::UnPadTiling;
using PadTiling = AscendC::tiling::PadTiling;
using ConfusionTransposeTiling = AscendC::tiling::ConfusionTransposeTiling;

#endif  // ASC_TWIN_KERNEL_TILING_DATA_LAYOUT_TILING_H_
