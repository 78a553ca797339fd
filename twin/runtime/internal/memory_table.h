// Device memory of the twin: pages of the GM arena (gm_arena.h, shared with the device
// process at the same address), 4 KiB aligned, followed by a guard page, recorded in a sorted table so that
// the kernels' GM checker can verify an access lies inside ONE live allocation. The checker's
// common case is lock-free: each thread remembers the last few allocations it found, valid
// while the table's generation (changed by every free) is unchanged; a miss takes the shared
// lock and does one O(log n) lookup. Also tracks host allocations made by aclrtMallocHost.
//
// Queued work never touches unmapped memory: an aclrtMemcpyAsync holds the allocations it uses
// (Hold) until it has run. aclrtFree returns at once, as CANN's does (no implicit
// synchronization), and the allocation leaves the table, but its pages stay mapped and are not
// reused until the last hold ends.
//
// Across fork(): the child gets private copies of the registered host ranges (the caller's
// arrays stay the caller's in each process) and a private (copy-on-write) mapping of the GM
// arena, so nothing the child writes reaches the parent's memory.
#ifndef TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_
#define TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <utility>
#include <vector>

#include "twin/runtime/internal/gm_arena.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

constexpr size_t kDeviceMemAlignment = 4096;

// True in a fork() child of a process whose runtime existed at the fork. The child shares the
// parent's device process and control block, so every ACL call there is refused (CANN: pyACL
// calls in fork()ed processes are not supported); its memory is private (see above).
bool InForkedChild();

// A queued task's claim on one allocation (see above); empty when the address was not in one.
// Releasing the last claim of a freed allocation releases its memory.
using MemoryHold = std::shared_ptr<const void>;

class MemoryTable {
 public:
  MemoryTable();   // joins the process's tables that fork() privatizes in the child
  ~MemoryTable();  // frees whatever is still allocated (no hold may outlive the table)
  MemoryTable(const MemoryTable &) = delete;
  MemoryTable &operator=(const MemoryTable &) = delete;

  // CANN pads a device allocation to a multiple of 32 bytes plus 32 bytes, so kernels may
  // touch that tail (e.g. a 32-byte-granular DataCopy); the GM checker allows it too.
  static size_t AccessibleSize(size_t size) { return (size + 31) / 32 * 32 + 32; }

  // Allocates in the GM arena (created on first use). huge_pages is accepted for the aclrtMalloc
  // policies but has no effect: shared memory gets no transparent huge pages from Linux unless
  // /sys/kernel/mm/transparent_hugepage/shmem_enabled allows it.
  StatusOr<void *> Allocate(size_t size, int32_t device_id, bool huge_pages = true);
  // The allocation leaves the table at once; its memory goes when the last hold on it ends.
  Status Free(void *ptr);
  // Frees every allocation made for `device_id` (device reset); drops its host registrations.
  void FreeAllOf(int32_t device_id);
  // Holds the live aclrtMalloc allocation that contains `addr` (nullptr if none; registered
  // host ranges are the caller's memory and are not held).
  MemoryHold Hold(const void *addr);
  // Allocations freed while held whose memory is still kept (tests).
  size_t HeldFreedCount() const;

  // aclrtHostRegister: host memory [ptr, ptr + size) joins the table as device-visible memory
  // that the table does not own (the twin maps it at the same address). ptr must be 4 KiB
  // aligned (as CANN requires) and the range may not overlap any live entry. Kernels may access
  // exactly the registered bytes (no 32-byte tail). aclrtFree on it is an error.
  Status RegisterHost(void *ptr, uint64_t size, int32_t device_id);
  // aclrtHostUnregister: `ptr` must be the start of a live registration.
  Status UnregisterHost(void *ptr);

  // Registered host pages are moved into the GM memfd (same address, same contents) so the
  // device process can map them too; `mapper` (set by the runtime) maps (map=true) or unmaps
  // them there. A failing map refuses the registration.
  using HostMapper = std::function<Status(void *addr, uint64_t size, uint64_t gm_offset, bool map)>;
  void SetHostMapper(HostMapper mapper);
  // Live registrations, for a restarted device process: (addr, size, gm offset).
  struct Registration {
    void *addr;
    uint64_t size;
    uint64_t offset;
  };
  std::vector<Registration> Registrations() const;
  // The GM arena, created on first use (nullptr only if it cannot be created).
  std::shared_ptr<GmArena> arena();

