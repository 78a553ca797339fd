// adv_api/matmul/matmul_type.h: MatmulType (where an operand lives, its format, element type,
// transpose, batch layout), MatmulTypeWithScale, and MatmulCallBackFunc, with CANN's parameters.
#ifndef ASC_TWIN_ADV_API_MATMUL_MATMUL_TYPE_H_
#define ASC_TWIN_ADV_API_MATMUL_MATMUL_TYPE_H_

#include <cstdint>
#include <type_traits>

#include "adv_api/matmul/matmul_config.h"
#include "kernel_tensor.h"
#include "kernel_type.h"

namespace AscendC {

// CANN's basic-API constant (kernel_utils_constants.h) that Matmul samples use for block strides;
// defined here until the basic API has it.
#ifndef ASC_TWIN_DEFAULT_C0_SIZE
#define ASC_TWIN_DEFAULT_C0_SIZE
constexpr int32_t DEFAULT_C0_SIZE = 32;
#endif

// The L0C (accumulator) type of a Matmul with inputs T: int32_t for int8_t, else float.
template <typename T>
struct GetMmDstType {
  using Type = std::conditional_t<std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value ||
                                      std::is_same<T, int4b_t>::value,
                                  int32_t, float>;
};

template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
};

template <TPosition POSITION, TPosition SCALE_POSITION, CubeFormat FORMAT, CubeFormat SCALE_FORMAT, typename TYPE,
          bool ISTRANS = false, bool SCALE_ISTRANS = false, TPosition SRCPOS = TPosition::GM,
          TPosition SCALE_SRCPOS = TPosition::GM>
struct MatmulTypeWithScale : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LayoutMode::NONE, false, SRCPOS> {
  constexpr static TPosition scalePosition = SCALE_POSITION;
  constexpr static CubeFormat scaleFormat = SCALE_FORMAT;
  constexpr static bool isScaleTrans = SCALE_ISTRANS;
  constexpr static TPosition srcScalePos = SCALE_SRCPOS;
};

// User hooks: DataCopyOut replaces the copy of each C block to GM; CopyA1 / CopyB1 fill the L1
// copy of an A / B block (NZ) themselves.
template <void (*DataCopyOut)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local, const void* dataCopyOutParams,
                              const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
  constexpr static void (*DataCopyOutPtr)(const __gm__ void* gm, const LocalTensor<int8_t>& co1Local,
                                          const void* dataCopyOutParams, const uint64_t tilingPtr,
                                          const uint64_t dataPtr) = DataCopyOut;
  constexpr static void (*CopyA1Ptr)(const LocalTensor<int8_t>& aMatrix, const __gm__ void* gm, int row, int col,
                                     int useM, int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyA1;
  constexpr static void (*CopyB1Ptr)(const LocalTensor<int8_t>& bMatrix, const __gm__ void* gm, int row, int col,
                                     int useK, int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = CopyB1;
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_MATMUL_TYPE_H_
