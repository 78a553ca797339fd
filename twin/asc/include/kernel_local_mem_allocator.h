// LocalMemAllocator: the static-tensor style bump allocator over the UB
// (newer samples; must not be mixed with TPipe, as in CANN).
#ifndef ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_
#define ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "kernel_tensor.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB, "the twin implements LocalMemAllocator for Hardware::UB only");

 public:
  __aicore__ inline LocalMemAllocator() = default;

  template <typename T, uint32_t tileSize>
  __aicore__ inline LocalTensor<T> Alloc() {
    return Alloc<T>(tileSize);
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> Alloc(uint32_t tileSize) {
    const uint64_t bytes = (twin::ElemBytes<T>(tileSize) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    const twin::BlockState& b = twin::Block();
    if (b.ub_base == nullptr) twin::RaiseTrap("LocalMemAllocator::Alloc: no block environment");
    if (cur_ + bytes > b.ub_size) {
      twin::RaiseTrap("LocalMemAllocator::Alloc: UB capacity exceeded: %llu B requested at offset %u, UB is %llu B",
                      static_cast<unsigned long long>(bytes), cur_, static_cast<unsigned long long>(b.ub_size));
    }
    LocalTensor<T> t(TPosition::VECCALC, cur_, tileSize);
    cur_ += static_cast<uint32_t>(bytes);
    return t;
  }
  __aicore__ inline uint32_t GetCurAddr() const { return cur_; }

 private:
  uint32_t cur_ = 0;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_
