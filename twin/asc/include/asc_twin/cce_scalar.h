// bisheng's scalar builtins that kernel code calls unqualified: min and max on the scalar unit's
// integer and float types (public samples write `baseM = min(baseM, rowNum);` in a kernel). They
// are overloads at global scope, as the compiler's own are, so a user's std::min or a template of
// their own still wins where it matches better; the parenthesised names keep a user's
// function-like min/max macro from rewriting these declarations.
#ifndef ASC_TWIN_CCE_SCALAR_H_
#define ASC_TWIN_CCE_SCALAR_H_

#include <cstdint>

#include "kernel_bf16.h"
#include "kernel_fp16.h"

#define ASC_TWIN_CCE_MIN_MAX(T)                     \
  inline T(min)(T a, T b) { return b < a ? b : a; } \
  inline T(max)(T a, T b) { return a < b ? b : a; }

ASC_TWIN_CCE_MIN_MAX(int8_t)
ASC_TWIN_CCE_MIN_MAX(uint8_t)
ASC_TWIN_CCE_MIN_MAX(int16_t)
ASC_TWIN_CCE_MIN_MAX(uint16_t)
ASC_TWIN_CCE_MIN_MAX(int32_t)
ASC_TWIN_CCE_MIN_MAX(uint32_t)
ASC_TWIN_CCE_MIN_MAX(int64_t)
ASC_TWIN_CCE_MIN_MAX(uint64_t)
ASC_TWIN_CCE_MIN_MAX(float)
ASC_TWIN_CCE_MIN_MAX(half)
ASC_TWIN_CCE_MIN_MAX(bfloat16_t)

#undef ASC_TWIN_CCE_MIN_MAX

#endif  // ASC_TWIN_CCE_SCALAR_H_
