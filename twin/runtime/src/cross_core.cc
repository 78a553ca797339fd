#include "twin/runtime/internal/cross_core.h"

#include <chrono>
#include <cstdio>

namespace asc_twin::rt {
namespace {

const char *CoreName(uint32_t core_type) { return core_type == kCoreAic ? "AIC" : "AIV"; }

// Waiters look again this often even without a wake-up (a unit's end is also signalled; this
// only bounds the cost of a missed one).
constexpr auto kRecheck = std::chrono::milliseconds(20);

}  // namespace

CrossCoreFlags::CrossCoreFlags(const CoreLayout &layout)
    : layout_(layout),
      counters_(static_cast<size_t>(layout.units()) * kFlags, 0),
      sets_(2 * kFlags, 0),
      group_aiv_sets_(static_cast<size_t>(layout.blocks) * 2 * kFlags, 0),
      waiting_on_(layout.units(), 0) {}

bool CrossCoreFlags::Raise(uint32_t unit, uint32_t flag) {
  uint8_t &counter = counters_[static_cast<size_t>(unit) * kFlags + flag];
  if (counter >= kMaxPending) {
    if (overflowed_unit_ == UINT32_MAX) overflowed_unit_ = unit;  // the first is reported
    return false;
  }
  if (counter++ == 0 && waiting_on_[unit] == flag + 1) --blocked_;  // its waiter can go on
  return true;
}

int CrossCoreFlags::Set(uint32_t mode, uint32_t flag, uint32_t core_type, uint32_t block_idx, char *err,
                        size_t err_cap) {
  if (flag >= kFlags) {
    std::snprintf(err, err_cap, "CrossCoreSetFlag: flagId %u is out of range (0-%u)", flag, kFlags - 1);
    return 1;
  }
  if (mode > 2) {
    std::snprintf(err, err_cap, "CrossCoreSetFlag: modeId %u is not 0, 1 or 2", mode);
    return 1;
  }
  if (mode == 1 && (core_type != kCoreAiv || layout_.aiv_per_group < 2)) {
    std::snprintf(err, err_cap,
                  "CrossCoreSetFlag<1>: mode 1 synchronises the AIVs of one AI core, but this %s of a %s kernel has "
                  "%s (use KERNEL_TYPE_MIX_AIC_1_2)",
                  CoreName(core_type), KernelTypeName(layout_.kernel_type),
                  core_type == kCoreAiv ? "no sibling AIV" : "no AIV sibling as an AIC");
    return 1;
  }
  if (mode == 2 && !layout_.mixed()) {
    std::snprintf(err, err_cap,
                  "CrossCoreSetFlag<2>: mode 2 synchronises an AIC with its AIVs, but a %s kernel runs no %s "
                  "(declare it __mix__(1, 1) or __mix__(1, 2))",
                  KernelTypeName(layout_.kernel_type), core_type == kCoreAic ? "AIV" : "AIC");
    return 1;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  const CoreLayout::Unit me = layout_.At(layout_.UnitOf(core_type, block_idx));
  bool ok = true;
  if (mode == 0) {  // every core of the caller's type
    const uint32_t cores = core_type == kCoreAic ? layout_.aic : layout_.aiv;
    uint64_t &sets = sets_[(core_type - 1) * kFlags + flag];
    if (++sets % cores == 0) {
      const uint32_t first = core_type == kCoreAic ? 0 : layout_.aic;
      for (uint32_t u = first; u < first + cores; ++u) ok = Raise(u, flag) && ok;
    }
  } else if (core_type == kCoreAic) {  // mode 2 from the AIC: each AIV of its group
    for (uint32_t s = 0; s < layout_.aiv_per_group; ++s) {
      ok = Raise(layout_.UnitOf(kCoreAiv, me.group * layout_.aiv_per_group + s), flag) && ok;
    }
  } else {  // modes 1 and 2 from an AIV: once every AIV of the group set it
    uint32_t &sets = group_aiv_sets_[(me.group * 2 + (mode == 2 ? 1 : 0)) * kFlags + flag];
    if (++sets % layout_.aiv_per_group == 0) {
      if (mode == 2) {
        ok = Raise(layout_.UnitOf(kCoreAic, me.group), flag);
      } else {
        for (uint32_t s = 0; s < layout_.aiv_per_group; ++s) {
          ok = Raise(layout_.UnitOf(kCoreAiv, me.group * layout_.aiv_per_group + s), flag) && ok;
        }
      }
    }
  }
  changed_.notify_all();
  if (!ok) {
    const CoreLayout::Unit over = layout_.At(overflowed_unit_);
    std::snprintf(err, err_cap,
                  "CrossCoreSetFlag<%u>: flagId %u of %s %u was set %u times without a CrossCoreWaitFlag (at most %u)",
                  mode, flag, CoreName(over.core_type), over.block_idx, kMaxPending + 1, kMaxPending);
    return 1;
  }
  return 0;
}

int CrossCoreFlags::Wait(uint32_t flag, uint32_t core_type, uint32_t block_idx, const std::atomic<bool> &failed,
                         const std::atomic<uint32_t> &units_ended, char *err, size_t err_cap) {
  if (flag >= kFlags) {
    std::snprintf(err, err_cap, "CrossCoreWaitFlag: flagId %u is out of range (0-%u)", flag, kFlags - 1);
    return 1;
  }
  const uint32_t unit = layout_.UnitOf(core_type, block_idx);
  std::unique_lock<std::mutex> lock(mutex_);
  uint8_t &counter = counters_[static_cast<size_t>(unit) * kFlags + flag];
  if (counter == 0) {
    waiting_on_[unit] = flag + 1;
    ++blocked_;
  }
  for (;;) {
    if (counter > 0) {
      --counter;
      waiting_on_[unit] = 0;  // blocked_ was lowered by the Raise that served it
      return 0;
    }
    const char *cause = nullptr;
    if (failed.load(std::memory_order_acquire)) {
      cause = "another block of the launch failed, the flag may never be set" /* launch.cc kCascadeWords */;
    } else if (units_ended.load(std::memory_order_acquire) + blocked_ >= layout_.units()) {
      cause = "deadlock: every other core of the launch has ended or waits too, nobody can set it";
    }
    if (cause != nullptr) {
      waiting_on_[unit] = 0;
      --blocked_;
      std::snprintf(err, err_cap, "CrossCoreWaitFlag(%u) on %s %u: %s", flag, CoreName(core_type), block_idx, cause);
      changed_.notify_all();
      return 1;
    }
    changed_.wait_for(lock, kRecheck);
  }
}

void CrossCoreFlags::Wake() {
  std::lock_guard<std::mutex> lock(mutex_);
  changed_.notify_all();
}

}  // namespace asc_twin::rt
