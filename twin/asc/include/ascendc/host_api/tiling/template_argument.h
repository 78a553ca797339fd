// Tiling template arguments (CANN: ascendc/host_api/tiling/template_argument.h), for the CPU twin.
// An operator declares its template parameters and the combinations it supports; the host turns
// chosen values into a tiling key with GET_TPL_TILING_KEY:
//
//   ASCENDC_TPL_ARGS_DECL(MyOp,
//       ASCENDC_TPL_DTYPE_DECL(D_T, 0, 1),                                  // 8 bits, the value
//       ASCENDC_TPL_UINT_DECL(TILE, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 64, 128, 256),  // index
//       ASCENDC_TPL_BOOL_DECL(TAIL, 0, 1));                                 // 1 bit
//   ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DTYPE_SEL(D_T, 0, 1),
//                                        ASCENDC_TPL_UINT_SEL(TILE, ASCENDC_TPL_UI_LIST, 64, 256),
//                                        ASCENDC_TPL_BOOL_SEL(TAIL, 0, 1)));
//   uint64_t key = GET_TPL_TILING_KEY(1, 256, 0);   // fields packed LSB first, declaration order
//
// ASCENDC_TPL_DATATYPE_DECL/SEL are DTYPE fields over the native C_DT_* values (C_Format for
// FORMAT); a DATATYPE/FORMAT declaration of ASCENDC_TPL_INPUT(i)/OUTPUT(i) alone accepts any 8-bit value.
// Encoding: DTYPE/FORMAT fields take 8 bits and hold the value, BOOL 1 bit, UINT the declared
// bit width and the value's index among the declared values (UI_LIST: the values; UI_RANGE:
// `n, lo1, hi1, ..., lon, hin` inclusive ranges; UI_MIX: `n` ranges, then listed values). A value
// that is not declared, does not fit its width, or is in no ASCENDC_TPL_ARGS_SEL combination
// gives INVALID_TILING_KEY (all ones). ASCENDC_TPL_SEL_PARAM(context, values...) calls
// context->SetTilingKey(key).
#ifndef ASC_TWIN_TEMPLATE_ARGUMENT_H_
#define ASC_TWIN_TEMPLATE_ARGUMENT_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "asc_twin/c_types.h"

// A DATATYPE/FORMAT declaration may name the tensor whose dtype/format the parameter follows
// instead of listing values: ASCENDC_TPL_INPUT(i) / ASCENDC_TPL_OUTPUT(i).
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_3_BW 3
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_5_BW 5
#define ASCENDC_TPL_6_BW 6
#define ASCENDC_TPL_7_BW 7
#define ASCENDC_TPL_8_BW 8

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7

namespace AscendC {

enum class TplKind : uint8_t { DTYPE, FORMAT, UINT, BOOL, KERNEL_TYPE };

struct TplParamDecl {
  const char* name;
  TplKind kind;
  uint32_t bitWidth;
  int mode;
  std::vector<uint64_t> values;
};

struct TplParamSel {
  const char* name;
  TplKind kind;
  int mode;
  std::vector<uint64_t> values;
};

using TilingDeclareParams = std::vector<TplParamDecl>;
using TilingSelectParams = std::vector<std::vector<TplParamSel>>;

constexpr uint64_t INVALID_TILING_KEY = ~0ull;

// The values a (mode, raw list) stands for, in order.
inline std::vector<uint64_t> ExpandTplValues(int mode, const std::vector<uint64_t>& raw) {
  if (mode == ASCENDC_TPL_UI_LIST) return raw;
  std::vector<uint64_t> out;
  if (raw.empty()) return out;
  const uint64_t ranges = raw[0];
  size_t i = 1;
  for (uint64_t r = 0; r < ranges && i + 1 < raw.size(); ++r, i += 2) {
    for (uint64_t v = raw[i]; v <= raw[i + 1]; ++v) out.push_back(v);
  }
  if (mode == ASCENDC_TPL_UI_MIX) out.insert(out.end(), raw.begin() + static_cast<long>(i), raw.end());
  return out;
}

inline bool TplContains(const std::vector<uint64_t>& values, uint64_t v) {
  for (uint64_t x : values) {
    if (x == v) return true;
  }
  return false;
}

// The values a DTYPE/FORMAT declaration allows: its listed values without the tensor references
// (ASCENDC_TPL_INPUT/OUTPUT); a declaration of references only allows every value of its 8 bits
// (the tensor's dtype/format is known when the op runs, not here).
inline bool TplDeclAllows(const std::vector<uint64_t>& declared, uint64_t v) {
  bool listed = false;
  for (uint64_t x : declared) {
    if (x >= ASCENDC_TPL_INPUT_BIAS) continue;
    listed = true;
    if (x == v) return true;
  }
  return !listed && v < 256;
}

inline uint64_t EncodeTilingKey(const TilingDeclareParams& declareParams, const TilingSelectParams& selectParamsVec,
                                std::vector<uint64_t> tilingParams) {
  std::vector<const TplParamDecl*> fields;
  for (const TplParamDecl& d : declareParams) {
    if (d.kind != TplKind::KERNEL_TYPE) fields.push_back(&d);
  }
  if (tilingParams.size() != fields.size()) return INVALID_TILING_KEY;
  uint64_t key = 0;
  uint32_t shift = 0;
  for (size_t i = 0; i < fields.size(); ++i) {
    const TplParamDecl& d = *fields[i];
    const std::vector<uint64_t> declared = d.kind == TplKind::UINT ? ExpandTplValues(d.mode, d.values) : d.values;
    uint64_t code = tilingParams[i];
    if (d.kind == TplKind::UINT) {
      code = INVALID_TILING_KEY;
      for (size_t k = 0; k < declared.size(); ++k) {
        if (declared[k] == tilingParams[i]) code = k;
      }
      if (code == INVALID_TILING_KEY) return INVALID_TILING_KEY;
    } else if ((d.kind == TplKind::DTYPE || d.kind == TplKind::FORMAT) ? !TplDeclAllows(declared, code)
                                                                       : !TplContains(declared, code)) {
      return INVALID_TILING_KEY;
    }
    if (d.bitWidth < 64 && code >= (1ull << d.bitWidth)) return INVALID_TILING_KEY;
    if (shift + d.bitWidth > 64) return INVALID_TILING_KEY;
    key |= code << shift;
    shift += d.bitWidth;
  }
  if (selectParamsVec.empty()) return key;
  for (const std::vector<TplParamSel>& combination : selectParamsVec) {
    bool ok = true;
    for (const TplParamSel& s : combination) {
      if (s.kind == TplKind::KERNEL_TYPE) continue;
      for (size_t i = 0; i < fields.size(); ++i) {
        if (std::string_view(fields[i]->name) != s.name) continue;
        const std::vector<uint64_t> allowed = s.kind == TplKind::UINT ? ExpandTplValues(s.mode, s.values) : s.values;
        ok = ok && TplContains(allowed, tilingParams[i]);
      }
    }
    if (ok) return key;
  }
  return INVALID_TILING_KEY;
}

}  // namespace AscendC

