// Sorting in A2/A3 layout ("layout mode 1"): every sorted element is an 8-byte (score, index)
// pair, the score in the low bytes (float: bytes 0-3; half: bytes 0-1, bytes 2-3 reserved and
// written 0), the uint32_t index in bytes 4-7. Sort32 sorts each group of 32 scores in
// descending order; Sort<T, true> sorts all of them; Concat/Extract move scores in and out;
// MrgSort merges up to four sorted lists, repeatTimes groups of them (GetMrgSortResult: how much
// of each was taken).
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

// Layout mode 1 needs no region proposals: Sort reads the scores where they are, so Concat
// makes `concat` a view of `src` (CANN's A2/A3 Concat assigns concatLocal = srcLocal; a sample
// passes a default-constructed concatLocal and sorts what Concat hands back). tmp is unused;
// repeatTime counts 16 scores (the sample passes elementCount / 16).
template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime) {
  static_assert(twin::kSortType<T>, "Concat supports half, float");
  twin::CheckSortRepeat("Concat", repeatTime);
  const uint64_t n = uint64_t{static_cast<uint32_t>(repeatTime)} * 16;  // 16 scores a repeat, as CANN documents
  twin::CheckUbOperand("Concat", "src", src, n);
  (void)tmp;
  concat = src;
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

// ---- MrgSort: merge up to 4 lists of sorted (score, index) pairs ----
template <typename T>
struct MrgSortSrcList {
  __aicore__ MrgSortSrcList() {}
  __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                            const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1, src2, src3, src4;
};

struct MrgSort4Info {
  __aicore__ MrgSort4Info() {}
  __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
                          const uint16_t validBitIn, const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  bool ifExhaustedSuspension = false;
  uint16_t validBit = 0;
  uint16_t repeatTimes = 1;
};

namespace twin {

// Traps unless a list of `pairs` (score, index) pairs starts 8-byte aligned inside its tensor.
template <typename T>
inline void CheckSortList(const char* api, const char* role, const LocalTensor<T>& t, uint64_t pairs) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(t.TwinData());
  if (a == 0) RaiseTrap("%s: %s is an unallocated LocalTensor", api, role);
  if (a % 8 != 0)
    RaiseTrap("%s: %s UB address %llu is not 8-byte aligned", api, role,
              static_cast<unsigned long long>(t.GetPhyAddr()));
  if (pairs * 8 > uint64_t{t.GetSize()} * sizeof(T)) {
    RaiseTrap("%s: %s of %llu pairs exceeds its LocalTensor of %u elements", api, role,
              static_cast<unsigned long long>(pairs), t.GetSize());
  }
}

// One merge of `lists` lists of (score, index) pairs into `out`, stable (the lower list first
// on equal scores); stops when a list runs out if `suspend`. Returns the pairs taken per list.
template <typename T>
inline void MergeLists(const uint8_t* const in[4], const uint16_t len[4], int lists, bool suspend, uint8_t* out,
                       uint16_t taken[4]) {
  auto score = [](const uint8_t* pair) {
    T s;
    std::memcpy(&s, pair, sizeof(T));
    return static_cast<float>(s);
  };
  std::vector<uint8_t> merged;
  uint16_t pos[4] = {0, 0, 0, 0};
  for (;;) {
    int best = -1;
    bool exhausted = false;
    for (int k = 0; k < lists; ++k) {
      if (pos[k] == len[k]) {
        exhausted = true;
        continue;
      }
      if (best < 0 || score(in[k] + pos[k] * 8u) > score(in[best] + pos[best] * 8u)) best = k;
    }
    if (best < 0 || (exhausted && suspend)) break;
    merged.insert(merged.end(), in[best] + pos[best] * 8u, in[best] + pos[best] * 8u + 8);
    ++pos[best];
  }
  std::memcpy(out, merged.data(), merged.size());  // sources are all read before dst is written
  for (int k = 0; k < 4; ++k) taken[k] = k < lists ? pos[k] : 0;
}

}  // namespace twin

