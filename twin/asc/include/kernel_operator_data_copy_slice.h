// DataCopy with SliceInfo: a multi-dimensional slice of GM moved to UB or back (CANN calls it a
// software-emulated interface). Per dimension d (0 innermost) a SliceInfo selects, from
// startIndex up to endIndex inclusive, segments of burstLen x 32 bytes (dimension 0; 1 element
// of the dimension above it otherwise) separated by `stride` unselected elements; shapeValue is
// the dimension's full length. The i-th selected element of src goes to the i-th selected
// element of dst (outer dimensions first, as the elements lie in memory).
#ifndef ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_SLICE_H_
#define ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_SLICE_H_

#include <cstdint>
#include <cstring>
#include <vector>

#include "asc_twin/block_state.h"
#include "kernel_tensor.h"

namespace AscendC {

constexpr int32_t K_MAX_DIM = 8;

struct SliceInfo {
  __aicore__ SliceInfo() {}
  __aicore__ SliceInfo(const uint32_t startIndexIn, const uint32_t endIndexIn, const uint32_t strideIn,
                       const uint32_t burstLenIn, const uint32_t shapeValueIn = 0)
      : startIndex(startIndexIn),
        endIndex(endIndexIn),
        stride(strideIn),
        burstLen(burstLenIn),
        shapeValue(shapeValueIn) {}
  uint32_t startIndex = 0;
  uint32_t endIndex = ONE_BLK_SIZE - 1;
  uint32_t stride = 0;
  uint32_t burstLen = ONE_BLK_SIZE;
  uint32_t shapeValue = 0;
};

namespace twin {

// Element offsets (from the tensor's start) of a slice, in memory order; `extent` the furthest
// element + 1.
template <typename T>
inline std::vector<uint64_t> SliceOffsets(const char* api, const char* role, const SliceInfo* info, uint32_t dims,
                                          uint64_t& extent) {
  if (dims < 1 || dims > static_cast<uint32_t>(K_MAX_DIM)) {
    RaiseTrap("%s: dimValue %u is outside [1, %d]", api, dims, K_MAX_DIM);
  }
  std::vector<uint64_t> offsets{0};
  uint64_t pitch = 1;  // elements per index of dimension d
  for (uint32_t d = 0; d < dims; ++d) {
    const SliceInfo& s = info[d];
    uint64_t seg = 1;
    if (d == 0) {
      if (uint64_t{s.burstLen} * ONE_BLK_SIZE % sizeof(T) != 0 || s.burstLen == 0) {
        RaiseTrap("%s: %sSliceInfo[0].burstLen %u is not a positive number of 32-byte blocks of the type", api, role,
                  s.burstLen);
      }
      seg = uint64_t{s.burstLen} * ONE_BLK_SIZE / sizeof(T);
    } else if (s.burstLen != 1) {
      RaiseTrap("%s: %sSliceInfo[%u].burstLen is %u; above dimension 0 it must be 1", api, role, d, s.burstLen);
    }
    if (s.endIndex < s.startIndex || s.endIndex >= s.shapeValue) {
      RaiseTrap("%s: %sSliceInfo[%u] selects [%u, %u] of a dimension of %u elements", api, role, d, s.startIndex,
                s.endIndex, s.shapeValue);
    }
    std::vector<uint64_t> indices;  // selected indices of this dimension, ascending
    for (uint64_t at = s.startIndex; at + seg - 1 <= s.endIndex; at += seg + s.stride) {
      for (uint64_t k = 0; k < seg; ++k) indices.push_back(at + k);
    }
    if (indices.empty()) {
      RaiseTrap("%s: %sSliceInfo[%u] selects nothing: a segment of %llu elements does not fit [%u, %u]", api, role, d,
                static_cast<unsigned long long>(seg), s.startIndex, s.endIndex);
    }
    // This dimension is outer to the ones already expanded.
    std::vector<uint64_t> next;
    next.reserve(indices.size() * offsets.size());
    for (uint64_t i : indices) {
      for (uint64_t o : offsets) next.push_back(i * pitch + o);
    }
    offsets.swap(next);
    pitch *= s.shapeValue;
  }
  extent = 0;
  for (uint64_t o : offsets) extent = o + 1 > extent ? o + 1 : extent;
  return offsets;
}

template <typename T>
inline void SliceCopy(const char* api, T* dst, bool dstIsGm, const T* src, bool srcIsGm, const SliceInfo dstInfo[],
                      const SliceInfo srcInfo[], uint32_t dims, uint64_t dstUbSize, uint64_t srcUbSize) {
  uint64_t dstExtent = 0, srcExtent = 0;
  const std::vector<uint64_t> d = SliceOffsets<T>(api, "dst", dstInfo, dims, dstExtent);
  const std::vector<uint64_t> s = SliceOffsets<T>(api, "src", srcInfo, dims, srcExtent);
  if (d.size() != s.size()) {
    RaiseTrap("%s: the src slice has %zu elements, the dst slice %zu", api, s.size(), d.size());
  }
  if (dstIsGm)
    CheckGm(api, dst, dstExtent * sizeof(T));
  else if (dstExtent > dstUbSize) {
    RaiseTrap("%s: the dst slice reaches element %llu, beyond its LocalTensor of %llu elements", api,
              static_cast<unsigned long long>(dstExtent - 1), static_cast<unsigned long long>(dstUbSize));
  }
  if (srcIsGm)
    CheckGm(api, src, srcExtent * sizeof(T));
  else if (srcExtent > srcUbSize) {
    RaiseTrap("%s: the src slice reaches element %llu, beyond its LocalTensor of %llu elements", api,
              static_cast<unsigned long long>(srcExtent - 1), static_cast<unsigned long long>(srcUbSize));
  }
  for (size_t i = 0; i < d.size(); ++i) dst[d[i]] = src[s[i]];
}

}  // namespace twin

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  static_assert(sizeof(T) <= 4 && !twin::kIsInt4<T>, "DataCopy (SliceInfo) takes 1-, 2- and 4-byte types");
  twin::CheckUbOperand("DataCopy", "dst", dst, 0);
  twin::SliceCopy("DataCopy", dst.TwinData(), false, src.GetPhyAddr(), true, dstSliceInfo, srcSliceInfo, dimValue,
                  dst.GetSize(), 0);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
                                const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  static_assert(sizeof(T) <= 4 && !twin::kIsInt4<T>, "DataCopy (SliceInfo) takes 1-, 2- and 4-byte types");
  twin::CheckUbOperand("DataCopy", "src", src, 0);
  twin::SliceCopy("DataCopy", dst.GetPhyAddr(), true, src.TwinData(), false, dstSliceInfo, srcSliceInfo, dimValue, 0,
                  src.GetSize());
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_DATA_COPY_SLICE_H_
