#include "twin/runtime/internal/memory_table.h"

#include "twin/runtime/device/protocol.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <set>
#include <string>
#include <sys/mman.h>
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

constexpr size_t kHugePage = size_t{2} << 20;
// Allocation::offset of memory that is not in the GM arena (device isolation off).
constexpr uint64_t kNotInArena = UINT64_MAX;

// Device isolation off: 2 MiB aligned and advised as huge pages (best effort).
void *HugeAlloc(size_t bytes) {
  const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void *ptr = std::aligned_alloc(kHugePage, rounded);
  if (ptr != nullptr) madvise(ptr, rounded, MADV_HUGEPAGE);
  return ptr;
}

// The checker's per-thread cache: accessible ranges of allocations this thread found, each
// tagged with the table and the generation it was found under.
struct CachedRange {
  const MemoryTable *table = nullptr;
  uint64_t generation = 0;
  uintptr_t lo = 0, hi = 0;
};
constexpr unsigned kCachedRanges = 4;  // a kernel typically streams 2-4 tensors
struct GmCheckCache {
  CachedRange ranges[kCachedRanges];
  unsigned next = 0;  // round-robin victim
};
thread_local GmCheckCache t_gm_cache;

std::atomic<uint64_t> g_generations{0};
bool g_forked_child = false;  // set by the fork() child handler only

}  // namespace

bool InForkedChild() { return g_forked_child; }

// The process's tables, for the fork() handlers: the parent holds every table's lock across
// fork() (so the child never sees a table mid-change), and the child privatizes its memory.
struct ForkGuard {
  static std::mutex &Mutex() {
    static std::mutex *mutex = new std::mutex;  // never destroyed: a fork may come at exit
    return *mutex;
  }
  static std::set<MemoryTable *> &Tables() {
    static auto *tables = new std::set<MemoryTable *>;
    return *tables;
  }
  static void Prepare() {
    Mutex().lock();
    for (MemoryTable *table : Tables()) table->mutex_.lock();
  }
  static void Parent() {
    for (MemoryTable *table : Tables()) table->mutex_.unlock();
    Mutex().unlock();
  }
  static void Child() {
    g_forked_child = !Tables().empty();
    for (MemoryTable *table : Tables()) {
      table->PrivatizeInForkChild();
      table->mutex_.unlock();
    }
    Mutex().unlock();
  }
  static void Join(MemoryTable *table) {
    static std::once_flag installed;
    std::call_once(installed, [] { pthread_atfork(&ForkGuard::Prepare, &ForkGuard::Parent, &ForkGuard::Child); });
    std::lock_guard<std::mutex> lock(Mutex());
    Tables().insert(table);
  }
  static void Leave(MemoryTable *table) {
    std::lock_guard<std::mutex> lock(Mutex());
    Tables().erase(table);
  }
};

uint64_t MemoryTable::NewGeneration() { return g_generations.fetch_add(1, std::memory_order_relaxed) + 1; }

MemoryTable::MemoryTable() { ForkGuard::Join(this); }

void MemoryTable::PrivatizeInForkChild() {
  mapper_ = nullptr;  // the device process is the parent's: the child never tells it anything
  if (!arena_) return;
  // The arena: a private mapping of the same memfd (copy-on-write: the child's stores stay in
  // the child), accessible where the parent's was. Then each registered range (the caller's
  // own memory) becomes a private copy, which also detaches it from later changes in the parent.
  // A fork child has no caller to report a failure to; the result is not checked (nor mprotect's).
  const uintptr_t base = arena_->base();
  (void)mmap(reinterpret_cast<void *>(base), arena_->size(), PROT_NONE, MAP_PRIVATE | MAP_FIXED | MAP_NORESERVE,
             arena_->gm_fd(), 0);
  for (const auto *table : {&allocations_, &held_freed_}) {
    for (const auto &[start, allocation] : *table) {
      if (allocation.host_registered || allocation.external || allocation.offset == kNotInArena) continue;
      mprotect(reinterpret_cast<void *>(start), (allocation.accessible + GmArena::kPage - 1) & ~(GmArena::kPage - 1),
               PROT_READ | PROT_WRITE);
    }
  }
  for (const auto &[start, allocation] : allocations_) {
    if (allocation.host_registered && !allocation.external && allocation.offset != kNotInArena) {
      arena_->ReturnHostPages(reinterpret_cast<void *>(start), allocation.size);
    }
  }
}

