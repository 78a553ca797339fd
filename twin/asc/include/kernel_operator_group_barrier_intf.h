// GroupBarrier<PipeMode> (one group of blocks, the Arrive group, lets another, the Wait group,
// go on) and InitOutput (fill a GM range with a value; CANN's deprecated spelling of Fill).
//
// Twin's layout of the GroupBarrier workspace (CANN documents its size, waitSize x 512 bytes,
// zeroed by the user, and a 64-byte BarrierInfo head counter): the first 64 bytes count
// arrivals, the next 64 bytes passed waits, both over every round. Round k (the k-th Arrive or
// Wait of a block) releases its waiters once arriveSize x k arrivals were counted; Arrive counts
// after the block's earlier GM writes, so waiters see them.
#ifndef ASC_TWIN_KERNEL_OPERATOR_GROUP_BARRIER_INTF_H_
#define ASC_TWIN_KERNEL_OPERATOR_GROUP_BARRIER_INTF_H_

#include <cstdint>

#include "adv_api/utils/init_global_memory.h"
#include "asc_twin/cross_block.h"
#include "kernel_tensor.h"

namespace AscendC {

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

struct BarrierInfo {
  volatile uint32_t head;  // arrivals / passed waits so far
  uint32_t buffer[15];     // one 64-byte line per counter
};

template <PipeMode pipeMode>
class GroupBarrier {
 public:
  __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
      : arrive_(reinterpret_cast<__gm__ BarrierInfo*>(groupWorkspace)),
        wait_(reinterpret_cast<__gm__ BarrierInfo*>(groupWorkspace) + 1),
        arriveSize_(arriveSizeIn),
        waitSize_(waitSizeIn) {
    static_assert(pipeMode == PipeMode::SCALAR_MODE || pipeMode == PipeMode::MTE3_MODE,
                  "GroupBarrier: pipeMode is SCALAR_MODE or MTE3_MODE");
    if (arriveSizeIn == 0 || waitSizeIn == 0) {
      twin::RaiseTrap("GroupBarrier: arriveSize %u and waitSize %u must both be at least 1", arriveSizeIn, waitSizeIn);
    }
    twin::CheckGm("GroupBarrier", groupWorkspace, GetWorkspaceLen());
  }
  __aicore__ inline void Arrive(uint32_t arriveIndex) {
    if (arriveIndex >= arriveSize_) {
      twin::RaiseTrap("GroupBarrier::Arrive: arriveIndex %u is outside [0, %u]", arriveIndex, arriveSize_ - 1);
    }
    ++rounds_;
    __atomic_fetch_add(Head(arrive_), 1u, __ATOMIC_RELEASE);
  }
  // Waits until every block of the Arrive group arrived as often as this block waited.
  __aicore__ inline void Wait(uint32_t waitIndex) {
    if (waitIndex >= waitSize_) {
      twin::RaiseTrap("GroupBarrier::Wait: waitIndex %u is outside [0, %u]", waitIndex, waitSize_ - 1);
    }
    const uint64_t needed = uint64_t{arriveSize_} * ++rounds_;
    const uint32_t* head = Head(arrive_);
    twin::WaitForOtherBlocks("GroupBarrier::Wait", [&] { return __atomic_load_n(head, __ATOMIC_ACQUIRE) >= needed; });
    __atomic_fetch_add(Head(wait_), 1u, __ATOMIC_RELEASE);
  }
  __aicore__ inline uint64_t GetWorkspaceLen() { return uint64_t{waitSize_} * 512; }

 private:
  static uint32_t* Head(__gm__ BarrierInfo* info) { return const_cast<uint32_t*>(&info->head); }

  __gm__ BarrierInfo* arrive_;
  __gm__ BarrierInfo* wait_;
  uint32_t arriveSize_;
  uint32_t waitSize_;
  uint64_t rounds_ = 0;
};

// size elements of GM from gmWorkspaceAddr set to value.
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
  twin::FillGm("InitOutput", gmWorkspaceAddr, size, value);
}

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_OPERATOR_GROUP_BARRIER_INTF_H_
