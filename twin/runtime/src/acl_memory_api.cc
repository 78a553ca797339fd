// Device and host memory, memcpy and memset.
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "twin/runtime/src/api_common.h"

using namespace asc_twin::rt;

namespace {

std::string Range(const void *ptr, size_t count) {
  char text[64];
  std::snprintf(text, sizeof(text), "[%p, +%zu)", ptr, count);
  return text;
}

// True iff [ptr, ptr + count) lies inside the requested size of one live device allocation.
bool InDeviceAllocation(const MemoryTable &memory, const void *ptr, size_t count) {
  uintptr_t base = 0;
  size_t size = 0;
  if (!memory.Lookup(ptr, &base, &size)) return false;
  const auto begin = reinterpret_cast<uintptr_t>(ptr);
  return begin + count >= begin && begin + count <= base + size;
}

// What a queued aclrtMemcpyAsync keeps alive: its holds are released before the runtime.
struct QueuedCopy {
  std::shared_ptr<Runtime> runtime;
  std::vector<MemoryHold> holds;  // destination, source (null where not an allocation)
};

struct CopyPlan {
  bool dst_on_device;
  bool src_on_device;
};

Status PlanCopy(const char *api, const MemoryTable &memory, void *dst, size_t destMax, const void *src, size_t count,
                int kind, CopyPlan *plan) {
  if (dst == nullptr) return NullArgument(api, "dst");
  if (src == nullptr) return NullArgument(api, "src");
  if (count > destMax) {
    return Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": count " + std::to_string(count) + " exceeds destMax " +
                                               std::to_string(destMax));
  }
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      *plan = {false, false};
      break;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      *plan = {true, false};
      break;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      *plan = {false, true};
      break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE:
      *plan = {true, true};
      break;
    case ACL_MEMCPY_DEFAULT:  // the twin knows every device address: infer the direction
      *plan = {InDeviceAllocation(memory, dst, count), InDeviceAllocation(memory, src, count)};
      break;
    default:
      return Status(ACL_ERROR_INVALID_PARAM,
                    std::string(api) + ": kind " + std::to_string(kind) + " is not an aclrtMemcpyKind");
  }
  if (count == 0) return Status::Ok();
  // Device memory that is not (or no longer) allocated is never touched, whatever the kind says:
  // its pages are inaccessible since the free.
  for (const auto &[ptr, what] : {std::pair<const void *, const char *>{dst, "destination"}, {src, "source"}}) {
    if (memory.InArena(ptr) && !InDeviceAllocation(memory, ptr, count)) {
      return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": " + what + " " + Range(ptr, count) +
                                                    " is device memory that is not inside one live allocation "
                                                    "(freed, or never allocated)");
    }
  }
  if (plan->dst_on_device && !InDeviceAllocation(memory, dst, count)) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": destination " + Range(dst, count) +
                                                  " is not inside one live device allocation");
  }
  if (plan->src_on_device && !InDeviceAllocation(memory, src, count)) {
    return Status(ACL_ERROR_RT_PARAM_INVALID,
                  std::string(api) + ": source " + Range(src, count) + " is not inside one live device allocation");
  }
  return Status::Ok();
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtMalloc");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtMalloc", devPtr);
  // A policy is one page rule (low byte) plus optional memory-type/access flags; anything else
  // is refused, not read as some rule.
  const uint32_t bits = static_cast<uint32_t>(policy);
  const uint32_t page_rule = bits & 0xFFu;
  const uint32_t flags = bits & ~0xFFu;
  constexpr uint32_t kKnownFlags =
      ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;
  if (page_rule > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P || (flags & ~kKnownFlags) != 0) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: policy " + std::to_string(bits) +
                                                      " is not an aclrtMemMallocPolicy (a page rule " +
                                                      "0..7, optionally with ACL_MEM_TYPE_*/ACL_MEM_ACCESS_* flags)"));
  }
  // Page policy: the *_NORMAL_ONLY ones keep 4 KiB pages; the others ask for transparent huge
  // pages on large allocations (the 1G ones get 2 MiB pages; none is ever refused).
  const bool huge_pages = page_rule != ACL_MEM_MALLOC_NORMAL_ONLY && page_rule != ACL_MEM_MALLOC_NORMAL_ONLY_P2P;
  StatusOr<std::shared_ptr<Context>> current = runtime->CurrentContext();
  if (!current.ok()) return Report(Prefixed("aclrtMalloc", current.status()));
  StatusOr<void *> allocated = runtime->memory().Allocate(size, current.value()->device().id(), huge_pages);
  if (!allocated.ok()) return Report(allocated.status());
  *devPtr = allocated.value();
  return ACL_SUCCESS;
}

