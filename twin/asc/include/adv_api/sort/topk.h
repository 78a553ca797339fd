// TopK: the k largest (isLargest, descending) or smallest (ascending) elements of each of
// outter rows of inner elements (the first n of each row take part), with their indices, with
// CANN's template head <T, isInitIndex, isHasfinish, isReuseSrc, topkMode> and both call forms
// (with or without tmpLocal). T is half or float; indices are int32_t.
// - isInitIndex = false: an element's index is its column; true: srcIndexLocal gives them
//   ([1, inner] shared by the rows in TOPK_NORMAL, [outter, inner] in TOPK_NSMALL).
// - isHasfinish (TOPK_NORMAL): a row whose finishLocal entry is true gets n for every index.
// - TOPK_NSMALL needs inner == 32; TOPK_NORMAL inner a multiple of 32 up to 4096.
// - dstValueLocal rows are k rounded up to 32 bytes of T, dstIndexLocal rows k rounded up to 8;
//   the padding is not written. Equal values keep column order (a stable sort; CANN's MrgSort
//   keeps the earlier list first). Values are compared as the NPU's sort does, in T.
#ifndef ASC_TWIN_ADV_API_SORT_TOPK_H_
#define ASC_TWIN_ADV_API_SORT_TOPK_H_

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "asc_twin/elementwise.h"
#include "kernel_tensor.h"
#include "kernel_tiling/topk_tiling.h"

namespace AscendC {

struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;
  int32_t n;
};

namespace twin {
namespace topk {

template <typename T, bool isInitIndex, bool isHasfinish, TopKMode mode>
inline void Run(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                const LocalTensor<int32_t>& srcIndex, const LocalTensor<bool>& finish, const LocalTensor<uint8_t>* tmp,
                int32_t k, const TopkTiling& tiling, const TopKInfo& info, bool isLargest) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "TopK: T is half or float");
  constexpr const char* api = "TopK";
  const int32_t outter = info.outter, inner = info.inner, n = info.n;
  if (outter < 1 || inner < 1 || n < 1 || n > inner) {
    RaiseTrap("%s: topKInfo {outter %d, inner %d, n %d} needs outter >= 1 and 1 <= n <= inner", api, outter, inner, n);
  }
  if (inner % 32 != 0) RaiseTrap("%s: topKInfo.inner %d is not a multiple of 32", api, inner);
  if (mode == TopKMode::TOPK_NSMALL && inner != 32) RaiseTrap("%s: TOPK_NSMALL needs inner 32, got %d", api, inner);
  if (mode == TopKMode::TOPK_NORMAL && inner > 4096)
    RaiseTrap("%s: TOPK_NORMAL takes inner up to 4096, got %d", api, inner);
  if (k < 1 || k > n) RaiseTrap("%s: k %d is outside [1, n %d]", api, k, n);
  if (tiling.innerDataSize != inner || tiling.allDataSize != inner * outter) {
    RaiseTrap(
        "%s: the TopkTiling was made for inner %d x outter %d, topKInfo says inner %d x outter %d (call "
        "TopKTilingFunc with this shape)",
        api, tiling.innerDataSize, tiling.innerDataSize > 0 ? tiling.allDataSize / tiling.innerDataSize : 0, inner,
        outter);
  }
  const uint32_t kv = (static_cast<uint32_t>(k) * sizeof(T) + 31) / 32 * 32 / sizeof(T);
  const uint32_t ki = (static_cast<uint32_t>(k) + 7) / 8 * 8;
  const uint64_t total = uint64_t(outter) * inner;
  CheckUbOperand(api, "srcLocal", src, total);
  CheckUbOperand(api, "dstValueLocal", dstValue, uint64_t(outter - 1) * kv + k);
  CheckUbOperand(api, "dstIndexLocal", dstIndex, uint64_t(outter - 1) * ki + k);
  if (isInitIndex) CheckUbOperand(api, "srcIndexLocal", srcIndex, mode == TopKMode::TOPK_NSMALL ? total : inner);
  if (isHasfinish && mode == TopKMode::TOPK_NORMAL) CheckUbOperand(api, "finishLocal", finish, outter);
  if (tmp != nullptr) {
    const uint64_t row = asc_twin_tmp::TopKRowTmpBytes(inner, sizeof(T), isInitIndex, isLargest);
    const uint64_t need = mode == TopKMode::TOPK_NSMALL ? row * outter : row;
    CheckUbOperand(api, "tmpLocal", *tmp, 0);
    if (tmp->GetSize() < need) {
      RaiseTrap(
          "%s: tmpLocal holds %u bytes, less than the %llu bytes the call needs (the minimum of "
          "GetTopKMaxMinTmpSize)",
          api, tmp->GetSize(), static_cast<unsigned long long>(need));
    }
  }
  LevelTwoDone();
  struct Item {
    float v;
    int32_t col;
  };
  std::vector<Item> row(static_cast<size_t>(n));
  const T* s = src.TwinData();
  for (int32_t r = 0; r < outter; ++r) {
    for (int32_t j = 0; j < n; ++j) row[j] = {static_cast<float>(s[uint64_t(r) * inner + j]), j};
    std::stable_sort(row.begin(), row.end(),
                     [isLargest](const Item& a, const Item& b) { return isLargest ? a.v > b.v : a.v < b.v; });
    const bool done = isHasfinish && mode == TopKMode::TOPK_NORMAL && finish.TwinData()[r];
    for (int32_t j = 0; j < k; ++j) {
      dstValue.TwinData()[uint64_t(r) * kv + j] = static_cast<T>(row[j].v);
      int32_t idx = row[j].col;
      if (isInitIndex) {
        idx = srcIndex.TwinData()[(mode == TopKMode::TOPK_NSMALL ? uint64_t(r) * inner : 0) + row[j].col];
      }
      dstIndex.TwinData()[uint64_t(r) * ki + j] = done ? n : idx;
    }
  }
}

}  // namespace topk
}  // namespace twin

template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                            const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true) {
  twin::topk::Run<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                         finishLocal, &tmpLocal, k, tilling, topKInfo, isLargest);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                            const TopKInfo& topKInfo, const bool isLargest = true) {
  twin::topk::Run<T, isInitIndex, isHasfinish, topkMode>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                         finishLocal, nullptr, k, tilling, topKInfo, isLargest);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_SORT_TOPK_H_
