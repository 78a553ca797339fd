// LocalMemAllocator<Hardware>: the static-tensor style bump allocator over one of the AI core's
// local memories (UB, L1, L0A, L0B, L0C, BIAS, FIXBUF); must not be mixed with TPipe, as in
// CANN. Tiles are 32-byte aligned and consecutive from address 0 of that memory; the UB is the
// block's UB (less any dynamic UB of the launch), the others the block's memories the runtime
// gave it (asc_twin/core_buffers.h; sizes from the SoC's ini).
#ifndef ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_
#define ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_

#include <cstdint>

#include "asc_twin/block_state.h"
#include "asc_twin/core_buffers.h"
#include "kernel_tensor.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace twin {
// The position a tensor gets when Alloc is not given one, per memory.
constexpr TPosition DefaultPosition(Hardware hard) {
  return hard == Hardware::L1       ? TPosition::A1
         : hard == Hardware::L0A    ? TPosition::A2
         : hard == Hardware::L0B    ? TPosition::B2
         : hard == Hardware::L0C    ? TPosition::CO1
         : hard == Hardware::BIAS   ? TPosition::C2
         : hard == Hardware::FIXBUF ? TPosition::C2PIPE2GM
                                    : TPosition::VECCALC;
}
constexpr CoreBuffer CoreBufferOf(Hardware hard) {
  return hard == Hardware::UB     ? CoreBuffer::UB
         : hard == Hardware::L1   ? CoreBuffer::L1
         : hard == Hardware::L0A  ? CoreBuffer::L0A
         : hard == Hardware::L0B  ? CoreBuffer::L0B
         : hard == Hardware::L0C  ? CoreBuffer::L0C
         : hard == Hardware::BIAS ? CoreBuffer::BIAS
                                  : CoreBuffer::FIXBUF;
}
}  // namespace twin

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                "LocalMemAllocator: hard must be one of Hardware::UB, L1, L0A, L0B, L0C, BIAS, FIXBUF");

 public:
  __aicore__ inline LocalMemAllocator() = default;

  __aicore__ inline uint32_t GetCurAddr() const { return cur_; }

  template <class DataType, uint32_t tileSize>
  __aicore__ inline LocalTensor<DataType> Alloc() {
    return Alloc<twin::DefaultPosition(hard), DataType>(tileSize);
  }
  template <TPosition pos, class DataType, uint32_t tileSize>
  __aicore__ inline LocalTensor<DataType> Alloc() {
    return Alloc<pos, DataType>(tileSize);
  }
  template <class DataType>
  __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Alloc<twin::DefaultPosition(hard), DataType>(tileSize);
  }
  template <TPosition pos, class DataType>
  __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize) {
    const uint64_t bytes = (twin::ElemBytes<DataType>(tileSize) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE;
    twin::BlockState& b = twin::Block();
    if (b.env == nullptr && b.ub_base == nullptr) twin::RaiseTrap("LocalMemAllocator::Alloc: no block environment");
    constexpr twin::CoreBuffer which = twin::CoreBufferOf(hard);
    uint8_t* base = nullptr;
    uint64_t capacity = 0;
    twin::MemoryOf(b, which, &base, &capacity);
    if (base == nullptr) twin::RaiseNoMemory("LocalMemAllocator::Alloc", which);
    const char* name = twin::CoreBufferName(which);
    if (cur_ + bytes > capacity) {
      twin::RaiseTrap("LocalMemAllocator::Alloc: %s capacity exceeded: %llu B requested at offset %u, %s is %llu B",
                      name, static_cast<unsigned long long>(bytes), cur_, name,
                      static_cast<unsigned long long>(capacity));
    }
    LocalTensor<DataType> t =
        LocalTensor<DataType>::TwinMake(reinterpret_cast<DataType*>(base + cur_), tileSize, base + capacity, pos);
    cur_ += static_cast<uint32_t>(bytes);
    return t;
  }

 private:
  uint32_t cur_ = 0;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_LOCAL_MEM_ALLOCATOR_H_
