// Sparse Matmul (4:2 structured sparsity of an int8_t B, asc_twin/cube_sparse.h):
// SparseMatmulType, CANN's B type for it, and the twin's expansion of the core's dense B and its
// index (SetSparseIndex: NZ fractals of 16 rows x 8 bytes over the org N) into the singleK x
// singleN B the cube multiplies. The Matmul then computes with the expanded B as with any other.
#ifndef ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_SPARSE_H_
#define ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_SPARSE_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "adv_api/matmul/detail/matmul_operand.h"
#include "adv_api/matmul/matmul_type.h"
#include "asc_twin/block_state.h"
#include "asc_twin/cube_sparse.h"
#include "asc_twin/trap.h"

namespace AscendC {

template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          TPosition SRCPOS = TPosition::GM, LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE, SRCPOS> {
  constexpr static TPosition indexPosition = INDEX_POSITION;
};

namespace twin {
namespace matmul {

template <typename B_TYPE, typename = void>
struct IsSparseB : std::false_type {};
template <typename B_TYPE>
struct IsSparseB<B_TYPE, std::void_t<decltype(B_TYPE::indexPosition)>> : std::true_type {};

// The expanded B of a sparse Matmul and what it was made from.
template <typename T>
struct SparseB {
  const uint8_t* index = nullptr;
  uint64_t indexBytes = 0;
  Operand<T> dense;
  std::vector<T> expanded;

  // b (the dense B the user set, k/2 x n) becomes the expanded k x n operand, rows padded to
  // 32 bytes as a local operand's (Resolve keeps that stride).
  void Expand(const char* api, Operand<T>& b, uint32_t k, uint32_t n, uint32_t orgN, uint32_t orgKb) {
    static_assert(std::is_same<T, int8_t>::value, "SparseMatmulType: B must be int8_t");
    if (!b.set) return;
    if (b.base != expanded.data() || expanded.empty()) dense = b;  // a new SetTensorB
    if (index == nullptr) RaiseTrap("%s: a sparse B needs SetSparseIndex before %s", api, api + 8);
    if (dense.scalar || dense.nz || !dense.inGm) {
      RaiseTrap("%s: a sparse B must be an ND GlobalTensor (scalar, NZ and local B are not supported)", api);
    }
    if (k % 4 != 0 || orgKb % 4 != 0) {
      RaiseTrap("%s: a sparse B needs K (%u) and Kb (%u) multiples of 4 (2 of each 4 kept)", api, k, orgKb);
    }
    const uint32_t kd = k / 2;
    Operand<T> d = dense;
    d.ld = d.transposed ? orgKb / 2 : orgN;
    const uint64_t need = d.Extent(kd, n);
    if (d.gmElements != 0 && need > d.gmElements) {
      RaiseTrap("%s: the dense B needs %llu elements from its tensor, which holds %llu", api, (unsigned long long)need,
                (unsigned long long)d.gmElements);
    }
    CheckGm(api, d.base, need * sizeof(T));
    const uint64_t nzRows = (uint64_t(orgN) + 15) / 16 * 16;
    const uint64_t indexNeed = sparse::IndexNzOffset(n - 1, (kd - 1) / sparse::kValuesPerIndexByte, nzRows) + 1;
    if (indexBytes != 0 && indexNeed > indexBytes) {
      RaiseTrap("%s: the sparse index needs %llu bytes from its tensor, which holds %llu", api,
                (unsigned long long)indexNeed, (unsigned long long)indexBytes);
    }
    CheckGm(api, index, indexNeed);
    const uint64_t ld = (uint64_t(n) + Operand<T>::kC0 - 1) / Operand<T>::kC0 * Operand<T>::kC0;
    expanded.assign(uint64_t(k) * ld, T(0));
    for (uint32_t j = 0; j < n; ++j) {
      for (uint32_t kv = 0; kv < kd; ++kv) {
        const uint8_t byte = index[sparse::IndexNzOffset(j, kv / sparse::kValuesPerIndexByte, nzRows)];
        const uint32_t idx = (byte >> (2 * (kv % sparse::kValuesPerIndexByte))) & 3u;
        T& out = expanded[uint64_t(sparse::OriginalK(kv, idx)) * ld + j];
        out = static_cast<T>(out + d.base[d.Offset(kv, j)]);
      }
    }
    b = Operand<T>();
    b.base = expanded.data();
    b.set = true;
    b.gmElements = expanded.size();
    b.inGm = false;
  }
};

}  // namespace matmul
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_MATMUL_DETAIL_MATMUL_SPARSE_H_
