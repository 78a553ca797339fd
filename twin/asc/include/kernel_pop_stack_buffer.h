// PopStackBuffer<T, pos>(tensor): the UB the block's TPipe has not handed out (from the end of
// its last InitBuffer to the end of UB), as CANN's high-level APIs and samples take scratch
// space when no sharedTmpBuffer is passed. Returns false when no TPipe is alive or no UB is
// left, as CANN's does when its stack is empty.
#ifndef ASC_TWIN_KERNEL_POP_STACK_BUFFER_H_
#define ASC_TWIN_KERNEL_POP_STACK_BUFFER_H_

#include "kernel_tensor.h"
#include "kernel_tpipe.h"

namespace AscendC {

template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
  static_assert(
      pos == TPosition::LCM || pos == TPosition::VECCALC || pos == TPosition::VECIN || pos == TPosition::VECOUT,
      "PopStackBuffer: the stack is in the UB (TPosition::LCM / VECCALC / VECIN / VECOUT)");
  const twin::BlockState& b = twin::Block();
  if (b.pipe == nullptr) return false;
  const twin::LocalMemory ub = twin::LocalMemoryOf(TPosition::VECCALC);
  const uint64_t used = b.pipe->TwinUsedBytes();
  if (ub.base == nullptr || used >= ub.size) return false;
  const uint64_t freeBytes = ub.size - used;
  popLocal = LocalTensor<T>::TwinMake(reinterpret_cast<T*>(ub.base + used),
                                      static_cast<uint32_t>(twin::ElemsInBytes<T>(freeBytes)), ub.base + ub.size, pos);
  return true;
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_POP_STACK_BUFFER_H_
