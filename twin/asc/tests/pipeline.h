// A classic CopyIn -> Compute -> CopyOut kernel skeleton (TPipe + TQue), shared
// by the test kernels. Each block takes total/GetBlockNum() elements in tiles
// of `tile`; with depth-2 queues two tiles are in flight, which exercises the
// FIFO order and the ring allocation over free buffers.
#ifndef ASC_TWIN_TESTS_PIPELINE_H_
#define ASC_TWIN_TESTS_PIPELINE_H_

#include "kernel_operator.h"

namespace asc_twin_test {

using namespace AscendC;

template <typename TIn, typename TOut, int kIn, int kBufs, int kDepth>
class Pipeline {
 public:
  __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR out, uint32_t total, uint32_t tile) {
    const uint32_t share = total / static_cast<uint32_t>(GetBlockNum());
    const uint64_t off = uint64_t{share} * static_cast<uint64_t>(GetBlockIdx());
    for (int i = 0; i < kIn; ++i) inGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ TIn*>(in[i]) + off, share);
    outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TOut*>(out) + off, share);
    tile_ = tile;
    tiles_ = share / tile;
    for (int i = 0; i < kIn; ++i) pipe_.InitBuffer(inQ_[i], kBufs, tile * sizeof(TIn));
    pipe_.InitBuffer(outQ_, kBufs, tile * sizeof(TOut));
  }

  template <typename Compute>
  __aicore__ inline void Process(Compute compute) {
    const uint32_t step = (kDepth >= 2 && kBufs >= 2) ? 2 : 1;
    uint32_t t = 0;
    for (; t + step <= tiles_; t += step) {
      for (uint32_t k = 0; k < step; ++k) CopyIn(t + k);
      for (uint32_t k = 0; k < step; ++k) Compute1(compute);
      for (uint32_t k = 0; k < step; ++k) CopyOut(t + k);
    }
    for (; t < tiles_; ++t) {
      CopyIn(t);
      Compute1(compute);
      CopyOut(t);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t t) {
    for (int i = 0; i < kIn; ++i) {
      LocalTensor<TIn> x = inQ_[i].template AllocTensor<TIn>();
      DataCopy(x, inGm_[i][uint64_t{t} * tile_], tile_);
      inQ_[i].EnQue(x);
    }
  }
  template <typename Compute>
  __aicore__ inline void Compute1(Compute& compute) {
    LocalTensor<TIn> x[kIn];
    for (int i = 0; i < kIn; ++i) x[i] = inQ_[i].template DeQue<TIn>();
    LocalTensor<TOut> z = outQ_.template AllocTensor<TOut>();
    compute(z, x, tile_);
    outQ_.EnQue(z);
    for (int i = 0; i < kIn; ++i) inQ_[i].FreeTensor(x[i]);
  }
  __aicore__ inline void CopyOut(uint32_t t) {
    LocalTensor<TOut> z = outQ_.template DeQue<TOut>();
    DataCopy(outGm_[uint64_t{t} * tile_], z, tile_);
    outQ_.FreeTensor(z);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, kDepth> inQ_[kIn];
  TQue<QuePosition::VECOUT, kDepth> outQ_;
  GlobalTensor<TIn> inGm_[kIn];
  GlobalTensor<TOut> outGm_;
  uint32_t tile_ = 0;
  uint32_t tiles_ = 0;
};

}  // namespace asc_twin_test

#endif  // ASC_TWIN_TESTS_PIPELINE_H_