MemoryTable::~MemoryTable() {
  ForkGuard::Leave(this);
  for (auto &entry : held_freed_) ReleaseMemory(entry.first, entry.second);
  // Registered host ranges go back to private pages; the arena (and its memfd) goes with the
  // last owner (a device process may still hold it).
  for (auto &entry : allocations_) {
    if (entry.second.offset == kNotInArena) {
      if (!entry.second.host_registered && !entry.second.external) std::free(reinterpret_cast<void *>(entry.first));
      continue;
    }
    if (entry.second.host_registered && !entry.second.external && arena_) {
      arena_->ReturnHostPages(reinterpret_cast<void *>(entry.first), entry.second.size);
    }
  }
}

StatusOr<GmArena *> MemoryTable::ArenaLocked() {
  if (!arena_) {
    StatusOr<GmArena *> created = GmArena::Create();
    if (!created.ok()) return created.status();
    arena_.reset(created.value());
  }
  return arena_.get();
}

std::shared_ptr<GmArena> MemoryTable::arena() {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  StatusOr<GmArena *> arena = ArenaLocked();
  return arena.ok() ? arena_ : nullptr;
}

void MemoryTable::SetHostMapper(HostMapper mapper) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  mapper_ = std::move(mapper);
}

std::vector<MemoryTable::Registration> MemoryTable::Registrations() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  std::vector<Registration> out;
  for (const auto &entry : allocations_) {
    if (entry.second.host_registered && !entry.second.external) {
      out.push_back(Registration{reinterpret_cast<void *>(entry.first), entry.second.size, entry.second.offset});
    }
  }
  return out;
}

void MemoryTable::PublishLocked() {
  if (!arena_) return;
  std::vector<proto::TableEntry> entries;
  entries.reserve(allocations_.size());
  for (const auto &entry : allocations_) {
    entries.push_back(proto::TableEntry{entry.first, entry.second.accessible,
                                        entry.second.host_registered ? 0 : proto::kEntryInArena});
  }
  arena_->PublishTable(entries.data(), static_cast<uint32_t>(entries.size()));
}

StatusOr<void *> MemoryTable::Allocate(size_t size, int32_t device_id, bool huge_pages) {
  if (size == 0) return Status(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size must be > 0");
  if (size > (size_t{1} << 46)) {
    return Status(ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "aclrtMalloc: " + std::to_string(size) + " bytes is beyond any device");
  }
  const size_t accessible = AccessibleSize(size);
  if (!DeviceIsolationEnabled()) {
    void *ptr = huge_pages && accessible >= kHugePage ? HugeAlloc(accessible) : AlignedAlloc(accessible);
    if (ptr == nullptr) {
      return Status(ACL_ERROR_RT_MEMORY_ALLOCATION,
                    "aclrtMalloc: out of device memory allocating " + std::to_string(size) + " bytes");
    }
    std::unique_lock<std::shared_mutex> lock(mutex_);
    allocations_[reinterpret_cast<uintptr_t>(ptr)] = Allocation{size, accessible, device_id, false, kNotInArena, false};
    return ptr;
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  StatusOr<GmArena *> arena = ArenaLocked();
  if (!arena.ok()) return Status(arena.status().code(), "aclrtMalloc: " + arena.status().message());
  if (allocations_.size() >= proto::kMaxTableEntries) {
    return Status(ACL_ERROR_RT_MEMORY_ALLOCATION,
                  "aclrtMalloc: more than " + std::to_string(proto::kMaxTableEntries) + " live allocations");
  }
  StatusOr<uint64_t> offset = arena.value()->Reserve(accessible, true);
  if (!offset.ok()) return Status(offset.status().code(), "aclrtMalloc: " + offset.status().message());
  const uintptr_t base = arena.value()->base() + offset.value();
  allocations_[base] = Allocation{size, accessible, device_id, false, offset.value(), false};
  PublishLocked();
  return reinterpret_cast<void *>(base);
}

Status MemoryTable::Free(void *ptr) {
  const auto base = reinterpret_cast<uintptr_t>(ptr);
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
  if (it->second.host_registered) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtFree: " + Hex(base) +
                                                  " is host memory registered by aclrtHostRegister, not an "
                                                  "aclrtMalloc allocation (release it with aclrtHostUnregister)");
  }
  const Allocation gone = it->second;
  allocations_.erase(it);
  generation_.store(NewGeneration(), std::memory_order_release);
  PublishLocked();
  if (gone.holds > 0) {  // queued tasks still use it: its memory goes with the last of them
    held_freed_[base] = gone;
    return Status::Ok();
  }
  lock.unlock();
  ReleaseMemory(base, gone);
  return Status::Ok();
}

