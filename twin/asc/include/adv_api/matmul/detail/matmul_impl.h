// MatmulImpl: the Matmul high-level API on the twin. One object computes its core's part
// (singleCoreM x singleCoreN over singleCoreK) block by block, as the cube does: baseM x baseN
// accumulators (L0C, float or int32_t, the bias loaded first), K in baseK steps whose A and B
// blocks are packed (the twin's L0A/L0B) and multiplied by the cube micro-kernel
// (asc_twin/cube_gemm.h), then each block converted once on the way out (Fixpipe's conversion,
// asc_twin/cube_fixpipe.h: round to nearest even, quantisation, ReLU) and written to GM or a
// local tensor. Every check traps with one line naming the call and the cause.
#ifndef ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_IMPL_H_
#define ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_IMPL_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "adv_api/matmul/detail/matmul_operand.h"
#include "adv_api/matmul/detail/matmul_pack.h"
#include "adv_api/matmul/detail/matmul_sparse.h"
#include "adv_api/matmul/constant_tiling.h"
#include "adv_api/matmul/matmul_type.h"
#include "adv_api/matmul/policy/matmul_policy.h"
#include "adv_api/matmul/tiling.h"
#include "asc_twin/atomic_gm.h"
#include "asc_twin/block_state.h"
#include "asc_twin/core_buffers.h"
#include "asc_twin/cube_fixpipe.h"
#include "asc_twin/trap.h"
#include "kernel_tensor.h"
#include "kernel_tpipe.h"

namespace AscendC {
namespace twin {
namespace matmul {
// A batch count argument of IterateBatch (an integer that is not a bool).
template <typename T>
constexpr bool kBatchCount = std::is_integral<T>::value && !std::is_same<T, bool>::value;
}  // namespace matmul
}  // namespace twin

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy),
          typename = void>
class MatmulImpl {
 public:
  using AType = A_TYPE;
  using BType = B_TYPE;
  using CType = C_TYPE;
  using BiasType = BIAS_TYPE;
  using CallBack = MM_CB;

 private:
  using SrcT = typename A_TYPE::T;
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = twin::matmul::AccType<SrcAT>;
  static constexpr MatmulConfig kConfig = ToMatmulConfig(MM_CFG);
  using Policy = MATMUL_POLICY<MM_CFG, MatmulImpl, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>;
  static constexpr bool WantBlock(uint32_t m, uint32_t n) { return Impl::Detail::TwinWantsBlock<Policy>(m, n); }
  static_assert(std::is_same<L0cT, twin::matmul::AccType<SrcBT>>::value,
                "Matmul: A and B must both be floating (half, bfloat16_t, float) or both int8_t");

 public:
  // A constant tiling (MM_CFG a MatmulApiStaticTiling) lets Init take a null tiling.
  static constexpr bool kTwinStaticTiling = twin::matmul::kIsStaticTiling<decltype(MM_CFG)>;
  static constexpr bool kSparseB = twin::matmul::IsSparseB<B_TYPE>::value;

  __aicore__ inline MatmulImpl() {}

