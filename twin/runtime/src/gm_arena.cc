#include "twin/runtime/internal/gm_arena.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "twin/runtime/device/protocol.h"

namespace asc_twin::rt {
namespace {

constexpr uint64_t kArenaBytes = uint64_t{64} << 30;  // a 910B's HBM; sparse, pages on touch
constexpr uint64_t kGiB = uint64_t{1} << 30;
// Far from where either process's loader, heap and mmap area live (0x55.., 0x7f..), so the
// device process can map the arena at the same address (MAP_FIXED_NOREPLACE) right after exec.
constexpr uint64_t kLowest = uint64_t{0x1000} << 32, kHighest = uint64_t{0x3000} << 32;

Status Failed(const std::string &what) {
  return Status(ACL_ERROR_RT_MEMORY_ALLOCATION, "device memory: " + what + ": " + strerror(errno));
}

}  // namespace

bool DeviceIsolationEnabled() {
  static const bool enabled = [] {
    const char *env = std::getenv("ASCEND_TWIN_DEVICE_ISOLATION");
    return env == nullptr || (std::strcmp(env, "0") != 0 && std::strcmp(env, "off") != 0);
  }();
  return enabled;
}

StatusOr<GmArena *> GmArena::Create() {
  std::unique_ptr<GmArena> arena(new GmArena());
  arena->gm_fd_ = memfd_create("asc_twin_gm", MFD_CLOEXEC);
  if (arena->gm_fd_ < 0) return Failed("memfd_create");
  if (ftruncate(arena->gm_fd_, static_cast<off_t>(kArenaBytes)) != 0) return Failed("sizing the GM memfd");
  arena->control_fd_ = memfd_create("asc_twin_control", MFD_CLOEXEC);
  if (arena->control_fd_ < 0) return Failed("memfd_create");
  if (ftruncate(arena->control_fd_, sizeof(proto::ControlBlock)) != 0) return Failed("sizing the control memfd");
  void *control = mmap(nullptr, sizeof(proto::ControlBlock), PROT_READ | PROT_WRITE, MAP_SHARED, arena->control_fd_, 0);
  if (control == MAP_FAILED) return Failed("mapping the control block");
  arena->control_ = static_cast<proto::ControlBlock *>(control);
  std::random_device seed;
  std::mt19937_64 rng((uint64_t{seed()} << 32) ^ seed() ^ static_cast<uint64_t>(getpid()));
  for (int attempt = 0; attempt < 64 && arena->base_ == 0; ++attempt) {
    const uint64_t slots = (kHighest - kLowest - kArenaBytes) / kGiB;
    const uint64_t want = kLowest + rng() % slots * kGiB;
    void *got = mmap(reinterpret_cast<void *>(want), kArenaBytes, PROT_NONE,
                     MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, arena->gm_fd_, 0);
    if (got == MAP_FAILED) continue;
    if (reinterpret_cast<uint64_t>(got) != want) {  // old kernels ignore the flag: treat as a miss
      munmap(got, kArenaBytes);
      continue;
    }
    arena->base_ = want;
  }
  if (arena->base_ == 0) return Failed("reserving " + std::to_string(kArenaBytes >> 30) + " GiB of address space");
  arena->size_ = kArenaBytes;
  return arena.release();
}

GmArena::~GmArena() {
  if (base_ != 0) munmap(reinterpret_cast<void *>(base_), size_);
  if (control_ != nullptr) munmap(control_, sizeof(proto::ControlBlock));
  if (gm_fd_ >= 0) close(gm_fd_);
  if (control_fd_ >= 0) close(control_fd_);
}

StatusOr<uint64_t> GmArena::Reserve(uint64_t bytes, bool map_here) {
  const uint64_t need = Pages(bytes) + kPage;  // + one guard page, never accessible
  uint64_t offset = UINT64_MAX;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = free_.begin(); it != free_.end(); ++it) {  // first fit
      if (it->second < need) continue;
      offset = it->first;
      const uint64_t rest = it->second - need;
      free_.erase(it);
      if (rest > 0) free_[offset + need] = rest;
      break;
    }
    if (offset == UINT64_MAX) {
      if (need > size_ - top_) {
        errno = ENOMEM;
        return Failed("out of device memory allocating " + std::to_string(bytes) + " bytes");
      }
      offset = top_;
      top_ += need;
    }
  }
  if (map_here && mprotect(reinterpret_cast<void *>(base_ + offset), Pages(bytes), PROT_READ | PROT_WRITE) != 0) {
    Status failed = Failed("mprotect");
    Release(offset, bytes);
    return failed;
  }
  return offset;
}

void GmArena::Release(uint64_t offset, uint64_t bytes) {
  const uint64_t span = Pages(bytes) + kPage;
  void *at = reinterpret_cast<void *>(base_ + offset);
  mprotect(at, span, PROT_NONE);
  fallocate(gm_fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset), static_cast<off_t>(span));
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t begin = offset, length = span;
  auto next = free_.lower_bound(begin);
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      length += prev->second;
      free_.erase(prev);
    }
  }
  if (next != free_.end() && begin + length == next->first) {
    length += next->second;
    free_.erase(next);
  }
  if (begin + length == top_) {
    top_ = begin;
  } else {
    free_[begin] = length;
  }
}

Status GmArena::AdoptHostPages(void *addr, uint64_t bytes, uint64_t offset) {
  const uint64_t span = Pages(bytes);
  // Copy the current contents into the memfd, then replace the pages in one mmap: the address
  // stays valid throughout and keeps its contents.
  const auto *src = static_cast<const uint8_t *>(addr);
  for (uint64_t done = 0; done < span;) {
    const ssize_t wrote = pwrite(gm_fd_, src + done, span - done, static_cast<off_t>(offset + done));
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0)
      return Status(ACL_ERROR_INVALID_PARAM, std::string("cannot read the host range: ") + strerror(errno));
    done += static_cast<uint64_t>(wrote);
  }
  void *got = mmap(addr, span, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, gm_fd_, static_cast<off_t>(offset));
  if (got == MAP_FAILED) return Failed("mapping the registered host range");
  return Status::Ok();
}

Status GmArena::ReturnHostPages(void *addr, uint64_t bytes) {
  const uint64_t span = Pages(bytes);
  void *copy = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) return Failed("unregistering host memory");
  // Huge pages where the kernel allows them: the copy's cost is mostly page faults (64 MiB in a
  // fork() child: 127 -> 35-49 ms measured); advice only, never an error.
  if (span >= (uint64_t{2} << 20)) madvise(copy, span, MADV_HUGEPAGE);
  std::memcpy(copy, addr, span);
  void *moved = mremap(copy, span, span, MREMAP_MAYMOVE | MREMAP_FIXED, addr);
  if (moved == MAP_FAILED) {
    Status failed = Failed("unregistering host memory");
    munmap(copy, span);
    return failed;
  }
  return Status::Ok();
}

void GmArena::PublishTable(const proto::TableEntry *entries, uint32_t count) {
  proto::ControlBlock &control = *control_;
  const uint64_t seq = control.table_seq.load(std::memory_order_relaxed);
  control.table_seq.store(seq + 1, std::memory_order_relaxed);  // odd: being written
  std::atomic_thread_fence(std::memory_order_release);
  control.table_count = count;
  std::memcpy(control.table, entries, sizeof(proto::TableEntry) * count);
  control.table_seq.store(seq + 2, std::memory_order_release);
}

}  // namespace asc_twin::rt
