// The device process's dispatchers, one per launch slot of the control block: each waits for a
// launch, runs its blocks (launch.h) on the shared worker pool and reports the result, the
// printf text and any memory the kernel kept.
#ifndef TWIN_RUNTIME_DEVICE_LAUNCH_LOOP_H_
#define TWIN_RUNTIME_DEVICE_LAUNCH_LOOP_H_

#include <sys/mman.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "twin/runtime/device/device_state.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt::device {

// Mirrors the host's allocation table: GM check ranges, and page protections (live allocations
// read/write, everything else in the arena inaccessible). Shared by the slots' dispatchers: a
// sync changes only the pages of allocations that came or went, so launches running on other
// slots keep their memory accessible throughout.
class TableMirror {
 public:
  explicit TableMirror(MemoryTable *table) : table_(table) {}
  void Sync() {
    const uint64_t seq = g_control->table_seq.load(std::memory_order_acquire);
    // The common case, every launch of a steady workload: nothing changed, no lock taken.
    if (seq == synced_.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t synced = synced_.load(std::memory_order_relaxed);  // only written under the lock
    if (seq == synced && synced != UINT64_MAX) return;
    std::vector<proto::TableEntry> entries;
    uint64_t before = 0;
    do {
      before = g_control->table_seq.load(std::memory_order_acquire);
      if (before & 1) continue;
      const uint32_t count = std::min(g_control->table_count, proto::kMaxTableEntries);
      entries.assign(g_control->table, g_control->table + count);
      std::atomic_thread_fence(std::memory_order_acquire);
    } while ((before & 1) || g_control->table_seq.load(std::memory_order_acquire) != before);
    if (synced == UINT64_MAX) mprotect(reinterpret_cast<void *>(g_gm_base), g_gm_size, PROT_NONE);
    std::map<uintptr_t, uint64_t> mapped;  // arena pages now read/write: base -> bytes
    std::vector<std::pair<uintptr_t, uint64_t>> ranges;
    ranges.reserve(entries.size());
    for (const proto::TableEntry &entry : entries) {
      ranges.emplace_back(entry.base, entry.accessible);
      if (entry.flags & proto::kEntryInArena) mapped[entry.base] = (entry.accessible + 4095) / 4096 * 4096;
    }
    for (const auto &[base, bytes] : mapped_) {  // gone (or resized): inaccessible again
      auto it = mapped.find(base);
      if (it == mapped.end() || it->second != bytes) mprotect(reinterpret_cast<void *>(base), bytes, PROT_NONE);
    }
    for (const auto &[base, bytes] : mapped) {
      auto it = mapped_.find(base);
      if (it == mapped_.end() || it->second != bytes) {
        mprotect(reinterpret_cast<void *>(base), bytes, PROT_READ | PROT_WRITE);
      }
    }
    mapped_ = std::move(mapped);
    table_->ReplaceWith(ranges);
    synced_.store(before, std::memory_order_release);
  }

 private:
  MemoryTable *table_;
  std::mutex mutex_;
  std::atomic<uint64_t> synced_{UINT64_MAX};  // the table_seq mirrored, once the mirror is complete
  std::map<uintptr_t, uint64_t> mapped_;
};

// What the dispatchers of all launch slots share: the worker pool their blocks run on and the
// mirrored allocation table.
struct DeviceShared {
  explicit DeviceShared(unsigned workers) : pool(workers) {}
  const SocSpec *soc = nullptr;
  WorkerPool pool;
  MemoryTable table;
  TableMirror mirror{&table};
};

// Runs the dispatchers of slots 1.. on threads of their own and slot 0's on the calling thread;
// never returns. `seen[i]`: slot i's submit_seq read before the host was told the process is ready.
[[noreturn]] void StartLaunchLoops(DeviceShared &shared, const uint32_t *seen);

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_LAUNCH_LOOP_H_
