// Basic types and enums of Ascend C (namespace AscendC), plus the builtin
// compiler enums pipe_t / event_t that CANN's CPU debug stubs also declare
// at global scope.
#ifndef ASC_TWIN_KERNEL_TYPE_H_
#define ASC_TWIN_KERNEL_TYPE_H_

#include <cstdint>
#include <type_traits>

#include "kernel_bf16.h"
#include "kernel_fp16.h"
#include "kernel_int4.h"
#include "kernel_macros.h"
#include "asc_twin/cce_scalar.h"

typedef enum {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
} pipe_t;

typedef enum {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
} event_t;

namespace AscendC {

enum class TPosition : uint8_t {
  GM = 0,
  A1 = 1,
  A2 = 2,
  B1 = 3,
  B2 = 4,
  C1 = 5,
  C2 = 6,
  CO1 = 7,
  CO2 = 8,
  VECIN = 9,
  VECOUT = 10,
  VECCALC = 11,
  LCM = VECCALC,
  SPM = 12,
  SHM = SPM,
  TSCM = 13,
  C2PIPE2GM = 14,
  C2PIPE2LOCAL = 15,
  MAX = 16,
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
  MTE2_MTE1 = 0,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT = 1,
  CAST_FLOOR = 2,
  CAST_CEIL = 3,
  CAST_ROUND = 4,
  CAST_TRUNC = 5,
  CAST_ODD = 6,
  CAST_HYBRID = 7,
  CAST_EVEN = 8,
  CAST_ZERO = 9,
  UNKNOWN = 0xFF,
};

enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY = 0,
  KERNEL_TYPE_AIC_ONLY = 1,
  KERNEL_TYPE_MIX_AIV_1_0 = 2,
  KERNEL_TYPE_MIX_AIC_1_0 = 3,
  KERNEL_TYPE_MIX_AIC_1_1 = 4,
  KERNEL_TYPE_MIX_AIC_1_2 = 5,
  KERNEL_TYPE_AICORE = 6,
  KERNEL_TYPE_VECTORCORE = 7,
  KERNEL_TYPE_MIX_AICORE = 8,
  KERNEL_TYPE_MIX_VECTOR_CORE = 9,
  KERNEL_TYPE_MAX = 10,
};

// L2 cache hints for GlobalTensor::SetL2CacheHint (no effect on the twin).
enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_LAST = 2,
  CACHE_MODE_PERSISTENT = 4,
};
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };

using TEventID = int8_t;
using TTagType = int32_t;

// The core the running block is on (AIC or AIV: a mixed kernel's blocks run on both), as in
// CANN's CPU debug build a run-time value: `if ASCEND_IS_AIV {...}`, `if (g_coreType == AIV)`
// (g_coreType and RunningCoreType: kernel_operator_sys_var_intf.h).
enum CoreType : uint8_t { AIC = 1, AIV = 2, MIX = 3 };
#define ASCEND_IS_AIV (::AscendC::twin::RunningCoreType() == ::AscendC::AIV)
#define ASCEND_IS_AIC (::AscendC::twin::RunningCoreType() == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::AscendC::twin::RunningCoreType() != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::AscendC::twin::RunningCoreType() != ::AscendC::AIC)

constexpr uint32_t ONE_BLK_SIZE = 32;  // one UB data block (bytes)
constexpr int32_t BLOCK_CUBE = 16;     // rows (and half columns) of a cube fractal
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t QBUF_MAX_LEN = 64;  // buffers per TPipe

// Per-arch UB capacity (kernel_utils_constants.h); runtime uses the SoC ini.
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ == 2201
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
#elif __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 1001
constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
#else
constexpr uint32_t TOTAL_UB_SIZE = 248 * 1024;
#endif

namespace twin {
template <typename T, typename... Ts>
constexpr bool kIsOneOf = (std::is_same<T, Ts>::value || ...);
template <typename T>
constexpr bool kDependentFalse = false;
template <typename T>
struct NonDeduced {
  using type = T;
};
}  // namespace twin

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_TYPE_H_
