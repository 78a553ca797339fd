// The aclrtArgsHandle argument list: layout, ordering rules, the handle registry.
#include "twin/runtime/src/kernel_args.h"

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_set>

#include "acl/acl.h"

namespace asc_twin::rt {
namespace {

constexpr uint64_t kKernelArgsMagic = 0x5347524141435341ull;  // "ASCAARGS"
constexpr size_t kSlot = 8;

size_t AlignUp(size_t value) { return (value + kSlot - 1) / kSlot * kSlot; }

// Every list ever initialized and not torn down, so that a bad handle is refused before it is
// read. Caller-memory lists (InitByUserMem) stay listed: CANN has no call that ends them.
std::mutex &RegistryMutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_set<const void *> &Registry() {
  static auto *registry = new std::unordered_set<const void *>();  // outlives thread-exit destructors
  return *registry;
}
void Register(const void *args) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Registry().insert(args);
}
void Unregister(const void *args) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Registry().erase(args);
}

struct ThreadArgs {
  ThreadArgs() : buffer(new uint8_t[kKernelArgsBufferSize]) {}
  ~ThreadArgs() { Unregister(&args); }
  KernelArgs args;
  std::unique_ptr<uint8_t[]> buffer;
};

Status Closed(const char *api, const KernelArgs &args) {
  if (args.finalized) {
    return Status(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  std::string(api) +
                      ": the argument list is finalized; appending or taking a placeholder buffer "
                      "after aclrtKernelArgsFinalize is not supported (start a new list with aclrtKernelArgsInit)");
  }
  return Status::Ok();
}

Status Reserve(const char *api, KernelArgs &args, size_t offset, size_t size, const char *what) {
  if (size > args.capacity || offset > args.capacity - size) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": " + what + " of " + std::to_string(size) +
                                                  " bytes at offset " + std::to_string(offset) + " overflows the " +
                                                  std::to_string(args.capacity) + "-byte argument buffer");
  }
  return Status::Ok();
}

StatusOr<KernelArgsParam *> NextParam(const char *api, KernelArgs &args, size_t size, const char *what) {
  Status closed = Closed(api, args);
  if (!closed.ok()) return closed;
  if (args.data_started) {
    return Status(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                  std::string(api) + ": appending a " + what +
                      " after aclrtKernelArgsGetPlaceHolderBuffer is not supported (append every parameter first)");
  }
  if (args.count >= args.max_params) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": the argument list already holds " +
                                                  std::to_string(args.count) + " parameters, its maximum");
  }
  const size_t offset = AlignUp(args.used);
  Status room = Reserve(api, args, offset, size, what);
  if (!room.ok()) return room;
  KernelArgsParam &param = args.params[args.count++];
  param = KernelArgsParam{};
  param.size = static_cast<uint32_t>(size);
  param.offset = offset;
  args.used = offset + size;
  args.params_end = args.used;
  return &param;
}

}  // namespace

std::string HexAddress(const void *ptr) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", ptr);
  return text;
}

void InitKernelArgs(KernelArgs *args, const void *function, uint8_t *buffer, size_t capacity, uint32_t max_params) {
  *args = KernelArgs{};
  args->magic = kKernelArgsMagic;
  args->function = function;
  args->buffer = buffer;
  args->capacity = capacity;
  args->max_params = max_params < kMaxKernelArgsParams ? max_params : kMaxKernelArgsParams;
  Register(args);
}

KernelArgs *ThreadKernelArgs(uint8_t **buffer) {
  // A pointer in TLS, the list on the heap: libascendcl.so's TLS is static (initial-exec), and
  // a dlopened library gets only a small surplus of it.
  static thread_local std::unique_ptr<ThreadArgs> thread_args;
  if (!thread_args) thread_args = std::make_unique<ThreadArgs>();
  *buffer = thread_args->buffer.get();
  return &thread_args->args;
}

