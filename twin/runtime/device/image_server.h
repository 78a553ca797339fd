// The device process's socket: kernel images (validated completely, then mapped), host ranges
// mapped at the host's addresses, and the replies the host reads. One thread serves it.
#ifndef TWIN_RUNTIME_DEVICE_IMAGE_SERVER_H_
#define TWIN_RUNTIME_DEVICE_IMAGE_SERVER_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt::device {

// Answers the request being served (or the start-up handshake) with `status` and `payload`.
void Reply(const Status &status, const std::vector<uint8_t> &payload = {});
// Serves the socket until the host goes away (then the process ends).
[[noreturn]] void ServeSocket();

// A dispatcher's last kernel, valid while the loaded images are unchanged: a steady stream of
// launches finds its kernel without a lock. (The reference it holds keeps an unloaded image
// mapped until this dispatcher's next launch.)
class KernelCache {
 public:
  const std::shared_ptr<const Kernel> &Find(uint64_t binary_id, uint32_t kernel_index);

 private:
  uint64_t generation_ = UINT64_MAX;
  uint64_t binary_id_ = 0;
  uint32_t kernel_index_ = 0;
  std::shared_ptr<const Kernel> kernel_;
};

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_IMAGE_SERVER_H_
