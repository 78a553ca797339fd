// Broadcast<T, dim, axis>: dst (dstShape) = src (srcShape) repeated along axis, where
// srcShape[axis] == 1 and the other dims equal dstShape's (dim 1: [1] -> [n]; dim 2, axis 0:
// [1, W] -> [H, W]; axis 1: [H, 1] -> [H, W]). Both tensors are dense row-major.
#ifndef ASC_TWIN_ADV_API_PAD_BROADCAST_H_
#define ASC_TWIN_ADV_API_PAD_BROADCAST_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "adv_api/pad/pad.h"
#include "kernel_tiling/data_layout_tmp_size.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T, int32_t dim, int32_t axis>
inline void BroadcastRows(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
                          const uint32_t* srcShape, const LocalTensor<uint8_t>* tmp) {
  static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
  static_assert(axis >= 0 && axis < dim, "Broadcast: axis must be a dim of the tensor (0 <= axis < dim)");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "Broadcast takes 8, 16 or 32-bit types");
  constexpr const char* api = "Broadcast";
  uint64_t srcElems = 1, dstElems = 1;
  for (int32_t i = 0; i < dim; ++i) {
    const bool ok = i == axis ? srcShape[i] == 1 : srcShape[i] == dstShape[i];
    if (!ok || dstShape[i] == 0) {
      RaiseTrap("%s: srcShape[%d] = %u does not broadcast to dstShape[%d] = %u along axis %d", api, i, srcShape[i], i,
                dstShape[i], axis);
    }
    srcElems *= srcShape[i];
    dstElems *= dstShape[i];
  }
  if (tmp != nullptr) {
    CheckLayoutTmp(api, *tmp, AscendC::tiling::layout_tmp::BroadcastMinBytes(srcElems, dstElems),
                   "GetBroadCastMaxMinTmpSize");
  }
  CheckUbOperand(api, "srcLocal", src, srcElems);
  CheckUbOperand(api, "dstLocal", dst, dstElems);
  LevelTwoDone();
  std::vector<T> copy;
  const T* s = StableSource(dst, src, dstElems, srcElems, &copy);
  T* d = dst.TwinData();
  const uint32_t rows = dim == 1 ? 1 : dstShape[0];
  const uint32_t cols = dstShape[dim - 1];
  for (uint32_t r = 0; r < rows; ++r) {
    T* row = d + uint64_t{r} * cols;
    if (dim == 1 || axis == 1) {  // one value fills the row
      const T v = s[dim == 1 ? 0 : r];
      for (uint32_t c = 0; c < cols; ++c) row[c] = v;
    } else {  // axis 0: the one source row repeats
      std::memcpy(row, s, cols * sizeof(T));
    }
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer) {
  twin::adv::BroadcastRows<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  twin::adv::BroadcastRows<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr);
}

// CANN's implementation layer spells it BroadCast (same namespace, same forms), and public samples
// call that spelling directly (quant_group_matmul_high_performance).
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer) {
  twin::adv::BroadcastRows<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  twin::adv::BroadcastRows<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_PAD_BROADCAST_H_