StatusOr<KernelArgs *> FindKernelArgs(const char *api, void *handle) {
  bool live;
  {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    live = Registry().count(handle) != 0;
  }
  auto *args = static_cast<KernelArgs *>(handle);
  if (!live || args->magic != kKernelArgsMagic) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE, std::string(api) + ": argsHandle " + HexAddress(handle) +
                                                   " is not an argument list (not from aclrtKernelArgsInit or "
                                                   "aclrtKernelArgsInitByUserMem)");
  }
  return args;
}

StatusOr<KernelArgsParam *> FindParam(const char *api, KernelArgs &args, void *handle) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(&args.params[0]);
  const uintptr_t at = reinterpret_cast<uintptr_t>(handle);
  const size_t index = (at - first) / sizeof(KernelArgsParam);  // huge when at < first
  if (at < first || (at - first) % sizeof(KernelArgsParam) != 0 || index >= args.count) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE, std::string(api) + ": paramHandle " + HexAddress(handle) +
                                                   " is not a parameter of argsHandle " + HexAddress(&args) +
                                                   " (it holds " + std::to_string(args.count) + ")");
  }
  return &args.params[index];
}

StatusOr<KernelArgsParam *> AppendParam(const char *api, KernelArgs &args, const void *value, size_t size) {
  StatusOr<KernelArgsParam *> param = NextParam(api, args, size, "parameter");
  if (!param.ok()) return param;
  std::memcpy(args.buffer + param.value()->offset, value, size);
  return param;
}

StatusOr<KernelArgsParam *> AppendPlaceholder(const char *api, KernelArgs &args) {
  StatusOr<KernelArgsParam *> param = NextParam(api, args, kSlot, "placeholder");
  if (!param.ok()) return param;
  param.value()->placeholder = true;
  std::memset(args.buffer + param.value()->offset, 0, kSlot);  // the launch writes the address
  return param;
}

StatusOr<void *> PlaceholderBuffer(const char *api, KernelArgs &args, KernelArgsParam &param, size_t size) {
  if (!param.placeholder) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": paramHandle " + HexAddress(&param) +
                                                  " is a parameter from aclrtKernelArgsAppend, not a placeholder");
  }
  Status closed = Closed(api, args);
  if (!closed.ok()) return closed;
  const size_t offset = AlignUp(args.used);
  Status room = Reserve(api, args, offset, size, "placeholder buffer");
  if (!room.ok()) return room;
  if (!args.data_started) args.data_begin = offset;
  args.data_started = true;
  param.has_buffer = true;
  param.data_offset = offset;
  args.used = offset + size;
  return static_cast<void *>(args.buffer + offset);
}

Status UpdateParam(const char *api, KernelArgs &args, KernelArgsParam &param, const void *value, size_t size) {
  if (param.placeholder) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": paramHandle " + HexAddress(&param) +
                                                  " is a placeholder; write its data through the buffer from "
                                                  "aclrtKernelArgsGetPlaceHolderBuffer instead");
  }
  if (size != param.size) {
    return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": paramSize " + std::to_string(size) +
                                                  " differs from the " + std::to_string(param.size) +
                                                  " bytes the parameter was appended with");
  }
  std::memcpy(args.buffer + param.offset, value, size);
  args.updating = true;
  return Status::Ok();
}

Status FinalizeKernelArgs(KernelArgs &args) {
  args.finalized = true;
  args.updating = false;
  return Status::Ok();
}

Status CheckLaunchable(const char *api, const KernelArgs &args) {
  if (!args.finalized || args.updating) {
    return Status(
        ACL_ERROR_RT_PARAM_INVALID,
        std::string(api) + ": argsHandle " + HexAddress(&args) +
            (args.finalized ? " was updated after aclrtKernelArgsFinalize; finalize it again before the launch"
                            : " is not finalized; call aclrtKernelArgsFinalize before the launch"));
  }
  for (uint32_t i = 0; i < args.count; ++i) {
    if (args.params[i].placeholder && !args.params[i].has_buffer) {
      return Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": placeholder parameter " + std::to_string(i) +
                                                    " has no data: call aclrtKernelArgsGetPlaceHolderBuffer for it");
    }
  }
  return Status::Ok();
}

}  // namespace asc_twin::rt
