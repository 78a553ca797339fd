// Sorting in A2/A3 layout ("layout mode 1"): every sorted element is an 8-byte (score, index)
// pair, the score in the low bytes (float: bytes 0-3; half: bytes 0-1, bytes 2-3 reserved and
// written 0), the uint32_t index in bytes 4-7. Sort32 sorts each group of 32 scores in
// descending order; Sort<T, true> sorts all of them; Concat/Extract move scores in and out.
// Equal scores keep their input order (a twin choice; CANN does not document ties).
#ifndef ASC_TWIN_KERNEL_OPERATOR_VEC_SORT_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_VEC_SORT_INTF_H_

#include <algorithm>
#include <cstring>
#include <vector>

#include "asc_twin/elementwise.h"

namespace AscendC {
namespace twin {

template <typename T>
constexpr bool kSortType = kIsOneOf<T, half, float>;

struct ScoreIndex {
  float score;
  uint32_t index;
};

// Sorts groups of `group` scores (descending, stable) and writes (score, index) pairs to dst.
template <typename T>
inline void SortPairs(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                      const LocalTensor<uint32_t>& src1, uint64_t n, uint64_t group) {
  static_assert(kSortType<T>, "Sort32/Sort support half, float");
  CheckUbOperand(api, "src0", src0, n);
  CheckUbOperand(api, "src1", src1, n);
  CheckUbOperand(api, "dst", dst, n * 8 / sizeof(T));
  std::vector<ScoreIndex> v(n);
  for (uint64_t i = 0; i < n; ++i) v[i] = {static_cast<float>(src0.TwinData()[i]), src1.TwinData()[i]};
  for (uint64_t g = 0; g < n; g += group) {
    std::stable_sort(v.begin() + g, v.begin() + std::min(n, g + group),
                     [](const ScoreIndex& a, const ScoreIndex& b) { return a.score > b.score; });
  }
  uint8_t* out = dst.Bytes();
  for (uint64_t i = 0; i < n; ++i) {
    uint8_t pair[8] = {};
    const T score = static_cast<T>(v[i].score);
    std::memcpy(pair, &score, sizeof(T));
    std::memcpy(pair + 4, &v[i].index, 4);
    std::memcpy(out + i * 8, pair, 8);
  }
}

inline void CheckSortRepeat(const char* api, int32_t repeatTime) {
  if (repeatTime < 0 || repeatTime > 255) RaiseTrap("%s: repeatTime %d is outside [0, 255]", api, repeatTime);
}

}  // namespace twin

template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                              const int32_t repeatTime) {
  twin::CheckSortRepeat("Sort32", repeatTime);
  twin::SortPairs("Sort32", dst, src0, src1, uint64_t{static_cast<uint32_t>(repeatTime)} * 32, 32);
}

// concat holds the scores (Concat's output), index the uint32_t indices; 32 * repeatTime elements.
template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime) {
  twin::CheckSortRepeat("Sort", repeatTime);
  twin::CheckUbOperand("Sort", "tmp", tmp, 0);
  const uint64_t n = uint64_t{static_cast<uint32_t>(repeatTime)} * 32;
  twin::SortPairs("Sort", dst, concat, index, n, isFullSort ? n : 32);
}

// Layout mode 1 needs no region proposals: Concat copies 32 * repeatTime scores.
template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime) {
  twin::CheckSortRepeat("Concat", repeatTime);
  const uint64_t n = uint64_t{static_cast<uint32_t>(repeatTime)} * 32;
  twin::CheckUbOperand("Concat", "concat", concat, n);
  twin::CheckUbOperand("Concat", "src", src, n);
  twin::CheckUbOperand("Concat", "tmp", tmp, 0);
  std::memmove(concat.TwinData(), src.TwinData(), n * sizeof(T));
}

// Splits 32 * repeatTime (score, index) pairs into scores and indices.
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime) {
  static_assert(twin::kSortType<T>, "Extract supports half, float");
  twin::CheckSortRepeat("Extract", repeatTime);
  const uint64_t n = uint64_t{static_cast<uint32_t>(repeatTime)} * 32;
  twin::CheckUbOperand("Extract", "sorted", sorted, n * 8 / sizeof(T));
  twin::CheckUbOperand("Extract", "dstValue", dstValue, n);
  twin::CheckUbOperand("Extract", "dstIndex", dstIndex, n);
  std::vector<uint8_t> pairs(sorted.Bytes(), sorted.Bytes() + n * 8);
  for (uint64_t i = 0; i < n; ++i) {
    std::memcpy(dstValue.TwinData() + i, pairs.data() + i * 8, sizeof(T));
    std::memcpy(dstIndex.TwinData() + i, pairs.data() + i * 8 + 4, 4);
  }
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_SORT_INTF_H_
