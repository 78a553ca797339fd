#include "twin/runtime/internal/memory_table.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace asc_twin::rt {
namespace {

std::string Hex(uintptr_t value) {
  char text[32];
  std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

void *AlignedAlloc(size_t bytes) {
  const size_t rounded = (bytes + kDeviceMemAlignment - 1) / kDeviceMemAlignment * kDeviceMemAlignment;
  return std::aligned_alloc(kDeviceMemAlignment, rounded);
}

}  // namespace

MemoryTable::~MemoryTable() {
  for (auto &entry : allocations_) std::free(reinterpret_cast<void *>(entry.first));
}

StatusOr<void *> MemoryTable::Allocate(size_t size, int32_t device_id) {
  if (size == 0) return Status(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be > 0");
  if (size > (size_t{1} << 46)) {
    return Status(ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc: " + std::to_string(size) + " bytes is beyond any device");
  }
  const size_t accessible = AccessibleSize(size);
  void *ptr = AlignedAlloc(accessible);
  if (ptr == nullptr) {
    return Status(ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "aclrtMalloc: out of device memory allocating " + std::to_string(size) + " bytes");
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  allocations_[reinterpret_cast<uintptr_t>(ptr)] = Allocation{size, accessible, device_id};
  return ptr;
}

Status MemoryTable::Free(void *ptr) {
  const auto base = reinterpret_cast<uintptr_t>(ptr);
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.find(base);
    if (it == allocations_.end()) {
      lock.unlock();
      uintptr_t owner = 0;
      size_t size = 0;
      if (Lookup(ptr, &owner, &size)) {
        return Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree: " + Hex(base) + " is inside the allocation at " +
                                                      Hex(owner) + " (" + std::to_string(size) +
                                                      " bytes), not its start");
      }
      return Status(ACL_ERROR_RT_PARAM_INVALID,
                    "aclrtFree: " + Hex(base) + " is not a live device allocation (never allocated or already freed)");
    }
    allocations_.erase(it);
  }
  std::free(ptr);
  return Status::Ok();
}

void MemoryTable::FreeAllOf(int32_t device_id) {
  std::vector<uintptr_t> doomed;
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    for (auto it = allocations_.begin(); it != allocations_.end();) {
      if (it->second.device_id == device_id) {
        doomed.push_back(it->first);
        it = allocations_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (uintptr_t base : doomed) std::free(reinterpret_cast<void *>(base));
}

bool MemoryTable::Contains(const void *addr, uint64_t len) const {
  const auto begin = reinterpret_cast<uintptr_t>(addr);
  if (begin + len < begin) return false;  // wraps around
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = allocations_.upper_bound(begin);
  if (it == allocations_.begin()) return false;
  --it;
  return begin + len <= it->first + it->second.accessible;
}

bool MemoryTable::Lookup(const void *addr, uintptr_t *base, size_t *size) const {
  const auto at = reinterpret_cast<uintptr_t>(addr);
  std::shared_lock<std::shared_mutex> lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it == allocations_.begin()) return false;
  --it;
  if (at >= it->first + it->second.accessible) return false;
  *base = it->first;
  *size = it->second.size;
  return true;
}

size_t MemoryTable::LiveCount() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return allocations_.size();
}

int MemoryTable::GmCheck(const void *gm_ctx, const void *addr, uint64_t len) {
  return static_cast<const MemoryTable *>(gm_ctx)->Contains(addr, len) ? 1 : 0;
}

HostMemoryTable::~HostMemoryTable() {
  for (auto &entry : allocations_) std::free(reinterpret_cast<void *>(entry.first));
}

StatusOr<void *> HostMemoryTable::Allocate(size_t size) {
  if (size == 0) return Status(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: size must be > 0");
  void *ptr = AlignedAlloc(size);
  if (ptr == nullptr) {
    return Status(ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "aclrtMallocHost: out of host memory allocating " + std::to_string(size) + " bytes");
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  allocations_[reinterpret_cast<uintptr_t>(ptr)] = size;
  return ptr;
}

Status HostMemoryTable::Free(void *ptr) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (allocations_.erase(reinterpret_cast<uintptr_t>(ptr)) == 0) {
      return Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost: " + Hex(reinterpret_cast<uintptr_t>(ptr)) +
                                                    " was not allocated by aclrtMallocHost (or already freed)");
    }
  }
  std::free(ptr);
  return Status::Ok();
}

}  // namespace asc_twin::rt