// Merges the valid lists (validBit 0b0011, 0b0111 or 0b1111) of elementLengths[i] pairs (at most
// 4095 each), each sorted by descending score, into dst; equal scores come from the lower-numbered
// list first. With ifExhaustedSuspension the merge stops when a list runs out; GetMrgSortResult
// tells how many pairs of each list were taken (in the last repeat). repeatTimes in [1, 255]:
// repeat r merges the four lists that follow repeat r-1's (each source and dst advance by the sum
// of the four lengths), which CANN allows only with validBit 0b1111, four equal lengths, lists
// stored back to back (src2 = src1 + length, ...) and no suspension; anything else traps.
template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& info) {
  constexpr const char* api = "MrgSort";
  static_assert(twin::kSortType<T>, "MrgSort supports half, float");
  int lists = 0;
  if (info.validBit == 0x3)
    lists = 2;
  else if (info.validBit == 0x7)
    lists = 3;
  else if (info.validBit == 0xF)
    lists = 4;
  else
    twin::RaiseTrap("MrgSort: validBit 0x%x is not 0x3, 0x7 or 0xf", info.validBit);
  const uint32_t repeats = info.repeatTimes;
  if (repeats < 1 || repeats > 255) twin::RaiseTrap("MrgSort: repeatTimes %u is outside [1, 255]", repeats);
  const LocalTensor<T>* in[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
  static const char* const kRole[4] = {"src1", "src2", "src3", "src4"};
  uint64_t perRepeat = 0;
  for (int k = 0; k < lists; ++k) {
    if (info.elementLengths[k] > 4095) {
      twin::RaiseTrap("MrgSort: elementLengths[%d] = %u exceeds 4095", k, info.elementLengths[k]);
    }
    perRepeat += info.elementLengths[k];
  }
  if (repeats > 1) {
    if (lists != 4)
      twin::RaiseTrap("MrgSort: repeatTimes %u needs validBit 0xf (four lists), got 0x%x", repeats, info.validBit);
    if (info.ifExhaustedSuspension)
      twin::RaiseTrap("MrgSort: repeatTimes %u needs ifExhaustedSuspension false", repeats);
    for (int k = 1; k < 4; ++k) {
      if (info.elementLengths[k] != info.elementLengths[0]) {
        twin::RaiseTrap("MrgSort: repeatTimes %u needs four equal elementLengths, got %u/%u/%u/%u", repeats,
                        info.elementLengths[0], info.elementLengths[1], info.elementLengths[2], info.elementLengths[3]);
      }
      if (in[k]->Bytes() != in[k - 1]->Bytes() + uint64_t{info.elementLengths[0]} * 8) {
        twin::RaiseTrap("MrgSort: repeatTimes %u needs the lists back to back, but %s does not start where %s ends",
                        repeats, kRole[k], kRole[k - 1]);
      }
    }
  }
  // Each list is checked over every repeat's span (the repeats of list k reach perRepeat further each).
  for (int k = 0; k < lists; ++k) {
    twin::CheckSortList(api, kRole[k], *in[k], (repeats - 1) * perRepeat + info.elementLengths[k]);
  }
  twin::CheckUbOperand(api, "dst", dst, repeats * perRepeat * 8 / sizeof(T));
  uint16_t taken[4] = {0, 0, 0, 0};
  for (uint32_t r = 0; r < repeats; ++r) {
    const uint8_t* from[4] = {nullptr, nullptr, nullptr, nullptr};
    for (int k = 0; k < lists; ++k) from[k] = in[k]->Bytes() + r * perRepeat * 8;
    twin::MergeLists<T>(from, info.elementLengths, lists, info.ifExhaustedSuspension, dst.Bytes() + r * perRepeat * 8,
                        taken);
  }
  twin::VecRegs& v = twin::Block().vec;
  for (int k = 0; k < 4; ++k) v.mrgSortCount[k] = taken[k];
}

// The form with the counts as an output: sortedNum[k] = pairs taken from list k (of the last
// repeat), isExhaustedSuspension as a template argument.
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime) {
  if (repeatTime < 1 || repeatTime > 255) twin::RaiseTrap("MrgSort: repeatTime %d is outside [1, 255]", repeatTime);
  MrgSort(dst, sortList,
          MrgSort4Info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime)));
  const twin::VecRegs& v = twin::Block().vec;
  for (int k = 0; k < 4; ++k) sortedNum[k] = v.mrgSortCount[k];
}

__aicore__ inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                                        uint16_t& mrgSortList4) {
  const twin::VecRegs& v = twin::Block().vec;
  mrgSortList1 = v.mrgSortCount[0];
  mrgSortList2 = v.mrgSortCount[1];
  mrgSortList3 = v.mrgSortCount[2];
  mrgSortList4 = v.mrgSortCount[3];
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_VEC_SORT_INTF_H_
