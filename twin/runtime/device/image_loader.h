// Maps a validated device image (image_check.h) with dlopen and resolves its kernels. Runs in
// the device process (or in the host when device isolation is off, see device_process.h).
#ifndef TWIN_RUNTIME_DEVICE_IMAGE_LOADER_H_
#define TWIN_RUNTIME_DEVICE_IMAGE_LOADER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

struct LoadedImage {
  LoadedImage() = default;
  ~LoadedImage();
  LoadedImage(const LoadedImage &) = delete;
  LoadedImage &operator=(const LoadedImage &) = delete;
  void Close();
  void *handle = nullptr;
  int fd = -1;
  std::vector<Kernel> kernels;
};

// Validates the whole device image, then maps it; never runs any of its code (there is none to
// run at load: init/fini are refused). Errors: ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_INTERNAL_ERROR.
StatusOr<std::shared_ptr<LoadedImage>> LoadImage(const uint8_t *bytes, size_t length);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_DEVICE_IMAGE_LOADER_H_