void MemoryTable::ReleaseMemory(uintptr_t base, const Allocation &gone) {
  if (gone.offset == kNotInArena) {
    std::free(reinterpret_cast<void *>(base));
  } else if (!gone.external && arena_) {
    arena_->Release(gone.offset, gone.accessible);
  }
}

MemoryHold MemoryTable::Hold(const void *addr) {
  const auto at = reinterpret_cast<uintptr_t>(addr);
  std::unique_lock<std::shared_mutex> lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it == allocations_.begin()) return nullptr;
  --it;
  if (at >= it->first + it->second.accessible || it->second.host_registered || it->second.external) return nullptr;
  ++it->second.holds;
  const uintptr_t base = it->first;
  return MemoryHold(addr, [this, base](const void *) { Unhold(base); });
}

void MemoryTable::Unhold(uintptr_t base) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  auto live = allocations_.find(base);
  if (live != allocations_.end()) {
    --live->second.holds;
    return;
  }
  auto freed = held_freed_.find(base);
  if (freed == held_freed_.end() || --freed->second.holds > 0) return;
  const Allocation gone = freed->second;
  held_freed_.erase(freed);
  lock.unlock();
  ReleaseMemory(base, gone);
}

size_t MemoryTable::HeldFreedCount() const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return held_freed_.size();
}

