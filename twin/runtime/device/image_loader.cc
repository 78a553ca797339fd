#include "twin/runtime/device/image_loader.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/internal/core_layout.h"
#include "twin/runtime/device/image_check.h"
#include "twin/runtime/internal/elf_image.h"

namespace asc_twin::rt {
namespace {

Status Refused(const std::string &what) { return Status(ACL_ERROR_INVALID_PARAM, "invalid kernel binary: " + what); }

}  // namespace

LoadedImage::~LoadedImage() { Close(); }

void LoadedImage::Close() {
  if (handle != nullptr) dlclose(handle);
  if (fd >= 0) close(fd);
  handle = nullptr;
  fd = -1;
}

StatusOr<std::shared_ptr<LoadedImage>> LoadImage(const uint8_t *bytes, size_t length) {
  StatusOr<DeviceImage> read = ReadKernelBinary(bytes, length);
  if (!read.ok()) return read.status();
  if (read.value().from_host_object) return Refused("the device process expects the device image itself");
  Status checked = CheckDeviceImage(bytes, length, read.value().meta.kernels);
  if (!checked.ok()) return checked;
  auto image = std::make_shared<LoadedImage>();
  image->fd = memfd_create("asc_twin_kernel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (image->fd < 0) return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("memfd_create: ") + strerror(errno));
  for (size_t done = 0; done < length;) {
    const ssize_t n = write(image->fd, bytes + done, length - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("memfd write: ") + strerror(errno));
    done += static_cast<size_t>(n);
  }
  // Sealed before it is mapped: no one (a kernel of the device process included) can map the
  // file writable and so change the code of the executable mapping (sandbox.h: W^X).
  if (fcntl(image->fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("sealing the image memfd: ") + strerror(errno));
  }
  // A fresh name per image: the loader matches names first (an unloaded image may stay
  // resident while a thread_local destructor of it is pending).
  static std::atomic<uint64_t> serial{0};
  const int named = fcntl(image->fd, F_DUPFD_CLOEXEC, 64 + static_cast<int>(serial.fetch_add(1) % 4096));
  if (named >= 0) {
    close(image->fd);
    image->fd = named;
  }
  const std::string path = "/proc/self/fd/" + std::to_string(image->fd);
  image->handle = dlopen(path.c_str(), RTLD_LOCAL | RTLD_NOW);
  if (image->handle == nullptr) {
    const char *why = dlerror();
    return Refused(std::string("cannot be loaded: ") + (why ? why : "dlopen failed"));
  }
  const std::vector<std::string> &names = read.value().meta.kernels;
  for (const std::string &name : names) {
    const std::string entry_symbol = ASC_TWIN_ENTRY_PREFIX + name;
    const std::string info_symbol = ASC_TWIN_INFO_PREFIX + name;
    void *entry = dlsym(image->handle, entry_symbol.c_str());
    const auto *info = static_cast<const AscTwinKernelInfo *>(dlsym(image->handle, info_symbol.c_str()));
    if (entry == nullptr || info == nullptr) {
      return Refused(std::string(ASC_TWIN_META_SECTION) + " lists kernel '" + name +
                     "' but the binary does not export " + (entry == nullptr ? entry_symbol : info_symbol));
    }
    if (info->abi_version != ASC_TWIN_ABI_VERSION) {
      return Refused("kernel '" + name + "' has ABI version " + std::to_string(info->abi_version) + ", expected " +
                     std::to_string(ASC_TWIN_ABI_VERSION) + ": rebuild it with the current bisheng");
    }
    if (uint64_t{info->params} * 8 > info->args_size) {
      return Refused("kernel '" + name + "' declares " + std::to_string(info->params) + " parameters but only " +
                     std::to_string(info->args_size) + " argument bytes");
    }
    if (!KnownKernelType(info->kernel_type)) {
      return Refused(
          "kernel '" + name + "' has kernel type " + std::to_string(info->kernel_type) +
          ", not one of KERNEL_TYPE_AIV_ONLY .. KERNEL_TYPE_MIX_AIC_1_2: rebuild it with the current bisheng");
    }
    Kernel kernel;
    kernel.name = name;
    kernel.kernel_type = info->kernel_type;
    kernel.entry = reinterpret_cast<KernelEntryFn>(entry);
    kernel.params = info->params;
    kernel.args_size = info->args_size;
    image->kernels.push_back(kernel);
  }
  return image;
}

}  // namespace asc_twin::rt
