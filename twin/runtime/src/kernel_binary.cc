#include "twin/runtime/internal/kernel_binary.h"

#include <type_traits>

#include "asc_twin/aicore_abi.h"
#include "twin/runtime/internal/device_process.h"

namespace asc_twin::rt {

static_assert(std::is_same<KernelEntryFn, AscTwinEntryFn>::value, "KernelEntryFn must match the ABI");

StatusOr<std::shared_ptr<KernelBinary>> KernelBinary::Load(const void *data, size_t length,
                                                           std::shared_ptr<DeviceProcess> device) {
  if (data == nullptr || length == 0) {
    return Status(ACL_ERROR_INVALID_PARAM, "kernel binary: data must be non-null and length > 0");
  }
  StatusOr<DeviceImage> image = ReadKernelBinary(data, length);
  if (!image.ok()) return image.status();
  const KernelMeta &meta = image.value().meta;
  const SocSpec &soc = device->soc();
  if (meta.npu_arch != soc.npu_arch) {
    std::string built = "NpuArch " + std::to_string(meta.npu_arch);
    if (!meta.npu_arch_flag.empty()) built += " (" + meta.npu_arch_flag + ")";
    return Status(ACL_ERROR_RT_SOC_VERSION, "kernel binary was built for " + built + ", but the device " +
                                                soc.soc_version + " has NpuArch " + std::to_string(soc.npu_arch) +
                                                " (dav-" + std::to_string(soc.npu_arch) + ")");
  }
  uint64_t id = 0;
  StatusOr<std::vector<DeviceKernelInfo>> infos = device->LoadBinary(image.value().bytes, meta.kernels, &id);
  if (!infos.ok()) return infos.status();
  std::shared_ptr<KernelBinary> binary(new KernelBinary());
  binary->meta_ = meta;
  binary->device_ = std::move(device);
  binary->id_ = id;
  for (size_t i = 0; i < meta.kernels.size(); ++i) {
    Kernel kernel;
    kernel.name = meta.kernels[i];
    kernel.params = infos.value()[i].params;
    kernel.args_size = infos.value()[i].args_size;
    kernel.binary = binary.get();
    kernel.device = binary->device_.get();
    kernel.binary_id = id;
    kernel.index = static_cast<uint32_t>(i);
    binary->kernels_.emplace(kernel.name, kernel);
  }
  return binary;
}

KernelBinary::~KernelBinary() {
  if (device_) device_->UnloadBinary(id_);
}

StatusOr<std::shared_ptr<const Kernel>> KernelBinary::FindKernel(const std::string &name) {
  auto it = kernels_.find(name);
  if (it == kernels_.end()) {
    return Status(ACL_ERROR_RT_KERNEL_LOOKUP, "kernel '" + name + "' is not in this binary; it has: " + KernelList());
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