Status MemoryTable::RegisterHost(void *ptr, uint64_t size, int32_t device_id) {
  const auto begin = reinterpret_cast<uintptr_t>(ptr);
  if (size == 0) return Status(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: size must be > 0");
  if (begin % kDeviceMemAlignment != 0) {
    return Status(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: ptr " + Hex(begin) + " is not 4 KiB (page) aligned");
  }
  const uintptr_t end = begin + size;
  if (end < begin) {
    return Status(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: [" + Hex(begin) + ", +" + std::to_string(size) +
                                               ") wraps around the address space");
  }
  std::unique_lock<std::shared_mutex> lock(mutex_);
  // The only candidates for overlap: the last entry starting before `end` (entries never overlap).
  auto it = allocations_.lower_bound(end);
  if (it != allocations_.begin()) {
    --it;
    if (it->first + it->second.accessible > begin) {
      return Status(ACL_ERROR_INVALID_PARAM,
                    "aclrtHostRegister: [" + Hex(begin) + ", +" + std::to_string(size) + ") overlaps the " +
                        (it->second.host_registered ? "registered host range" : "device allocation") + " at " +
                        Hex(it->first) + " (" + std::to_string(it->second.accessible) + " bytes)");
    }
  }
  if (!DeviceIsolationEnabled()) {  // the kernels run in this process: nothing to share
    allocations_[begin] =
        Allocation{static_cast<size_t>(size), static_cast<size_t>(size), device_id, true, kNotInArena, false};
    return Status::Ok();
  }
  StatusOr<GmArena *> arena = ArenaLocked();
  if (!arena.ok()) return Status(arena.status().code(), "aclrtHostRegister: " + arena.status().message());
  if (arena.value()->InArena(begin)) {
    return Status(ACL_ERROR_INVALID_PARAM, "aclrtHostRegister: " + Hex(begin) + " is device memory, not host memory");
  }
  StatusOr<uint64_t> offset = arena.value()->Reserve(size, false);
  if (!offset.ok()) return Status(offset.status().code(), "aclrtHostRegister: " + offset.status().message());
  Status adopted = arena.value()->AdoptHostPages(ptr, size, offset.value());
  if (adopted.ok() && mapper_) {
    adopted = mapper_(ptr, size, offset.value(), true);
    if (!adopted.ok()) arena.value()->ReturnHostPages(ptr, size);
  }
  if (!adopted.ok()) {
    arena.value()->Release(offset.value(), size);
    return Status(adopted.code(), "aclrtHostRegister: " + adopted.message());
  }
  allocations_[begin] =
      Allocation{static_cast<size_t>(size), static_cast<size_t>(size), device_id, true, offset.value(), false};
  PublishLocked();
  return Status::Ok();
}

Status MemoryTable::UnregisterHost(void *ptr) {
  const auto base = reinterpret_cast<uintptr_t>(ptr);
  std::unique_lock<std::shared_mutex> lock(mutex_);
  auto it = allocations_.find(base);
  if (it == allocations_.end() || !it->second.host_registered) {
    return Status(ACL_ERROR_INVALID_PARAM,
                  "aclrtHostUnregister: " + Hex(base) +
                      (it == allocations_.end() ? " is not registered (never registered or already unregistered)"
                                                : " is an aclrtMalloc allocation, not registered host memory"));
  }
  const Allocation gone = it->second;
  allocations_.erase(it);
  // Kernels' cached ranges of it must go stale, as after a free.
  generation_.store(NewGeneration(), std::memory_order_release);
  PublishLocked();
  if (!gone.external && arena_ && gone.offset != kNotInArena) {
    if (mapper_) mapper_(ptr, gone.size, gone.offset, false);
    arena_->ReturnHostPages(ptr, gone.size);
    arena_->Release(gone.offset, gone.size);
  }
  return Status::Ok();
}

void MemoryTable::FreeAllOf(int32_t device_id) {
  std::vector<std::pair<uintptr_t, Allocation>> doomed;
  std::unique_lock<std::shared_mutex> lock(mutex_);
  for (auto it = allocations_.begin(); it != allocations_.end();) {
    if (it->second.device_id == device_id) {
      if (it->second.holds > 0) {
        held_freed_[it->first] = it->second;  // released by its last hold
      } else {
        doomed.emplace_back(it->first, it->second);
      }
      it = allocations_.erase(it);
    } else {
      ++it;
    }
  }
  generation_.store(NewGeneration(), std::memory_order_release);
  PublishLocked();
  for (auto &entry : doomed) {
    const Allocation &gone = entry.second;
    if (gone.offset == kNotInArena) {
      if (!gone.host_registered) std::free(reinterpret_cast<void *>(entry.first));
      continue;
    }
    if (gone.external || !arena_) continue;
    if (gone.host_registered) {
      if (mapper_) mapper_(reinterpret_cast<void *>(entry.first), gone.size, gone.offset, false);
      arena_->ReturnHostPages(reinterpret_cast<void *>(entry.first), gone.size);
    }
    arena_->Release(gone.offset, gone.accessible);
  }
}

void MemoryTable::ReplaceWith(const std::vector<std::pair<uintptr_t, uint64_t>> &ranges) {
  std::unique_lock<std::shared_mutex> lock(mutex_);
  allocations_.clear();
  for (const auto &range : ranges) {
    allocations_[range.first] =
        Allocation{static_cast<size_t>(range.second), static_cast<size_t>(range.second), 0, true, 0, true};
  }
  generation_.store(NewGeneration(), std::memory_order_release);
}

bool MemoryTable::InArena(const void *addr) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  return arena_ && arena_->InArena(reinterpret_cast<uintptr_t>(addr));
}

bool MemoryTable::Contains(const void *addr, uint64_t len) const {
  // The same question as the kernels' GM check, so the same lock-free path: this thread's
  // cached ranges, valid while no free happened (the model executor asks this for every buffer
  // of every aclmdlExecute; a shared lock each was a tenth of a small run's ACL call).
  return GmCheck(this, addr, len) != 0;
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

uint64_t MemoryTable::FindRange(uintptr_t begin, uintptr_t end, uintptr_t *lo, uintptr_t *hi) const {
  std::shared_lock<std::shared_mutex> lock(mutex_);
  // Read under the lock: a free changes it only while holding the lock exclusively.
  const uint64_t generation = generation_.load(std::memory_order_relaxed);
  auto it = allocations_.upper_bound(begin);
  if (it == allocations_.begin()) return 0;
  --it;
  if (end > it->first + it->second.accessible) return 0;
  *lo = it->first;
  *hi = it->first + it->second.accessible;
  return generation;
}

int MemoryTable::GmRange(const void *gm_ctx, const void *addr, uint64_t len, uintptr_t *lo, uintptr_t *hi,
                         uint64_t *generation) {
  const auto *table = static_cast<const MemoryTable *>(gm_ctx);
  const auto begin = reinterpret_cast<uintptr_t>(addr);
  const uintptr_t end = begin + len;
  if (end < begin) return 0;  // wraps around
  const uint64_t found = table->FindRange(begin, end, lo, hi);
  if (found == 0) return 0;
  *generation = found;
  return 1;
}

// Kernels read generation_ through a plain pointer with __atomic_load_n: the same object
// representation, and lock-free, so both sides agree on every access.
static_assert(std::atomic<uint64_t>::is_always_lock_free && sizeof(std::atomic<uint64_t>) == sizeof(uint64_t),
              "kernels read the table generation as a uint64_t");
const uint64_t *MemoryTable::GenerationWord() const { return reinterpret_cast<const uint64_t *>(&generation_); }

int MemoryTable::GmCheck(const void *gm_ctx, const void *addr, uint64_t len) {
  const auto *table = static_cast<const MemoryTable *>(gm_ctx);
  const auto begin = reinterpret_cast<uintptr_t>(addr);
  const uintptr_t end = begin + len;
  if (end < begin) return 0;  // wraps around
  // Acquire pairs with the release in Free: an entry found under generation g is still live
  // while the table's generation reads g.
  const uint64_t generation = table->generation_.load(std::memory_order_acquire);
  GmCheckCache &cache = t_gm_cache;
  for (const CachedRange &r : cache.ranges) {
    if (r.table == table && r.generation == generation && begin >= r.lo && end <= r.hi) return 1;
  }
  uintptr_t lo = 0, hi = 0;
  const uint64_t found = table->FindRange(begin, end, &lo, &hi);
  if (found == 0) return 0;
  cache.ranges[cache.next] = CachedRange{table, found, lo, hi};
  cache.next = (cache.next + 1) % kCachedRanges;
  return 1;
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
  allocations_[reinterpret_cast<uintptr_t>(ptr)] = Allocation{size};
  return ptr;
}

Status HostMemoryTable::Free(void *ptr) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == allocations_.end() || it->second.freed) {
      return Status(ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost: " + Hex(reinterpret_cast<uintptr_t>(ptr)) +
                                                    " was not allocated by aclrtMallocHost (or already freed)");
    }
    if (it->second.holds > 0) {  // queued copies still use it: freed by the last of them
      it->second.freed = true;
      return Status::Ok();
    }
    allocations_.erase(it);
  }
  std::free(ptr);
  return Status::Ok();
}

MemoryHold HostMemoryTable::Hold(const void *addr) {
  const auto at = reinterpret_cast<uintptr_t>(addr);
  std::unique_lock<std::shared_mutex> lock(mutex_);
  auto it = allocations_.upper_bound(at);
  if (it == allocations_.begin()) return nullptr;
  --it;
  if (at >= it->first + it->second.size || it->second.freed) return nullptr;
  ++it->second.holds;
  const uintptr_t base = it->first;
  return MemoryHold(addr, [this, base](const void *) { Unhold(base); });
}

void HostMemoryTable::Unhold(uintptr_t base) {
  {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    auto it = allocations_.find(base);
    if (it == allocations_.end() || --it->second.holds > 0 || !it->second.freed) return;
    allocations_.erase(it);
  }
  std::free(reinterpret_cast<void *>(base));
}

}  // namespace asc_twin::rt
