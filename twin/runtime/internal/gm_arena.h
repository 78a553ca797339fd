// The twin device's global memory (GM): one memfd, mapped MAP_SHARED at the same address in the
// host and in the device process, so device pointers are plain host pointers on both sides and
// kernels stream through it at memory bandwidth. The arena is a PROT_NONE reservation; an
// allocation's pages are made readable/writable (host side here, device side from the
// allocation table) and a PROT_NONE guard page follows each one. Freed pages go back to the
// kernel (hole punched in the memfd). Also owns the control block shared with the device
// process (twin/runtime/device/protocol.h), including the allocation table kernels check GM
// accesses against.
#ifndef TWIN_RUNTIME_INTERNAL_GM_ARENA_H_
#define TWIN_RUNTIME_INTERNAL_GM_ARENA_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

namespace proto {
struct ControlBlock;
struct TableEntry;
}  // namespace proto

// ASCEND_TWIN_DEVICE_ISOLATION=0 runs kernels in the host process, as before the device process
// existed (device memory then is plain host memory with transparent huge pages). For
// measurements only: a faulting kernel then takes the host down. Read once per process.
bool DeviceIsolationEnabled();

class GmArena {
 public:
  static constexpr uint64_t kPage = 4096;
  // Creates the memfds and reserves the address range. Errors: ACL_ERROR_RT_MEMORY_ALLOCATION.
  static StatusOr<GmArena *> Create();
  ~GmArena();
  GmArena(const GmArena &) = delete;
  GmArena &operator=(const GmArena &) = delete;

  uintptr_t base() const { return base_; }
  uint64_t size() const { return size_; }
  int gm_fd() const { return gm_fd_; }
  int control_fd() const { return control_fd_; }
  proto::ControlBlock *control() const { return control_; }
  bool InArena(uintptr_t addr) const { return addr >= base_ && addr - base_ < size_; }

  // Reserves `bytes` (rounded up to pages) plus a guard page and makes them accessible here
  // (map_here) or only reserves memfd space (for a host registration). Returns the offset.
  StatusOr<uint64_t> Reserve(uint64_t bytes, bool map_here);
  // Gives the pages back (hole punched, PROT_NONE here) and the range to the allocator.
  void Release(uint64_t offset, uint64_t bytes);

  // aclrtHostRegister: moves the caller's pages [addr, addr + bytes) (page aligned) into the
  // memfd at `offset` (contents copied, same address, now shared with the device process).
  Status AdoptHostPages(void *addr, uint64_t bytes, uint64_t offset);
  // Undoes it: private anonymous pages at the same address with the same contents.
  Status ReturnHostPages(void *addr, uint64_t bytes);

  // Publishes the allocation table to the device process (seqlock); the caller serializes.
  void PublishTable(const proto::TableEntry *entries, uint32_t count);

 private:
  GmArena() = default;
  static uint64_t Pages(uint64_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

  uintptr_t base_ = 0;
  uint64_t size_ = 0;
  int gm_fd_ = -1;
  int control_fd_ = -1;
  proto::ControlBlock *control_ = nullptr;
  std::mutex mutex_;                   // guards free_ and top_
  std::map<uint64_t, uint64_t> free_;  // offset -> bytes, coalesced
  uint64_t top_ = 0;                   // everything at or above is free
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_GM_ARENA_H_
