// Reads a kernel binary's ELF section headers BEFORE anything is loaded: accepts the raw
// device binary (ET_DYN) or bisheng's host relocatable object (ET_REL with .aicore_binary,
// which holds the device binary), and parses the device binary's .ascend.meta text.
#ifndef TWIN_RUNTIME_INTERNAL_ELF_IMAGE_H_
#define TWIN_RUNTIME_INTERNAL_ELF_IMAGE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

struct KernelMeta {
  uint32_t abi = 0;
  uint32_t npu_arch = 0;
  std::string npu_arch_flag;         // e.g. "dav-2201"; empty if absent
  std::vector<std::string> kernels;  // in file order
};

struct DeviceImage {
  std::vector<uint8_t> bytes;  // the device binary (ET_DYN) to load
  KernelMeta meta;
  bool from_host_object = false;  // true if it was extracted from .aicore_binary
};

// Errors: ACL_ERROR_INVALID_PARAM with one line naming the defect.
StatusOr<DeviceImage> ReadKernelBinary(const void *data, size_t length);

// Parses .ascend.meta text (exposed for tests).
StatusOr<KernelMeta> ParseKernelMeta(const std::string &text);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_ELF_IMAGE_H_
