// adv_api/matmul/constant_tiling.h: constant (static) Matmul tiling: MatmulApiStaticTiling and
// GetMatmulApiTiling, CANN's names and fields. A Matmul whose MM_CFG is a MatmulApiStaticTiling
// takes its config from the struct's `cfg` and every tiling field that is not -1 from the struct
// (a runtime TCubeTiling, if one is passed, fills the rest), so REGIST_MATMUL_OBJ may pass a null
// tiling when the struct is complete.
#ifndef ASC_TWIN_ADV_API_MATMUL_CONSTANT_TILING_H_
#define ASC_TWIN_ADV_API_MATMUL_CONSTANT_TILING_H_

#include <cstdint>
#include <type_traits>

#include "adv_api/matmul/matmul_config.h"
#include "adv_api/matmul/tiling.h"
#include "kernel_macros.h"
#include "kernel_tiling/kernel_tiling.h"

struct MatmulApiStaticTiling {
  int32_t usedCoreNum = -1;
  int32_t M = -1;
  int32_t N = -1;
  int32_t Ka = -1;
  int32_t Kb = -1;
  int32_t singleCoreM = -1;
  int32_t singleCoreN = -1;
  int32_t singleCoreK = -1;
  int32_t baseM = -1;
  int32_t baseN = -1;
  int32_t baseK = -1;
  int32_t depthA1 = -1;
  int32_t depthB1 = -1;
  int32_t stepM = -1;
  int32_t stepN = -1;
  int32_t isBias = -1;
  int32_t transLength = -1;
  int32_t iterateOrder = -1;
  int32_t shareMode = -1;
  int32_t shareL1Size = -1;
  int32_t shareL0CSize = -1;
  int32_t shareUbSize = -1;
  int32_t stepKa = -1;
  int32_t stepKb = -1;
  int32_t depthAL1CacheUB = -1;
  int32_t depthBL1CacheUB = -1;
  int32_t dbL0A = -1;
  int32_t dbL0B = -1;
  int32_t dbL0C = -1;
  int32_t ALayoutInfoB = -1;
  int32_t ALayoutInfoS = -1;
  int32_t ALayoutInfoN = -1;
  int32_t ALayoutInfoG = -1;
  int32_t ALayoutInfoD = -1;
  int32_t BLayoutInfoB = -1;
  int32_t BLayoutInfoS = -1;
  int32_t BLayoutInfoN = -1;
  int32_t BLayoutInfoG = -1;
  int32_t BLayoutInfoD = -1;
  int32_t CLayoutInfoB = -1;
  int32_t CLayoutInfoS1 = -1;
  int32_t CLayoutInfoN = -1;
  int32_t CLayoutInfoG = -1;
  int32_t CLayoutInfoS2 = -1;
  int32_t BatchNum = -1;
  int32_t mxTypePara = -1;
  MatmulConfig cfg = CFG_NORM;
};

__aicore__ constexpr MatmulConfig ToMatmulConfig(const MatmulApiStaticTiling& t) { return t.cfg; }

