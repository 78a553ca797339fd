// adv_api/matmul/matmul_intf.h: AscendC::Matmul and REGIST_MATMUL_OBJ.
//
// CANN splits a Matmul between the cores of a mixed kernel: the AIV block is a client sending
// messages, the AIC block runs a server loop (REGIST_MATMUL_OBJ starts it, then returns from the
// kernel on the AIC) that does the cube work. On the twin every block that calls Matmul computes
// its own part directly (the AIV block of a __mix__ kernel as well as a cube-only kernel's block),
// so REGIST_MATMUL_OBJ initialises each object with its tiling and, as CANN's, ends the kernel on
// the AIC of a mixed launch; Matmul is MatmulImpl whatever the core type.
//
// Without ASCENDC_CUBE_ONLY a kernel that uses Matmul and declares no type is a
// KERNEL_TYPE_MIX_AIC_1_2 kernel, as CANN's compiler makes it (the cube work on the AIC, the
// Matmul calls on the AIV): numBlocks core groups of one AIC and two AIVs, GetBlockIdx() on an AIV
// counting 2 x numBlocks. ASC_TWIN_UNDECLARED_KERNEL_TYPE carries that to the kernel's entry
// (asc_twin/kernel_entry.h).
#ifndef ASC_TWIN_ADV_API_MATMUL_MATMUL_INTF_H_
#define ASC_TWIN_ADV_API_MATMUL_MATMUL_INTF_H_

#include <type_traits>

#include "adv_api/matmul/matmul.h"
#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_state.h"
#include "kernel_legacy.h"  // GetSysWorkSpacePtr: samples include this header before kernel_operator.h
#include "kernel_tpipe.h"

#ifndef ASCENDC_CUBE_ONLY
#undef ASC_TWIN_UNDECLARED_KERNEL_TYPE
#define ASC_TWIN_UNDECLARED_KERNEL_TYPE ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_2
#endif

// Marks the GM workspace parameter a mixed kernel's Matmul uses (CANN's KFC); nothing on the twin.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

namespace twin {
namespace matmul {

__aicore__ inline void RegistMatmulObjects(TPipe*) {}

// (object, tiling pointer) pairs; a null tiling leaves the object for a later Init, as in CANN.
template <class MM, class TilingPtr, class... Rest>
__aicore__ inline void RegistMatmulObjects(TPipe* pipe, MM& mm, TilingPtr tiling, Rest&&... rest) {
  // A Matmul with a constant tiling (MatmulApiStaticTiling) is initialised with a null one too.
  if (tiling != nullptr || std::decay_t<MM>::kTwinStaticTiling)
    mm.Init(reinterpret_cast<const TCubeTiling*>(tiling), pipe);
  RegistMatmulObjects(pipe, rest...);
}

// The AIC block of a mixed launch: CANN's Matmul server, whose kernel ends in REGIST_MATMUL_OBJ.
__aicore__ inline bool IsMatmulServerBlock() {
#ifdef ASCENDC_CUBE_ONLY
  return false;  // the Matmul runs on the AIC itself
#else
  const ::AscendC::twin::BlockState& b = ::AscendC::twin::Block();
  return ::AscendC::twin::IsMixedKernel(b) && b.core_type == ASC_TWIN_CORE_AIC;
#endif
}

template <class... Pairs>
__aicore__ inline void RegistMatmulObj(TPipe* pipe, GM_ADDR workspace, Pairs&&... pairs) {
  (void)workspace;
  static_assert(sizeof...(Pairs) % 2 == 0, "REGIST_MATMUL_OBJ: pass each Matmul object with its tiling pointer");
  RegistMatmulObjects(pipe, pairs...);
}

}  // namespace matmul
}  // namespace twin

#define REGIST_CUBE_OBJ(tpipe, workspace, ...)                             \
  ::AscendC::twin::matmul::RegistMatmulObj(tpipe, workspace, __VA_ARGS__); \
  if (::AscendC::twin::matmul::IsMatmulServerBlock()) return
#define REGIST_MATMUL_OBJ_STATIC REGIST_CUBE_OBJ
#define REGIST_MATMUL_OBJ REGIST_CUBE_OBJ

}  // namespace AscendC

// Matmul kernels call it unqualified at global scope, as CANN's samples do.
using AscendC::GetSysWorkSpacePtr;

#endif  // ASC_TWIN_ADV_API_MATMUL_MATMUL_INTF_H_
