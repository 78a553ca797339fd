// CrossCoreSetFlag / CrossCoreWaitFlag of one launch (AscTwinCrossCoreFn, asc_twin/aicore_abi.h):
// a counter per core and flag id, raised by the three modes' rules and taken by waits. A wait
// really blocks (a condition variable), gives up when another block failed, and is a deadlock
// trap, not a hang, once no core could raise its counter any more: every other core of the
// launch ended or waits on a counter nobody raised.
#ifndef TWIN_RUNTIME_INTERNAL_CROSS_CORE_H_
#define TWIN_RUNTIME_INTERNAL_CROSS_CORE_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "twin/runtime/internal/core_layout.h"

namespace asc_twin::rt {

class CrossCoreFlags {
 public:
  static constexpr uint32_t kFlags = 11;       // ASC_TWIN_CROSS_CORE_FLAGS: flag ids 0-10
  static constexpr uint32_t kMaxPending = 15;  // ASC_TWIN_CROSS_CORE_MAX_PENDING

  explicit CrossCoreFlags(const CoreLayout &layout);

  // 0, or non-zero with a one-line cause in err. The caller is (core_type, block_idx).
  int Set(uint32_t mode, uint32_t flag, uint32_t core_type, uint32_t block_idx, char *err, size_t err_cap);
  // `failed`: another block of the launch failed; `units_ended`: units of the launch that ended.
  int Wait(uint32_t flag, uint32_t core_type, uint32_t block_idx, const std::atomic<bool> &failed,
           const std::atomic<uint32_t> &units_ended, char *err, size_t err_cap);
  // A unit ended or failed: waiters check again whether they can still be served.
  void Wake();

 private:
  // Raises `unit`'s counter for `flag`; false when it would pass kMaxPending. Under mutex_.
  bool Raise(uint32_t unit, uint32_t flag);

  const CoreLayout layout_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<uint8_t> counters_;          // [unit * kFlags + flag]
  std::vector<uint64_t> sets_;             // mode-0 sets per core type and flag: [(type - 1) * kFlags + flag]
  std::vector<uint32_t> group_aiv_sets_;   // modes 1 and 2 from AIVs: [(group * 2 + (mode == 2)) * kFlags + flag]
  std::vector<uint32_t> waiting_on_;       // per unit: flag + 1 while it waits on a zero counter, else 0
  uint32_t blocked_ = 0;                   // units waiting on a counter that is zero
  uint32_t overflowed_unit_ = UINT32_MAX;  // a Raise that passed kMaxPending (reported by Set)
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_CROSS_CORE_H_