namespace AscendC {
namespace Impl {
// The dav-2201 cube's memories (Ascend910B), which a constant tiling is computed for at compile
// time; the runtime checks the blocks against the running SoC's memories all the same.
constexpr int32_t L1_SIZE = 512 * 1024;
constexpr int32_t L0A_SIZE = 64 * 1024;
constexpr int32_t L0B_SIZE = 64 * 1024;
constexpr int32_t L0C_SIZE = 128 * 1024;
constexpr int32_t DB_ON = 2;
constexpr int32_t DB_OFF = 1;
constexpr int32_t QUEUE_DEPTH = 1;
}  // namespace Impl

namespace twin {
namespace matmul {

template <typename T>
constexpr bool kIsStaticTiling =
    std::is_same<std::remove_cv_t<std::remove_reference_t<T>>, MatmulApiStaticTiling>::value;

constexpr int32_t StaticCeil(int32_t a, int32_t b) { return (a + b - 1) / b; }

// How many baseK slices of A and B one L1 load holds: the largest count that, double buffered,
// fits baseM and baseN rows of both in l1Size, and no more than singleCoreK needs.
template <class A_TYPE, class B_TYPE>
constexpr int32_t StaticStepK(const MatmulConfig& c, int32_t l1Size) {
  const int32_t kSlices = StaticCeil(static_cast<int32_t>(c.singleCoreK), static_cast<int32_t>(c.basicK));
  const int32_t perSlice = 2 * static_cast<int32_t>(c.basicK) *
                           (static_cast<int32_t>(c.basicM * sizeof(typename A_TYPE::T)) +
                            static_cast<int32_t>(c.basicN * sizeof(typename B_TYPE::T)));
  int32_t step = perSlice > 0 ? l1Size / perSlice : 1;
  if (step > kSlices) step = kSlices;
  return step < 1 ? 1 : step;
}

// The fields of `fixed` that are not -1 replace those of `t`.
inline void ApplyStaticTiling(TCubeTiling& t, const MatmulApiStaticTiling& fixed) {
#define ASC_TWIN_STATIC_FIELD(name) \
  if (fixed.name != -1) t.name = fixed.name;
  ASC_TWIN_STATIC_FIELD(usedCoreNum)
  ASC_TWIN_STATIC_FIELD(M)
  ASC_TWIN_STATIC_FIELD(N)
  ASC_TWIN_STATIC_FIELD(Ka)
  ASC_TWIN_STATIC_FIELD(Kb)
  ASC_TWIN_STATIC_FIELD(singleCoreM)
  ASC_TWIN_STATIC_FIELD(singleCoreN)
  ASC_TWIN_STATIC_FIELD(singleCoreK)
  ASC_TWIN_STATIC_FIELD(baseM)
  ASC_TWIN_STATIC_FIELD(baseN)
  ASC_TWIN_STATIC_FIELD(baseK)
  ASC_TWIN_STATIC_FIELD(depthA1)
  ASC_TWIN_STATIC_FIELD(depthB1)
  ASC_TWIN_STATIC_FIELD(stepM)
  ASC_TWIN_STATIC_FIELD(stepN)
  ASC_TWIN_STATIC_FIELD(isBias)
  ASC_TWIN_STATIC_FIELD(transLength)
  ASC_TWIN_STATIC_FIELD(iterateOrder)
  ASC_TWIN_STATIC_FIELD(shareMode)
  ASC_TWIN_STATIC_FIELD(shareL1Size)
  ASC_TWIN_STATIC_FIELD(shareL0CSize)
  ASC_TWIN_STATIC_FIELD(shareUbSize)
  ASC_TWIN_STATIC_FIELD(stepKa)
  ASC_TWIN_STATIC_FIELD(stepKb)
  ASC_TWIN_STATIC_FIELD(depthAL1CacheUB)
  ASC_TWIN_STATIC_FIELD(depthBL1CacheUB)
  ASC_TWIN_STATIC_FIELD(dbL0A)
  ASC_TWIN_STATIC_FIELD(dbL0B)
  ASC_TWIN_STATIC_FIELD(dbL0C)
  ASC_TWIN_STATIC_FIELD(BatchNum)
#undef ASC_TWIN_STATIC_FIELD
}

}  // namespace matmul
}  // namespace twin

// A constant tiling from a MatmulConfig whose singleCore and basic shapes are set (GetMMConfig
// with MatmulShapeParams): the org shape is the single shape (SetOrgShape gives the real one),
// L1 holds double-buffered stepKa x baseK slices. With the single shape left 0, only the base
// block (and the L0 double buffering) is fixed and the runtime tiling gives the rest.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                              int32_t l1Size = Impl::L1_SIZE) {
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  const int32_t baseM = static_cast<int32_t>(mmCFG.basicM), baseN = static_cast<int32_t>(mmCFG.basicN),
                baseK = static_cast<int32_t>(mmCFG.basicK);
  const bool haveBase = baseM != 0 && baseN != 0 && baseK != 0;
  if (haveBase) {
    t.baseM = baseM;
    t.baseN = baseN;
    t.baseK = baseK;
    t.dbL0A = 2 * baseM * baseK * static_cast<int32_t>(sizeof(typename A_TYPE::T)) <= Impl::L0A_SIZE ? Impl::DB_ON
                                                                                                     : Impl::DB_OFF;
    t.dbL0B = 2 * baseN * baseK * static_cast<int32_t>(sizeof(typename B_TYPE::T)) <= Impl::L0B_SIZE ? Impl::DB_ON
                                                                                                     : Impl::DB_OFF;
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
  }
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0 || !haveBase) return t;
  t.M = t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  t.N = t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  t.stepM = 1;
  t.stepN = 1;
  t.stepKa = t.stepKb = twin::matmul::StaticStepK<A_TYPE, B_TYPE>(mmCFG, l1Size);
  t.depthA1 = t.stepKa * t.stepM * 2;
  t.depthB1 = t.stepKb * t.stepN * 2;
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
  t.dbL0C = 1;
  t.transLength = 0;
  t.shareMode = 0;
  t.shareL1Size = (t.depthA1 * baseM * static_cast<int32_t>(sizeof(typename A_TYPE::T)) +
                   t.depthB1 * baseN * static_cast<int32_t>(sizeof(typename B_TYPE::T))) *
                  baseK;
  t.shareL0CSize = baseM * baseN * static_cast<int32_t>(sizeof(float));
  t.shareUbSize = 0;
  (void)sizeof(C_TYPE);
  (void)sizeof(BIAS_TYPE);
  return t;
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_CONSTANT_TILING_H_
