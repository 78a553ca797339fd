// A loaded device binary, host side: its section headers and meta read (elf_image.h), its
// NpuArch checked against the device's, then handed to the device process, which validates
// the image completely and only then maps it (device/device_main.cc). Kernels are resolved
// eagerly there, so a broken binary fails at load time; the host never maps the image.
#ifndef TWIN_RUNTIME_INTERNAL_KERNEL_BINARY_H_
#define TWIN_RUNTIME_INTERNAL_KERNEL_BINARY_H_

#include <map>
#include <memory>
#include <string>

#include "twin/runtime/internal/elf_image.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/status.h"

// From asc_twin/aicore_abi.h, which only the runtime's .cc files include (so users of these
// internal headers need no include path for it).
struct AscTwinBlockEnv;

namespace asc_twin::rt {

class KernelBinary;
class DeviceProcess;

// AscTwinEntryFn.
using KernelEntryFn = int (*)(const AscTwinBlockEnv *env, const void *args, size_t args_size, char *err,
                              size_t err_cap);

// One __global__ kernel of a loaded binary. Hold it through the shared_ptr returned by
// KernelBinary::FindKernel: that pointer also keeps the binary loaded.
struct Kernel {
  std::string name;
  KernelEntryFn entry = nullptr;
  uint32_t params = 0;     // AscTwinKernelInfo::params
  uint32_t args_size = 0;  // AscTwinKernelInfo::args_size: bytes of arguments the entry reads
  // AscTwinKernelInfo::kernel_type (ASC_TWIN_KERNEL_TYPE_*; core_layout.h). Device side only.
  uint32_t kernel_type = 0xFFFFFFFFu;  // ASC_TWIN_KERNEL_TYPE_UNSET
  const KernelBinary *binary = nullptr;
  // Host side: where it runs. Device side: unused.
  DeviceProcess *device = nullptr;
  uint64_t binary_id = 0;  // the binary's id in its device process
  uint32_t index = 0;      // position in the binary's .ascend.meta kernel list
};

class KernelBinary : public std::enable_shared_from_this<KernelBinary> {
 public:
  // Errors: ACL_ERROR_INVALID_PARAM (malformed binary, missing symbols, dlopen failure),
  // ACL_ERROR_RT_SOC_VERSION (built for another NpuArch than `device`'s).
  // The device process may also refuse the image (ACL_ERROR_INVALID_PARAM) or fail
  // (ACL_ERROR_RT_INTERNAL_ERROR).
  static StatusOr<std::shared_ptr<KernelBinary>> Load(const void *data, size_t length,
                                                      std::shared_ptr<DeviceProcess> device);
  ~KernelBinary();
  KernelBinary(const KernelBinary &) = delete;
  KernelBinary &operator=(const KernelBinary &) = delete;

  const KernelMeta &meta() const { return meta_; }
  // Error: ACL_ERROR_RT_KERNEL_LOOKUP naming the kernels the binary has.
  StatusOr<std::shared_ptr<const Kernel>> FindKernel(const std::string &name);
  std::string KernelList() const;  // "add_custom, trap_kernel"

 private:
  KernelBinary() = default;
  KernelMeta meta_;
  std::shared_ptr<DeviceProcess> device_;
  uint64_t id_ = 0;
  std::map<std::string, Kernel> kernels_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_KERNEL_BINARY_H_