#define ASCENDC_TPL_DTYPE_DECL(x, ...)                                      \
  ::AscendC::TplParamDecl {                                                 \
    #x, ::AscendC::TplKind::DTYPE, 8u, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_DATATYPE_DECL(x, ...)                                   \
  ::AscendC::TplParamDecl {                                                 \
    #x, ::AscendC::TplKind::DTYPE, 8u, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_FORMAT_DECL(x, ...)                                      \
  ::AscendC::TplParamDecl {                                                  \
    #x, ::AscendC::TplKind::FORMAT, 8u, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_UINT_DECL(x, bw, mode, ...)                                      \
  ::AscendC::TplParamDecl {                                                          \
    #x, ::AscendC::TplKind::UINT, static_cast<uint32_t>(bw), (mode), { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_BOOL_DECL(x, ...)                                      \
  ::AscendC::TplParamDecl {                                                \
    #x, ::AscendC::TplKind::BOOL, 1u, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...)                                      \
  ::AscendC::TplParamDecl {                                                       \
    #x, ::AscendC::TplKind::KERNEL_TYPE, 0u, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }

#define ASCENDC_TPL_DTYPE_SEL(x, ...)                                   \
  ::AscendC::TplParamSel {                                              \
    #x, ::AscendC::TplKind::DTYPE, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_DATATYPE_SEL(x, ...)                                \
  ::AscendC::TplParamSel {                                              \
    #x, ::AscendC::TplKind::DTYPE, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_FORMAT_SEL(x, ...)                                   \
  ::AscendC::TplParamSel {                                               \
    #x, ::AscendC::TplKind::FORMAT, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_UINT_SEL(x, mode, ...)                \
  ::AscendC::TplParamSel {                                \
    #x, ::AscendC::TplKind::UINT, (mode), { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_BOOL_SEL(x, ...)                                   \
  ::AscendC::TplParamSel {                                             \
    #x, ::AscendC::TplKind::BOOL, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)                                      \
  ::AscendC::TplParamSel {                                                    \
    "", ::AscendC::TplKind::KERNEL_TYPE, ASCENDC_TPL_UI_LIST, { __VA_ARGS__ } \
  }

// The declarations live in function-local statics, built on first use: a global with a dynamic
// initializer would give the kernel's device image a constructor, and the runtime refuses
// images that run code when loaded (the same source is compiled for host and device).
#define ASCENDC_TPL_ARGS_DECL(op, ...)                                                      \
  [[maybe_unused]] static const ::AscendC::TilingDeclareParams& AscTwinTplDeclareParams() { \
    static const ::AscendC::TilingDeclareParams params{__VA_ARGS__};                        \
    return params;                                                                          \
  }                                                                                         \
  static_assert(true, "")
#define ASCENDC_TPL_ARGS_SEL(...) \
  std::vector<::AscendC::TplParamSel> { __VA_ARGS__ }
#define ASCENDC_TPL_SEL(...)                                                              \
  [[maybe_unused]] static const ::AscendC::TilingSelectParams& AscTwinTplSelectParams() { \
    static const ::AscendC::TilingSelectParams params{__VA_ARGS__};                       \
    return params;                                                                        \
  }                                                                                       \
  static_assert(true, "")

#define GET_TPL_TILING_KEY(...) \
  ::AscendC::EncodeTilingKey(AscTwinTplDeclareParams(), AscTwinTplSelectParams(), {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                          \
  do {                                                               \
    const uint64_t ascTwinTplKey_ = GET_TPL_TILING_KEY(__VA_ARGS__); \
    (context)->SetTilingKey(ascTwinTplKey_);                         \
  } while (0)

#endif  // ASC_TWIN_TEMPLATE_ARGUMENT_H_
