// aclFloat16ToFloat / aclFloatToFloat16 (acl_base.h): the same bit-exact conversions the
// Ascend C twin's half uses (asc_twin/float_bits.h), so host and kernel agree on every value.
#include "acl/acl_base.h"
#include "asc_twin/float_bits.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return AscendC::twin::HalfToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return AscendC::twin::FloatToHalf(value); }

}  // extern "C"
