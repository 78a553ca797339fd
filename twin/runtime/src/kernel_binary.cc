#include "twin/runtime/internal/kernel_binary.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>

#include "asc_twin/aicore_abi.h"

namespace asc_twin::rt {

static_assert(std::is_same<KernelEntryFn, AscTwinEntryFn>::value, "KernelEntryFn must match the ABI");

namespace {

std::string FdPath(int fd) { return "/proc/self/fd/" + std::to_string(fd); }

Status WriteAll(int fd, const uint8_t *data, size_t length) {
  while (length > 0) {
    const ssize_t written = write(fd, data, length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("kernel binary: writing to memfd failed: ") + strerror(errno));
    }
    data += written;
    length -= static_cast<size_t>(written);
  }
  return Status::Ok();
}

// glibc matches dlopen paths by name first: if an object loaded earlier under this
// /proc/self/fd/N name is still resident (e.g. kept by thread_local destructors), pick
// another descriptor number so the new image is really loaded.
int PickUnusedFdName(int fd) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    void *stale = dlopen(FdPath(fd).c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (stale == nullptr) return fd;
    dlclose(stale);
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, fd + 1);
    if (moved < 0) return fd;
    close(fd);
    fd = moved;
  }
  return fd;
}

}  // namespace

StatusOr<std::shared_ptr<KernelBinary>> KernelBinary::Load(const void *data, size_t length, const SocSpec &device) {
  if (data == nullptr || length == 0) {
    return Status(ACL_ERROR_INVALID_PARAM, "kernel binary: data must be non-null and length > 0");
  }
  StatusOr<DeviceImage> image = ReadKernelBinary(data, length);
  if (!image.ok()) return image.status();
  const KernelMeta &meta = image.value().meta;
  if (meta.npu_arch != device.npu_arch) {
    std::string built = "NpuArch " + std::to_string(meta.npu_arch);
    if (!meta.npu_arch_flag.empty()) built += " (" + meta.npu_arch_flag + ")";
    return Status(ACL_ERROR_RT_SOC_VERSION, "kernel binary was built for " + built + ", but the device " +
                                                device.soc_version + " has NpuArch " + std::to_string(device.npu_arch) +
                                                " (dav-" + std::to_string(device.npu_arch) + ")");
  }
  std::shared_ptr<KernelBinary> binary(new KernelBinary());
  binary->meta_ = meta;
  int fd = memfd_create("asc_twin_kernel", MFD_CLOEXEC);
  if (fd < 0) return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("kernel binary: memfd_create failed: ") + strerror(errno));
  const std::vector<uint8_t> &bytes = image.value().bytes;
  Status written = WriteAll(fd, bytes.data(), bytes.size());
  if (!written.ok()) {
    close(fd);
    return written;
  }
  fd = PickUnusedFdName(fd);
  binary->fd_ = fd;  // kept open while loaded, so the /proc/self/fd/N name stays ours
  binary->library_ = dlopen(FdPath(fd).c_str(), RTLD_LOCAL | RTLD_NOW);
  if (binary->library_ == nullptr) {
    const char *why = dlerror();
    return Status(ACL_ERROR_INVALID_PARAM, std::string("kernel binary: cannot be loaded: ") + (why ? why : "dlopen failed"));
  }
  for (const std::string &name : meta.kernels) {
    const std::string entry_symbol = ASC_TWIN_ENTRY_PREFIX + name;
    const std::string info_symbol = ASC_TWIN_INFO_PREFIX + name;
    void *entry = dlsym(binary->library_, entry_symbol.c_str());
    const auto *info = static_cast<const AscTwinKernelInfo *>(dlsym(binary->library_, info_symbol.c_str()));
    if (entry == nullptr || info == nullptr) {
      return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " ASC_TWIN_META_SECTION " lists kernel '" + name +
                                                 "' but the binary does not export " +
                                                 (entry == nullptr ? entry_symbol : info_symbol));
    }
    if (info->abi_version != ASC_TWIN_ABI_VERSION) {
      return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: kernel '" + name + "' has ABI version " +
                                                 std::to_string(info->abi_version) + ", expected " +
                                                 std::to_string(ASC_TWIN_ABI_VERSION) +
                                                 ": rebuild it with the current bisheng");
    }
    if (uint64_t{info->params} * 8 > info->args_size) {
      return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: kernel '" + name + "' declares " +
                                                 std::to_string(info->params) + " parameters but only " +
                                                 std::to_string(info->args_size) + " argument bytes");
    }
    Kernel kernel;
    kernel.name = name;
    kernel.entry = reinterpret_cast<KernelEntryFn>(entry);
    kernel.params = info->params;
    kernel.args_size = info->args_size;
    kernel.binary = binary.get();
    binary->kernels_.emplace(name, kernel);
  }
  return binary;
}

KernelBinary::~KernelBinary() {
  if (library_ != nullptr) {
    const std::string path = FdPath(fd_);
    dlclose(library_);
    // If the object stayed resident, keep its descriptor open forever: reusing the number would
    // make a later dlopen of the same name return this stale object.
    void *still_loaded = dlopen(path.c_str(), RTLD_NOLOAD | RTLD_LAZY);
    if (still_loaded != nullptr) {
      dlclose(still_loaded);
      return;
    }
  }
  if (fd_ >= 0) close(fd_);
}

StatusOr<std::shared_ptr<const Kernel>> KernelBinary::FindKernel(const std::string &name) {
  auto it = kernels_.find(name);
  if (it == kernels_.end()) {
    return Status(ACL_ERROR_RT_KERNEL_LOOKUP,
                  "kernel '" + name + "' is not in this binary; it has: " + KernelList());
  }
  // Aliasing pointer: points at the kernel, owns (keeps loaded) the binary.
  return std::shared_ptr<const Kernel>(shared_from_this(), &it->second);
}

std::string KernelBinary::KernelList() const {
  std::string list;
  for (const std::string &name : meta_.kernels) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace asc_twin::rt
