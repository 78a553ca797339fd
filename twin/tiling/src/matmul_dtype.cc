#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include "matmul_dtype.h"

namespace asc_twin_tiling {

using matmul_tiling::DataType;

int32_t MatmulElementBytes(DataType type) {
  switch (type) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
      return 4;
    case DataType::DT_FLOAT16:
    case DataType::DT_BF16:
    case DataType::DT_BFLOAT16:
    case DataType::DT_INT16:
    case DataType::DT_UINT16:
      return 2;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_INT4:
    case DataType::DT_HIFLOAT8:
    case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E5M2:
      return 1;
    default:
      return 0;
  }
}

const char* MatmulTypeName(DataType type) {
  switch (type) {
    case DataType::DT_FLOAT:
      return "DT_FLOAT";
    case DataType::DT_FLOAT16:
      return "DT_FLOAT16";
    case DataType::DT_BF16:
      return "DT_BF16";
    case DataType::DT_BFLOAT16:
      return "DT_BFLOAT16";
    case DataType::DT_INT8:
      return "DT_INT8";
    case DataType::DT_UINT8:
      return "DT_UINT8";
    case DataType::DT_INT4:
      return "DT_INT4";
    case DataType::DT_INT32:
      return "DT_INT32";
    case DataType::DT_INT16:
      return "DT_INT16";
    case DataType::DT_UINT16:
      return "DT_UINT16";
    case DataType::DT_HIFLOAT8:
      return "DT_HIFLOAT8";
    case DataType::DT_FLOAT8_E4M3FN:
      return "DT_FLOAT8_E4M3FN";
    case DataType::DT_FLOAT8_E5M2:
      return "DT_FLOAT8_E5M2";
    default:
      return "an unsupported DataType";
  }
}

namespace {
bool IsBf16(DataType t) { return t == DataType::DT_BF16 || t == DataType::DT_BFLOAT16; }
bool IsFloatIn(DataType t) { return t == DataType::DT_FLOAT || t == DataType::DT_FLOAT16 || IsBf16(t); }
bool IsIntIn(DataType t) { return t == DataType::DT_INT8 || t == DataType::DT_INT4; }
bool IsFp8In(DataType t) {
  return t == DataType::DT_HIFLOAT8 || t == DataType::DT_FLOAT8_E4M3FN || t == DataType::DT_FLOAT8_E5M2;
}
}  // namespace

const char* CheckMatmulTypes(DataType a, DataType b, DataType c, bool hasBias, DataType bias) {
  const bool antiQuant = a == DataType::DT_FLOAT16 && b == DataType::DT_INT8;
  const bool sameKind = (IsBf16(a) && IsBf16(b)) || a == b || (IsFp8In(a) && IsFp8In(b));
  if (!sameKind && !antiQuant) return "A and B have different DataTypes";
  if (!IsFloatIn(a) && !IsIntIn(a) && !IsFp8In(a)) return "A's DataType is not one the cube multiplies";
  const bool cFloat = c == DataType::DT_FLOAT || c == DataType::DT_FLOAT16 || IsBf16(c);
  if (IsFloatIn(a) || antiQuant || IsFp8In(a)) {
    if (!cFloat && !(IsFp8In(a) && c == DataType::DT_INT8)) return "C's DataType cannot hold a float matmul";
  } else if (!(c == DataType::DT_INT32 || c == DataType::DT_INT8 || c == DataType::DT_FLOAT16 || IsBf16(c))) {
    return "C's DataType cannot hold an int8/int4 matmul (int32, or int8/half/bf16 with quantisation)";
  }
  if (hasBias &&
      !(bias == DataType::DT_FLOAT || bias == DataType::DT_FLOAT16 || IsBf16(bias) || bias == DataType::DT_INT32)) {
    return "the bias's DataType is not float, half, bf16 or int32";
  }
  return nullptr;
}

}  // namespace asc_twin_tiling