aclError aclrtFree(void *devPtr) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtFree");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtFree", devPtr);
  return Report(runtime->memory().Free(devPtr));
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtMallocHost");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtMallocHost", hostPtr);
  StatusOr<void *> allocated = runtime->host_memory().Allocate(size);
  if (!allocated.ok()) return Report(allocated.status());
  *hostPtr = allocated.value();
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void *hostPtr) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtFreeHost");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtFreeHost", hostPtr);
  return Report(runtime->host_memory().Free(hostPtr));
}

// The twin's device memory is host memory, so a registered range is device-visible at its own
// address (devPtr == ptr). Only ACL_HOST_REGISTER_MAPPED is supported: IOMEMORY maps a PCIe
// device's IO space (none here) and CANN documents READONLY as reserved/unsupported.
aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtHostRegister");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtHostRegister", ptr);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtHostRegister", devPtr);
  if (RawEnum(type) != ACL_HOST_REGISTER_MAPPED) {
    return Report(Status(ACL_ERROR_FEATURE_UNSUPPORTED, "aclrtHostRegister: type " + std::to_string(RawEnum(type)) +
                                                            " is not supported (only ACL_HOST_REGISTER_MAPPED)"));
  }
  StatusOr<std::shared_ptr<Context>> current = runtime->CurrentContext();
  if (!current.ok()) return Report(Prefixed("aclrtHostRegister", current.status()));
  Status registered = runtime->memory().RegisterHost(ptr, size, current.value()->device().id());
  if (!registered.ok()) return Report(registered);
  *devPtr = ptr;
  return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void *ptr) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtHostUnregister");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtHostUnregister", ptr);
  return Report(runtime->memory().UnregisterHost(ptr));
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtMemcpy");
  CopyPlan plan{};
  Status planned = PlanCopy("aclrtMemcpy", runtime->memory(), dst, destMax, src, count, RawEnum(kind), &plan);
  if (!planned.ok()) return Report(planned);
  if (count > 0) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtMemcpyAsync");
  // The copy holds the allocations it reads and writes until it has run: aclrtFree returns at
  // once (CANN: no implicit synchronization) but their memory stays mapped and unused until then,
  // so the copy completes with the data they held and never touches unmapped pages. Held before
  // the checks, so a free racing with this call cannot slip in between.
  auto copy = std::make_shared<QueuedCopy>();
  copy->runtime = runtime;
  for (const void *end : {static_cast<const void *>(dst), src}) {
    MemoryHold hold = end != nullptr ? runtime->memory().Hold(end) : nullptr;
    copy->holds.push_back(hold != nullptr || end == nullptr ? std::move(hold) : runtime->host_memory().Hold(end));
  }
  CopyPlan plan{};
  Status planned = PlanCopy("aclrtMemcpyAsync", runtime->memory(), dst, destMax, src, count, RawEnum(kind), &plan);
  if (!planned.ok()) return Report(planned);
  StatusOr<std::shared_ptr<Stream>> found = runtime->FindStream(stream);
  if (!found.ok()) return Report(Prefixed("aclrtMemcpyAsync", found.status()));
  found.value()->Enqueue(
      [copy, dst, src, count] {
        if (count > 0) std::memmove(dst, src, count);
        return Status::Ok();
      },
      "MEMCPY_ASYNC");
  return ACL_SUCCESS;
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtMemset");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtMemset", devPtr);
  if (count > maxCount) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) + " exceeds maxCount " +
                                                      std::to_string(maxCount)));
  }
  // Host or device memory, decided by the address (as CANN does); device ranges are checked.
  uintptr_t base = 0;
  size_t size = 0;
  if (count > 0 && runtime->memory().InArena(devPtr) && !runtime->memory().Lookup(devPtr, &base, &size)) {
    return Report(Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: " + Range(devPtr, count) +
                                                         " is device memory that is not a live allocation (freed, or "
                                                         "never allocated)"));
  }
  if (count > 0 && runtime->memory().Lookup(devPtr, &base, &size) &&
      !InDeviceAllocation(runtime->memory(), devPtr, count)) {
    return Report(Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtMemset: " + Range(devPtr, count) +
                                                         " runs past the end of its device allocation (" +
                                                         std::to_string(size) + " bytes)"));
  }
  std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

}  // extern "C"