  // Device side: the table mirrors the host's published one; entries own nothing.
  void ReplaceWith(const std::vector<std::pair<uintptr_t, uint64_t>> &ranges);

  // True iff `addr` lies in the GM arena (live or not): such memory is touched only through
  // a live allocation.
  bool InArena(const void *addr) const;
  // True iff [addr, addr + len) lies inside one live allocation (accessible size).
  bool Contains(const void *addr, uint64_t len) const;
  // Requested size of the live allocation that contains `addr`, and its base; false if none.
  bool Lookup(const void *addr, uintptr_t *base, size_t *size) const;
  size_t LiveCount() const;

  // The AscTwinGmCheckFn (asc_twin/aicore_abi.h) handed to kernels; gm_ctx is the MemoryTable.
  // Same answer as Contains(); lock-free when this thread's cache holds the allocation.
  static int GmCheck(const void *gm_ctx, const void *addr, uint64_t len);
  // The AscTwinGmRangeFn handed to kernels with GenerationWord() (ASC_TWIN_ENV_GM_RANGE): the
  // allocation's accessible range and the generation it was found under, for the kernel's own
  // cache of checked ranges.
  static int GmRange(const void *gm_ctx, const void *addr, uint64_t len, uintptr_t *lo, uintptr_t *hi,
                     uint64_t *generation);
  // The generation as the plain 64-bit word kernels read (atomically, acquire).
  const uint64_t *GenerationWord() const;

 private:
  struct Allocation {
    size_t size;        // as requested
    size_t accessible;  // AccessibleSize(size)
    int32_t device_id;
    bool host_registered;  // aclrtHostRegister'ed caller memory: never freed by the table
    uint64_t offset;       // in the GM arena's memfd
    bool external;         // device side: a mirrored entry, no arena behind it
    uint32_t holds = 0;    // queued tasks using it (Hold)
  };
  void ReleaseMemory(uintptr_t base, const Allocation &gone);  // no lock needed
  void Unhold(uintptr_t base);
  // fork() child: registered ranges become private copies, the arena a private mapping.
  void PrivatizeInForkChild();
  friend struct ForkGuard;
  StatusOr<GmArena *> ArenaLocked();  // mutex_ held exclusively
  void PublishLocked();               // mutex_ held exclusively
  // Finds the allocation holding [begin, end) under the shared lock; on success stores its
  // accessible range in *lo/*hi and returns the generation it was read under (0: not found).
  uint64_t FindRange(uintptr_t begin, uintptr_t end, uintptr_t *lo, uintptr_t *hi) const;
  // A value no table has used: generations are unique process-wide, so a cache entry can never
  // match another (or a later) table that happens to reuse this one's address.
  static uint64_t NewGeneration();

  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;  // keyed by base address
  std::map<uintptr_t, Allocation> held_freed_;   // freed while held: memory kept until unheld
  std::shared_ptr<GmArena> arena_;
  HostMapper mapper_;
  // Changed (under the unique lock, before memory is released) whenever an allocation goes.
  alignas(64) std::atomic<uint64_t> generation_{NewGeneration()};
};

// aclrtMallocHost memory: separate from device memory (kernels may not touch it).
class HostMemoryTable {
 public:
  HostMemoryTable() = default;
  ~HostMemoryTable();
  HostMemoryTable(const HostMemoryTable &) = delete;
  HostMemoryTable &operator=(const HostMemoryTable &) = delete;

  StatusOr<void *> Allocate(size_t size);
  // As MemoryTable::Free: a held allocation's memory goes when its last hold ends.
  Status Free(void *ptr);
  // Holds the aclrtMallocHost allocation containing `addr` (nullptr if none).
  MemoryHold Hold(const void *addr);

 private:
  struct Allocation {
    size_t size;
    uint32_t holds = 0;
    bool freed = false;  // aclrtFreeHost came while held
  };
  void Unhold(uintptr_t base);

  std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_