  __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr) {
    (void)tpipe;
    if (cubeTiling == nullptr && !kTwinStaticTiling) twin::RaiseTrap("Matmul::Init: the tiling pointer is null");
    tiling_ = cubeTiling != nullptr ? *cubeTiling : TCubeTiling{};
    if constexpr (kTwinStaticTiling) twin::matmul::ApplyStaticTiling(tiling_, MM_CFG);
    CheckTiling();
    orgM_ = tiling_.M;
    orgN_ = tiling_.N;
    orgKa_ = tiling_.Ka;
    orgKb_ = tiling_.Kb;
    orgKc_ = 0;
    singleM_ = tiling_.singleCoreM;
    singleN_ = tiling_.singleCoreN;
    singleK_ = tiling_.singleCoreK;
    ldAcc_ = AlignUp(static_cast<uint32_t>(tiling_.baseN), twin::cube::kTileCols);
    acc_.assign(static_cast<size_t>(tiling_.baseM) * ldAcc_, L0cT(0));
    aPanel_.assign(static_cast<size_t>(tiling_.baseM) * tiling_.baseK, L0cT(0));
    bPanel_.assign(static_cast<size_t>(ldAcc_) * tiling_.baseK, L0cT(0));
    rowScratch_.assign(static_cast<size_t>(tiling_.baseK) + twin::cube::kTileCols, L0cT(0));
    inited_ = true;
    iterating_ = false;
  }

  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0 || orgKc < 0) {
      twin::RaiseTrap("Matmul::SetOrgShape: (%d, %d, %d, %d, %d) has a dim that is not positive", orgM, orgN, orgKa,
                      orgKb, orgKc);
    }
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb;
    orgKc_ = orgKc;
  }
  __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK) {
    if (singleM <= 0 || singleN <= 0 || singleK <= 0) {
      twin::RaiseTrap("Matmul::SetSingleShape: (%d, %d, %d) has a dim that is not positive", singleM, singleN, singleK);
    }
    singleM_ = singleM;
    singleN_ = singleN;
    singleK_ = singleK;
    iterating_ = false;
  }
  __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    const int m = tailM > 0 ? tailM : singleM_, n = tailN > 0 ? tailN : singleN_, k = tailK > 0 ? tailK : singleK_;
    // A constant tiling's single shape is the kernel's compile-time guess (GetMMConfig's
    // MatmulShapeParams), not a bound: CANN's samples set larger tails on it.
    if (!kTwinStaticTiling && (m > tiling_.singleCoreM || n > tiling_.singleCoreN || k > tiling_.singleCoreK)) {
      twin::RaiseTrap("Matmul::SetTail: (%d, %d, %d) is larger than the tiling's singleCore (%d, %d, %d)", m, n, k,
                      tiling_.singleCoreM, tiling_.singleCoreN, tiling_.singleCoreK);
    }
    singleM_ = m;
    singleN_ = n;
    singleK_ = k;
    iterating_ = false;
  }

  __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    SetGm(a_, gm, isTransposeA, A_TYPE::format);
  }
  __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    SetGm(b_, gm, isTransposeB, B_TYPE::format);
  }
  __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false) {
    SetLocal(a_, leftMatrix, isTransposeA, A_TYPE::format);
  }
  __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false) {
    SetLocal(b_, rightMatrix, isTransposeB, B_TYPE::format);
  }
  // A sparse B's index (B_TYPE a SparseMatmulType): NZ fractals of 16 rows x 8 bytes.
  __aicore__ inline void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal) {
    static_assert(kSparseB, "Matmul::SetSparseIndex: B_TYPE must be a SparseMatmulType");
    sparse_.index = reinterpret_cast<const uint8_t*>(indexGlobal.GetPhyAddr());
    sparse_.indexBytes = indexGlobal.GetSize();
    iterating_ = false;
  }
  __aicore__ inline void SetTensorA(SrcAT aScalar) { SetScalar(a_, aScalar); }
  __aicore__ inline void SetTensorB(SrcBT bScalar) { SetScalar(b_, bScalar); }

  __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
    bias_ = reinterpret_cast<const BiasT*>(biasGlobal.GetPhyAddr());
    biasGmElements_ = biasGlobal.GetSize();
    biasInGm_ = true;
    biasOn_ = true;
  }
  __aicore__ inline void SetBias(const LocalTensor<BiasT>& inputBias) {
    bias_ = reinterpret_cast<const BiasT*>(inputBias.GetPhyAddr() +
                                           twin::LocalMemoryOf(static_cast<TPosition>(inputBias.GetPosition())).base);
    biasGmElements_ = inputBias.GetSize();
    biasInGm_ = false;
    biasOn_ = true;
  }
  __aicore__ inline void DisableBias() { biasOn_ = false; }
  __aicore__ inline void ClearBias() { biasOn_ = false; }

  template <class T>
  __aicore__ inline void SetSelfDefineData(T dataPtr) {
    selfDefineData_ = static_cast<uint64_t>(dataPtr);
  }
  __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr) { userDefInfo_ = tilingPtr; }

  __aicore__ inline void SetQuantScalar(const uint64_t quantScalar) {
    quantScalar_ = quantScalar;
    quantVector_ = nullptr;
    quantSet_ = true;
  }
  __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
    quantVector_ = reinterpret_cast<const uint64_t*>(quantTensor.GetPhyAddr());
    quantSet_ = true;
  }
  __aicore__ inline void SetQuantVector(const LocalTensor<uint64_t>& quantTensor) {
    quantVector_ = reinterpret_cast<const uint64_t*>(
        quantTensor.GetPhyAddr() + twin::LocalMemoryOf(static_cast<TPosition>(quantTensor.GetPosition())).base);
    quantSet_ = true;
  }
  __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB) {
    if (batchA <= 0 || batchB <= 0) twin::RaiseTrap("Matmul::SetBatchNum: (%d, %d) must be positive", batchA, batchB);
    batchA_ = batchA;
    batchB_ = batchB;
  }

  // One baseM x baseN block of C per call, in the tiling's iterateOrder; false when all are done.
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum = false) {
    if (!iterating_) {
      Prepare("Matmul::Iterate");
      iterating_ = true;
      blockIndex_ = 0;
    } else {
      ++blockIndex_;
    }
    const bool orderN = IterateOrderN();
    for (;; ++blockIndex_) {
      if (blockIndex_ >= mIter_ * nIter_) {
        iterating_ = false;
        return false;
      }
      curM_ = orderN ? blockIndex_ / nIter_ : blockIndex_ % mIter_;
      curN_ = orderN ? blockIndex_ % nIter_ : blockIndex_ / mIter_;
      if (WantBlock(curM_, curN_)) break;
    }
    ComputeBlock(curM_, curN_, enPartialSum);
    haveBlock_ = true;
    blockTaken_ = false;
    return true;
  }

  // Iterate that leaves the block in the caller's L0C tensor (C_TYPE at CO1, NZ): 16 x 16
  // fractals, a column of them AlignUp(block rows, 16) rows high, as the cube's Mmad leaves it;
  // the caller's Fixpipe takes it from there.
  template <bool sync = true>
  __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<L0cT>& localCmatrix) {
    static_assert(C_TYPE::pos == TPosition::CO1, "Matmul::Iterate(enPartialSum, l0c): C must be at TPosition::CO1");
    if (static_cast<TPosition>(localCmatrix.GetPosition()) != TPosition::CO1)
      twin::RaiseTrap("Matmul::Iterate: the output tensor is not at TPosition::CO1 (L0C)");
    if (!Iterate<sync>(enPartialSum)) return false;
    const uint32_t rows = BlockRows(curM_), cols = BlockCols(curN_), nzRows = AlignUp(rows, 16);
    const uint64_t need = uint64_t(AlignUp(cols, 16)) * nzRows;
    if (need > localCmatrix.GetSize()) {
      twin::RaiseTrap("Matmul::Iterate: the L0C block needs %llu elements of the LocalTensor, which holds %u",
                      (unsigned long long)need, localCmatrix.GetSize());
    }
    L0cT* dst = reinterpret_cast<L0cT*>(LocalBytes(localCmatrix));
    for (uint32_t i = 0; i < nzRows; ++i) {
      for (uint32_t j = 0; j < AlignUp(cols, 16); ++j) {
        const L0cT v = (i < rows && j < cols) ? acc_[uint64_t(i) * ldAcc_ + j] : L0cT(0);
        dst[uint64_t(j / 16) * nzRows * 16 + uint64_t(i) * 16 + j % 16] = v;
      }
    }
    return true;
  }

  template <bool sync = true>
  __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                    bool waitIterateAll = false, bool fakeMsg = false) {
    (void)waitIterateAll;
    (void)fakeMsg;
    Prepare("Matmul::IterateAll");
    DstView out = GmOut("Matmul::IterateAll", gm, enSequentialWrite);
    for (uint32_t n = 0; n < nIter_; ++n) {
      for (uint32_t m = 0; m < mIter_; ++m) {
        if (!WantBlock(m, n)) continue;
        ComputeBlock(m, n, false);
        WriteBlock(out, m * tiling_.baseM, n * tiling_.baseN, m, n, enAtomic);
      }
    }
    if (!sync) asyncPending_ = true;
  }

  template <bool sync = true>
  __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
    Prepare("Matmul::IterateAll");
    DstView out = LocalOut("Matmul::IterateAll", ubCmatrix, singleM_, singleN_);
    for (uint32_t n = 0; n < nIter_; ++n) {
      for (uint32_t m = 0; m < mIter_; ++m) {
        if (!WantBlock(m, n)) continue;
        ComputeBlock(m, n, false);
        WriteBlock(out, m * tiling_.baseM, n * tiling_.baseN, m, n, enAtomic);
      }
    }
    if (!sync) asyncPending_ = true;
  }

  // IterateAll<false> computed in place on the twin; the wait checks it was started.
  __aicore__ inline void WaitIterateAll() {
    if (!asyncPending_) twin::RaiseTrap("Matmul::WaitIterateAll: no IterateAll<false> is pending");
    asyncPending_ = false;
  }

  __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
    (void)enSequentialWrite;
    RunBatch("Matmul::IterateBatch", gm.GetPhyAddr(), gm.GetSize(), true, enPartialSum, enAtomic, matrixStrideA,
             matrixStrideB, matrixStrideC);
  }
  __aicore__ inline void IterateBatch(const LocalTensor<DstT>& ubCmatrix, bool enPartialSum, uint8_t enAtomic,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
    (void)enSequentialWrite;
    RunBatch("Matmul::IterateBatch", reinterpret_cast<DstT*>(LocalBytes(ubCmatrix)), ubCmatrix.GetSize(), false,
             enPartialSum, enAtomic, matrixStrideA, matrixStrideB, matrixStrideC);
  }
  // CANN's AIV-side form: batchA / batchB matrices of A and B in this call (the smaller repeats).
  // A template on the counts so that (gm, 3, 3, false) picks it and (gm, false, 0, false) the
  // enPartialSum form above, as each reads.
  template <bool sync = true, bool waitIterateBatch = false, typename BatchA, typename BatchB,
            typename = std::enable_if_t<twin::matmul::kBatchCount<BatchA> && twin::matmul::kBatchCount<BatchB>>>
  __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, BatchA batchA, BatchB batchB,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    (void)enSequentialWrite;
    RunBatch("Matmul::IterateBatch", gm.GetPhyAddr(), gm.GetSize(), true, enPartialSum, enAtomic, matrixStrideA,
             matrixStrideB, matrixStrideC, BatchCount("Matmul::IterateBatch", batchA),
             BatchCount("Matmul::IterateBatch", batchB));
  }
  template <bool sync = true, typename BatchA, typename BatchB,
            typename = std::enable_if_t<twin::matmul::kBatchCount<BatchA> && twin::matmul::kBatchCount<BatchB>>>
  __aicore__ inline void IterateBatch(const LocalTensor<DstT>& ubCmatrix, BatchA batchA, BatchB batchB,
                                      bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                                      const bool enPartialSum = false, const uint8_t enAtomic = 0) {
    (void)enSequentialWrite;
    RunBatch("Matmul::IterateBatch", reinterpret_cast<DstT*>(LocalBytes(ubCmatrix)), ubCmatrix.GetSize(), false,
             enPartialSum, enAtomic, matrixStrideA, matrixStrideB, matrixStrideC,
             BatchCount("Matmul::IterateBatch", batchA), BatchCount("Matmul::IterateBatch", batchB));
  }
  __aicore__ inline void WaitIterateBatch() {}

  template <bool sync = true>
  __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    NextAsyncBlock<sync>();
    RequireBlock("Matmul::GetTensorC");
    DstView out = LocalOut("Matmul::GetTensorC", co2Local, static_cast<uint32_t>(tiling_.baseM),
                           static_cast<uint32_t>(tiling_.baseN));
    WriteBlock(out, 0, 0, curM_, curN_, enAtomic);
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                    bool enSequentialWrite = false) {
    NextAsyncBlock<sync>();
    RequireBlock("Matmul::GetTensorC");
    DstView out = GmOut("Matmul::GetTensorC", gm, enSequentialWrite);
    if (enSequentialWrite) {
      WriteBlock(out, 0, 0, curM_, curN_, enAtomic);
    } else {
      WriteBlock(out, curM_ * tiling_.baseM, curN_ * tiling_.baseN, curM_, curN_, enAtomic);
    }
  }
  template <bool sync = true>
  __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                    uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
    GetTensorC<true>(co2Local, enAtomic, enSequentialWrite);  // the same block again
  }

  template <bool isTurnOnDebug = true>
  __aicore__ inline MatrixOffset GetOffsetC() {
    MatrixOffset o{};
    o.row = static_cast<int32_t>(curM_ * tiling_.baseM);
    o.col = static_cast<int32_t>(curN_ * tiling_.baseN);
    o.height = static_cast<int32_t>(BlockRows(curM_));
    o.width = static_cast<int32_t>(BlockCols(curN_));
    o.offset = o.row * static_cast<int32_t>(OutLd()) + o.col;
    return o;
  }

  __aicore__ inline void End() {
    iterating_ = false;
    haveBlock_ = false;
  }
  __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
    hf32_ = enableHF32;
    hf32TiesToZero_ = transMode != 0;
  }
  __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
  __aicore__ inline uint8_t GetSubBlockIdx() { return subBlockIdx_; }
  template <class T>
  __aicore__ inline void SetWorkspace(__gm__ const T* addr, int size) {
    (void)addr;
    (void)size;
  }
  template <class T>
  __aicore__ inline void SetWorkspace(GlobalTensor<T>& addr) {
    (void)addr;
  }
  __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer) { (void)tmpBuffer; }

 private:
  // Where results go: ND rows ld apart, or NZ fractals (C0 columns, nzRows rows per column).
  struct DstView {
    DstT* base = nullptr;
    uint64_t ld = 0;
    bool nz = false;
    uint64_t nzRows = 0;
    bool sequential = false;
  };

  template <typename T>
  static int32_t BatchCount(const char* api, T n) {
    if (n <= 0 || static_cast<uint64_t>(n) > 0x7FFFFFFFu) {
      twin::RaiseTrap("%s: batchA / batchB (%lld) must be positive", api, static_cast<long long>(n));
    }
    return static_cast<int32_t>(n);
  }
  static uint32_t AlignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
  static uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

  template <typename T>
  static uint8_t* LocalBytes(const LocalTensor<T>& t) {
    return twin::LocalMemoryOf(static_cast<TPosition>(t.GetPosition())).base + t.GetPhyAddr();
  }

  void CheckTiling() const {
    const TCubeTiling& t = tiling_;
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.baseM % 16 != 0 || t.baseN % 16 != 0) {
      twin::RaiseTrap(
          "Matmul::Init: the tiling's base block %dx%dx%d is not positive multiples of 16 (was GetTiling's "
          "result copied?)",
          t.baseM, t.baseN, t.baseK);
    }
    if (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0) {
      twin::RaiseTrap("Matmul::Init: the tiling's singleCore %dx%dx%d has a dim that is not positive", t.singleCoreM,
                      t.singleCoreN, t.singleCoreK);
    }
    const uint64_t l0a = uint64_t(t.baseM) * t.baseK * sizeof(SrcAT), l0b = uint64_t(t.baseN) * t.baseK * sizeof(SrcBT);
    const uint64_t l0c = uint64_t(t.baseM) * t.baseN * sizeof(L0cT);
    // The fit is checked against the running block's memories where it has them (a vector-only or
    // AIC block); an AIV block of a mixed kernel has no L0/L1 of its own and trusts the host
    // tiling, which GetTiling fitted to the SoC's cube (the twin computes Matmul on the caller).
    using twin::CoreBuffer;
    const uint64_t have_l0a = twin::BlockMemoryBytes(CoreBuffer::L0A),
                   have_l0b = twin::BlockMemoryBytes(CoreBuffer::L0B);
    const uint64_t have_l0c = twin::BlockMemoryBytes(CoreBuffer::L0C), have_l1 = twin::BlockMemoryBytes(CoreBuffer::L1);
    if (have_l0a != 0 && have_l0b != 0 && have_l0c != 0 && (l0a > have_l0a || l0b > have_l0b || l0c > have_l0c)) {
      twin::RaiseTrap(
          "Matmul::Init: base blocks %dx%d (A), %dx%d (B), %dx%d (C) need %llu/%llu/%llu bytes of "
          "L0A/L0B/L0C, more than the core's %llu/%llu/%llu",
          t.baseM, t.baseK, t.baseK, t.baseN, t.baseM, t.baseN, (unsigned long long)l0a, (unsigned long long)l0b,
          (unsigned long long)l0c, (unsigned long long)have_l0a, (unsigned long long)have_l0b,
          (unsigned long long)have_l0c);
    }
    const uint64_t l1 = uint64_t(t.depthA1 > 0 ? t.depthA1 : 1) * l0a + uint64_t(t.depthB1 > 0 ? t.depthB1 : 1) * l0b;
    if (have_l1 != 0 && l1 > have_l1) {
      twin::RaiseTrap(
          "Matmul::Init: depthA1 %d and depthB1 %d base blocks need %llu bytes of L1, more than the "
          "core's %llu",
          t.depthA1, t.depthB1, (unsigned long long)l1, (unsigned long long)have_l1);
    }
  }

  template <typename T>
  void SetGm(twin::matmul::Operand<T>& op, const GlobalTensor<T>& gm, bool transposed, CubeFormat format) {
    op = twin::matmul::Operand<T>();
    op.base = reinterpret_cast<const T*>(gm.GetPhyAddr());
    op.gmElements = gm.GetSize();
    op.inGm = true;
    op.transposed = transposed;
    op.nz = twin::matmul::IsNzFormat(format);
    op.set = true;
    iterating_ = false;
  }
  template <typename T>
  void SetLocal(twin::matmul::Operand<T>& op, const LocalTensor<T>& t, bool transposed, CubeFormat format) {
    op = twin::matmul::Operand<T>();
    op.base = reinterpret_cast<const T*>(LocalBytes(t));
    op.gmElements = t.GetSize();
    op.inGm = false;
    op.transposed = transposed;
    op.nz = twin::matmul::IsNzFormat(format);
    op.set = true;
    iterating_ = false;
  }
  template <typename T>
  void SetScalar(twin::matmul::Operand<T>& op, T value) {
    op = twin::matmul::Operand<T>();
    op.scalar = true;
    op.value = value;
    op.set = true;
    iterating_ = false;
  }

  // Row strides and NZ heights: a GM operand's from the org shape, a local one's from the single
  // shape with rows padded to 32 bytes (what DataCopyPad leaves in the UB / L1).
  template <typename T>
  static void Resolve(twin::matmul::Operand<T>& op, uint64_t gmRows, uint64_t gmCols, uint64_t localRows,
                      uint64_t localCols) {
    const uint64_t rows = op.inGm ? gmRows : localRows, cols = op.inGm ? gmCols : localCols;
    op.ld = op.inGm ? cols : (cols + op.kC0 - 1) / op.kC0 * op.kC0;
    op.nzRows = (rows + 15) / 16 * 16;
  }

  template <typename T>
  static void CheckOperand(const char* api, const char* name, const twin::matmul::Operand<T>& op, uint64_t rows,
                           uint64_t cols) {
    const uint64_t need = op.Extent(rows, cols);
    if (op.gmElements != 0 && need > op.gmElements) {
      twin::RaiseTrap(
          "%s: %s needs %llu elements from its tensor, which holds %llu (shapes larger than the "
          "tensor?)",
          api, name, (unsigned long long)need, (unsigned long long)op.gmElements);
    }
    if (op.inGm && need != 0) twin::CheckGm(api, op.base, twin::ElemBytes<T>(need));
  }

  void Prepare(const char* api) {
    if (!inited_) twin::RaiseTrap("%s: the Matmul object was not initialised (REGIST_MATMUL_OBJ or Init)", api);
    if (!a_.set) twin::RaiseTrap("%s: SetTensorA was not called before %s", api, api + 8);
    if (!b_.set) twin::RaiseTrap("%s: SetTensorB was not called before %s", api, api + 8);
    if (singleM_ > orgM_ || singleN_ > orgN_ || singleK_ > orgKa_ || singleK_ > orgKb_) {
      twin::RaiseTrap("%s: the single shape M=%d N=%d K=%d is larger than the org shape M=%d N=%d Ka=%d Kb=%d", api,
                      singleM_, singleN_, singleK_, orgM_, orgN_, orgKa_, orgKb_);
    }
    if (!std::is_same<DstT, L0cT>::value && std::is_same<L0cT, int32_t>::value && !quantSet_) {
      twin::RaiseTrap("%s: an int32 result converted to a narrower C needs SetQuantScalar or SetQuantVector first",
                      api);
    }
    if constexpr (kSparseB) sparse_.Expand(api, b_, singleK_, singleN_, orgN_, orgKb_);
    // A is M x K: stored M x Ka, or Ka x M transposed; B is K x N: stored Kb x N, or N x Kb.
    if (a_.transposed)
      Resolve(a_, orgKa_, orgM_, singleK_, singleM_);
    else
      Resolve(a_, orgM_, orgKa_, singleM_, singleK_);
    if (b_.transposed)
      Resolve(b_, orgN_, orgKb_, singleN_, singleK_);
    else
      Resolve(b_, orgKb_, orgN_, singleK_, singleN_);
    if (aLd_ != 0) a_.ld = aLd_;  // a BSNGD batch (RunBatch)
    if (bLd_ != 0) b_.ld = bLd_;
    CheckOperand(api, "A", a_, singleM_, singleK_);
    CheckOperand(api, "B", b_, singleK_, singleN_);
    if (biasOn_) {
      if (biasGmElements_ != 0 && biasGmElements_ < static_cast<uint64_t>(singleN_)) {
        twin::RaiseTrap("%s: the bias needs %d elements, its tensor holds %llu", api, singleN_,
                        (unsigned long long)biasGmElements_);
      }
      if (biasInGm_) twin::CheckGm(api, bias_, static_cast<uint64_t>(singleN_) * sizeof(BiasT));
    }
    mIter_ = CeilDiv(singleM_, tiling_.baseM);
    nIter_ = CeilDiv(singleN_, tiling_.baseN);
  }

  // The asynchronous form: one Iterate<false>() starts every block, and each GetTensorC<false>
  // fetches the next in iterateOrder (asc-devkit's matmul_fused). Here the blocks are computed
  // one fetch at a time: a fetch after the current block was taken moves on to the next one.
  // In a `while (Iterate<false>())` loop every Iterate already moved on, so nothing changes.
  template <bool sync>
  void NextAsyncBlock() {
    if (!sync && blockTaken_ && iterating_ && !Iterate<true>()) {
      twin::RaiseTrap("Matmul::GetTensorC: every block of the asynchronous Iterate was fetched already");
    }
    blockTaken_ = true;
  }

  bool IterateOrderN() const {
    if (kConfig.iterateOrder != IterateOrder::UNDEF) return kConfig.iterateOrder == IterateOrder::ORDER_N;
    return tiling_.iterateOrder == 1;
  }
  uint32_t BlockRows(uint32_t m) const {
    const uint32_t left = singleM_ - m * tiling_.baseM;
    return left < uint32_t(tiling_.baseM) ? left : tiling_.baseM;
  }
  uint32_t BlockCols(uint32_t n) const {
    const uint32_t left = singleN_ - n * tiling_.baseN;
    return left < uint32_t(tiling_.baseN) ? left : tiling_.baseN;
  }
  uint64_t OutLd() const {
    const uint64_t n = orgKc_ > 0 ? orgKc_ : orgN_;
    if (C_TYPE::format == CubeFormat::ND_ALIGN) {
      constexpr uint64_t c0 = 32 / sizeof(DstT);
      return (n + c0 - 1) / c0 * c0;
    }
    return n;
  }

  // acc = bias (or 0, or what it held with enPartialSum) + A(block m) x B(block n) over singleK.
  void ComputeBlock(uint32_t m, uint32_t n, bool enPartialSum) {
    const uint32_t rows = BlockRows(m), cols = BlockCols(n), colsPad = AlignUp(cols, twin::cube::kTileCols);
    const uint64_t m0 = uint64_t(m) * tiling_.baseM, n0 = uint64_t(n) * tiling_.baseN;
    if (!enPartialSum) {
      for (uint32_t i = 0; i < rows; ++i) {
        L0cT* row = acc_.data() + uint64_t(i) * ldAcc_;
        for (uint32_t j = 0; j < colsPad; ++j) row[j] = (biasOn_ && j < cols) ? BiasValue(n0 + j) : L0cT(0);
      }
    }
    for (uint32_t k0 = 0; k0 < uint32_t(singleK_); k0 += tiling_.baseK) {
      const uint32_t depth = singleK_ - k0 < uint32_t(tiling_.baseK) ? singleK_ - k0 : tiling_.baseK;
      twin::matmul::PackA(a_, m0, k0, rows, depth, aPanel_.data(), rowScratch_.data());
      twin::matmul::PackB(b_, k0, n0, depth, cols, bPanel_.data(), rowScratch_.data());
      if constexpr (std::is_same<L0cT, float>::value && std::is_same<SrcAT, float>::value) {
        if (hf32_) RoundPanelsToHf32(rows, colsPad, depth);
      }
      twin::matmul::MultiplyPanels(aPanel_.data(), bPanel_.data(), rows, colsPad, depth, acc_.data(), ldAcc_);
    }
  }

  void RoundPanelsToHf32(uint32_t rows, uint32_t colsPad, uint32_t depth) {
    for (uint64_t i = 0; i < uint64_t(rows) * depth; ++i) aPanel_[i] = twin::RoundToHf32(aPanel_[i], hf32TiesToZero_);
    for (uint64_t i = 0; i < uint64_t(colsPad) * depth; ++i)
      bPanel_[i] = twin::RoundToHf32(bPanel_[i], hf32TiesToZero_);
  }

  L0cT BiasValue(uint64_t j) const {
    if constexpr (std::is_same<L0cT, int32_t>::value) {
      if constexpr (std::is_same<BiasT, int32_t>::value)
        return bias_[j];
      else
        return static_cast<int32_t>(twin::CubeToFloat(bias_[j]));
    } else {
      if constexpr (std::is_same<BiasT, int32_t>::value)
        return static_cast<float>(bias_[j]);
      else
        return twin::CubeToFloat(bias_[j]);
    }
  }

  void RequireBlock(const char* api) const {
    if (!haveBlock_ || !iterating_)
      twin::RaiseTrap("%s: no block was computed (call Iterate first, and only while it returns true)", api);
  }

  DstView GmOut(const char* api, const GlobalTensor<DstT>& gm, bool sequential) const {
    DstView v;
    v.base = reinterpret_cast<DstT*>(gm.GetPhyAddr());
    v.sequential = sequential;
    v.nz = C_TYPE::format == CubeFormat::NZ;
    v.ld = sequential ? tiling_.baseN : OutLd();
    v.nzRows = sequential ? tiling_.baseM : (uint64_t(orgM_) + 15) / 16 * 16;
    const uint64_t rows = sequential ? tiling_.baseM : singleM_, cols = sequential ? tiling_.baseN : singleN_;
    const uint64_t need = v.nz ? NzExtent(v, rows, cols) : (rows - 1) * v.ld + cols;
    if (gm.GetSize() != 0 && need > gm.GetSize()) {
      twin::RaiseTrap("%s: C needs %llu elements from its GlobalTensor, which holds %llu", api,
                      (unsigned long long)need, (unsigned long long)gm.GetSize());
    }
    twin::CheckGm(api, v.base, need * sizeof(DstT));
    return v;
  }
  // Columns of an NZ C fractal: 32 bytes of int8, else 16; a float C with isEnableChannelSplit
  // in 16 x 8 fractals (32 bytes a row), as CANN writes it then.
  static uint64_t NzC0() {
    if (sizeof(DstT) == 4 && kConfig.isEnableChannelSplit) return 8;
    return sizeof(DstT) == 1 ? 32 : 16;
  }
  static uint64_t NzExtent(const DstView& v, uint64_t rows, uint64_t cols) {
    return ((cols - 1) / NzC0()) * v.nzRows * NzC0() + (rows - 1) * NzC0() + (cols - 1) % NzC0() + 1;
  }
  DstView LocalOut(const char* api, const LocalTensor<DstT>& t, uint32_t rows, uint32_t cols) const {
    DstView v;
    v.base = reinterpret_cast<DstT*>(LocalBytes(t));
    v.nz = C_TYPE::format == CubeFormat::NZ;
    constexpr uint32_t c0 = 32 / sizeof(DstT);
    v.ld = AlignUp(cols, c0);  // ND rows padded to 32 bytes, as the UB keeps them
    v.nzRows = AlignUp(rows, 16);
    const uint64_t need = v.nz ? NzExtent(v, rows, cols) : uint64_t(rows - 1) * v.ld + cols;
    if (need > t.GetSize()) {
      twin::RaiseTrap("%s: C needs %llu elements of the LocalTensor, which holds %u", api, (unsigned long long)need,
                      t.GetSize());
    }
    return v;
  }

  // Fixpipe: block (m, n) of acc converted once to DstT, stored at (row0, col0) of out.
  void WriteBlock(const DstView& out, uint64_t row0, uint64_t col0, uint32_t m, uint32_t n, uint8_t enAtomic) {
    const uint32_t rows = BlockRows(m), cols = BlockCols(n);
    if (enAtomic != 0) twin::StartAccumulating();  // after the other blocks' prologues (atomic_gm.h)
    twin::cube::FixpipeShape shape{};
    shape.relu = kConfig.enableRelu;
    shape.quant = QuantMode();
    shape.scalar = quantScalar_;
    shape.perColumn = quantVector_ != nullptr ? quantVector_ + uint64_t(n) * tiling_.baseN : nullptr;
    for (uint32_t i = 0; i < rows; ++i) {
      const L0cT* src = acc_.data() + uint64_t(i) * ldAcc_;
      if (!out.nz && enAtomic == 0 && std::is_same<DstT, L0cT>::value && !shape.relu) {
        std::memcpy(out.base + (row0 + i) * out.ld + col0, src, cols * sizeof(DstT));
        continue;
      }
      for (uint32_t j = 0; j < cols; ++j) {
        const DstT v = twin::cube::ConvertOut<DstT, L0cT>(src[j], j, shape);
        const uint64_t r = row0 + i, c = col0 + j;
        DstT* dst = out.nz ? out.base + (c / NzC0()) * out.nzRows * NzC0() + r * NzC0() + c % NzC0()
                           : out.base + r * out.ld + c;
        if (enAtomic == 0)
          *dst = v;
        else
          AtomicStore(dst, v, enAtomic);
      }
    }
  }

  // enAtomic 1/2/3: add / max / min into what C holds, safe against other blocks doing the same.
  static void AtomicStore(DstT* dst, DstT in, uint8_t op) {
    using Bits = twin::AtomicBits<DstT>;
    Bits* word = reinterpret_cast<Bits*>(dst);
    Bits expected = __atomic_load_n(word, __ATOMIC_RELAXED);
    for (;;) {
      DstT old;
      std::memcpy(&old, &expected, sizeof(DstT));
      const DstT next = twin::AtomicCombine(op, old, in);
      Bits desired;
      std::memcpy(&desired, &next, sizeof(DstT));
      if (__atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
    }
  }

  QuantMode_t QuantMode() const {
    const bool vec = quantVector_ != nullptr;
    if constexpr (std::is_same<DstT, L0cT>::value) {
      return NoQuant;
    } else if constexpr (std::is_same<L0cT, float>::value) {
      if constexpr (std::is_same<DstT, half>::value)
        return F322F16;
      else if constexpr (std::is_same<DstT, bfloat16_t>::value)
        return F322BF16;
      else
        return vec ? VQF322B8_PRE : QF322B8_PRE;
    } else {
      if constexpr (std::is_same<DstT, half>::value)
        return vec ? VDEQF16 : DEQF16;
      else
        return vec ? VREQ8 : REQ8;
    }
  }

  // One batch after another: A, B, C (and the bias when isBiasBatch) advance by a whole matrix
  // (or the given strides); the smaller of batchA / batchB repeats (broadcast).
  // callA / callB: the counts the call names (0: SetBatchNum's, else the tiling's).
  void RunBatch(const char* api, DstT* c, uint64_t cElements, bool cInGm, bool enPartialSum, uint8_t enAtomic,
                uint32_t strideA, uint32_t strideB, uint32_t strideC, int32_t callA = 0, int32_t callB = 0) {
    const int32_t batchA = callA > 0 ? callA : batchA_ > 0 ? batchA_ : (tiling_.batchM > 0 ? tiling_.batchM : 1);
    const int32_t batchB = callB > 0 ? callB : batchB_ > 0 ? batchB_ : (tiling_.batchN > 0 ? tiling_.batchN : 1);
    const int32_t batches = batchA > batchB ? batchA : batchB;
    constexpr bool kBsngdA = A_TYPE::layout == LayoutMode::BSNGD, kBsngdB = B_TYPE::layout == LayoutMode::BSNGD,
                   kBsngdC = C_TYPE::layout == LayoutMode::BSNGD;
    if constexpr (!kLayoutModelled<A_TYPE> || !kLayoutModelled<B_TYPE> || !kLayoutModelled<C_TYPE>) {
      twin::RaiseTrap("%s: LayoutMode SBNGD / BNGS1S2 batches are not implemented on the twin (NORMAL, BSNGD are)",
                      api);
    }
    if (batches % batchA != 0 || batches % batchB != 0) {
      twin::RaiseTrap("%s: batchA %d and batchB %d: the smaller must divide the larger", api, batchA, batchB);
    }
    const twin::matmul::Operand<SrcAT> a0 = a_;
    const twin::matmul::Operand<SrcBT> b0 = b_;
    const BiasT* bias0 = bias_;
    // BSNGD ([B, S, N, G, D], SetALayout/SetBLayout/SetCLayout): batch (n, g) is the S x D
    // matrix at column (n * G + g) * D of rows N * G * D long, so a batch steps by D.
    const TCubeTiling& t = tiling_;
    const uint64_t aRow = uint64_t(t.ALayoutInfoN) * t.ALayoutInfoG * t.ALayoutInfoD;
    const uint64_t bRow = uint64_t(t.BLayoutInfoN) * t.BLayoutInfoG * t.BLayoutInfoD;
    const uint64_t cRow = uint64_t(t.CLayoutInfoN) * t.CLayoutInfoG * t.CLayoutInfoS2;
    aLd_ = kBsngdA ? aRow : 0;
    bLd_ = kBsngdB ? bRow : 0;
    const uint64_t aStep = strideA ? strideA : kBsngdA ? uint64_t(t.ALayoutInfoD) : uint64_t(orgM_) * orgKa_;
    const uint64_t bStep = strideB ? strideB : kBsngdB ? uint64_t(t.BLayoutInfoD) : uint64_t(orgKb_) * orgN_;
    const uint64_t cStep = strideC ? strideC : kBsngdC ? uint64_t(t.CLayoutInfoS2) : uint64_t(orgM_) * OutLd();
    const uint64_t aSize = a_.gmElements, bSize = b_.gmElements;
    for (int32_t i = 0; i < batches; ++i) {
      const int32_t ia = i % batchA, ib = i % batchB;
      if (!a0.scalar)
        a_.base = a0.base + twin::ElemStep<SrcAT>(ia * aStep),
        a_.gmElements = aSize > ia * aStep ? aSize - ia * aStep : (aSize ? 1 : 0);
      if (!b0.scalar)
        b_.base = b0.base + twin::ElemStep<SrcBT>(ib * bStep),
        b_.gmElements = bSize > ib * bStep ? bSize - ib * bStep : (bSize ? 1 : 0);
      if (biasOn_ && kConfig.isBiasBatch) bias_ = bias0 + uint64_t(i) * singleN_;
      Prepare(api);
      DstView out;
      out.base = c + uint64_t(i) * cStep;
      out.ld = kBsngdC ? cRow : OutLd();
      out.nz = C_TYPE::format == CubeFormat::NZ;
      out.nzRows = (uint64_t(orgM_) + 15) / 16 * 16;
      if (cElements != 0 && uint64_t(i) * cStep + (singleM_ - 1) * out.ld + singleN_ > cElements) {
        twin::RaiseTrap("%s: batch %d of C lies past the end of its tensor (%llu elements)", api, i,
                        (unsigned long long)cElements);
      }
      (void)cInGm;
      for (uint32_t n = 0; n < nIter_; ++n) {
        for (uint32_t m = 0; m < mIter_; ++m) {
          ComputeBlock(m, n, enPartialSum);
          WriteBlock(out, m * tiling_.baseM, n * tiling_.baseN, m, n, enAtomic);
        }
      }
    }
    a_ = a0;
    b_ = b0;
    bias_ = bias0;
    aLd_ = bLd_ = 0;
  }
  template <class T>
  static constexpr bool kLayoutModelled =
      T::layout == LayoutMode::NONE || T::layout == LayoutMode::NORMAL || T::layout == LayoutMode::BSNGD;

  TCubeTiling tiling_{};
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
  int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  int32_t batchA_ = 0, batchB_ = 0;
  uint64_t aLd_ = 0, bLd_ = 0;  // stored row strides of a BSNGD batch, 0 otherwise
  twin::matmul::Operand<SrcAT> a_;
  twin::matmul::Operand<SrcBT> b_;
  twin::matmul::SparseB<SrcBT> sparse_;  // used only when kSparseB
  const BiasT* bias_ = nullptr;
  uint64_t biasGmElements_ = 0;
  bool biasInGm_ = false;
  bool biasOn_ = false;
  uint64_t quantScalar_ = 0;
  const uint64_t* quantVector_ = nullptr;
  bool quantSet_ = false;
  bool hf32_ = false;
  bool hf32TiesToZero_ = false;
  uint64_t selfDefineData_ = 0;
  uint64_t userDefInfo_ = 0;
  uint8_t subBlockIdx_ = 0;
  bool inited_ = false;
  bool iterating_ = false;
  bool haveBlock_ = false;
  bool blockTaken_ = false;  // GetTensorC wrote the current block (NextAsyncBlock)
  bool asyncPending_ = false;
  uint32_t mIter_ = 0, nIter_ = 0, blockIndex_ = 0, curM_ = 0, curN_ = 0;
  uint32_t ldAcc_ = 0;
  std::vector<L0cT> acc_;         // L0C: one baseM x baseN block
  std::vector<L0cT> aPanel_;      // L0A: baseM x baseK, packed
  std::vector<L0cT> bPanel_;      // L0B: baseK x baseN, packed
  std::vector<L0cT> rowScratch_;  // one converted row
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_IMPL_H_
