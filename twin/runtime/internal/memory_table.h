// Device memory of the twin: host memory, 4 KiB aligned, recorded in a sorted table so that
// the kernels' GM checker can verify an access lies inside ONE live allocation (shared lock,
// O(log n)). Also tracks host allocations made by aclrtMallocHost.
#ifndef TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_
#define TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

constexpr size_t kDeviceMemAlignment = 4096;

class MemoryTable {
 public:
  MemoryTable() = default;
  ~MemoryTable();  // frees whatever is still allocated
  MemoryTable(const MemoryTable &) = delete;
  MemoryTable &operator=(const MemoryTable &) = delete;

  // CANN pads a device allocation to a multiple of 32 bytes plus 32 bytes, so kernels may
  // touch that tail (e.g. a 32-byte-granular DataCopy); the GM checker allows it too.
  static size_t AccessibleSize(size_t size) { return (size + 31) / 32 * 32 + 32; }

  StatusOr<void *> Allocate(size_t size, int32_t device_id);
  Status Free(void *ptr);
  // Frees every allocation made for `device_id` (device reset).
  void FreeAllOf(int32_t device_id);

  // True iff [addr, addr + len) lies inside one live allocation (accessible size).
  bool Contains(const void *addr, uint64_t len) const;
  // Requested size of the live allocation that contains `addr`, and its base; false if none.
  bool Lookup(const void *addr, uintptr_t *base, size_t *size) const;
  size_t LiveCount() const;

  // The AscTwinGmCheckFn (asc_twin/aicore_abi.h) handed to kernels; gm_ctx is the MemoryTable.
  static int GmCheck(const void *gm_ctx, const void *addr, uint64_t len);

 private:
  struct Allocation {
    size_t size;        // as requested
    size_t accessible;  // AccessibleSize(size)
    int32_t device_id;
  };
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> allocations_;  // keyed by base address
};

// aclrtMallocHost memory: separate from device memory (kernels may not touch it).
class HostMemoryTable {
 public:
  HostMemoryTable() = default;
  ~HostMemoryTable();
  HostMemoryTable(const HostMemoryTable &) = delete;
  HostMemoryTable &operator=(const HostMemoryTable &) = delete;

  StatusOr<void *> Allocate(size_t size);
  Status Free(void *ptr);

 private:
  std::shared_mutex mutex_;
  std::map<uintptr_t, size_t> allocations_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_MEMORY_TABLE_H_
