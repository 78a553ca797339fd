// libFuzzer target: the kernel-image reader (section headers, .ascend.meta, .aicore_binary
// extraction) and the complete image validator that runs before anything is mapped. Built with
// -fsanitize=fuzzer,address,undefined (BUILD.bazel); any crash, leak or UB report is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "twin/runtime/device/image_check.h"
#include "twin/runtime/internal/elf_image.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace asc_twin::rt;
  StatusOr<DeviceImage> image = ReadKernelBinary(data, size);
  if (image.ok()) {
    const DeviceImage &device = image.value();
    CheckDeviceImage(device.bytes.data(), device.bytes.size(), device.meta.kernels);
  }
  static const std::vector<std::string> kernels = {"vadd_f32", "empty_kernel"};
  CheckDeviceImage(data, size, kernels);  // also on bytes the reader refused
  return 0;
}
