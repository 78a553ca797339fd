// Whole reads and writes on the device process's descriptors (the request socket, the log
// relay's pipe): EINTR retried, a short read or write is a failure.
#ifndef TWIN_RUNTIME_DEVICE_FD_IO_H_
#define TWIN_RUNTIME_DEVICE_FD_IO_H_

#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace asc_twin::rt::device {

inline bool ReadAll(int fd, void *data, size_t length) {
  auto *bytes = static_cast<uint8_t *>(data);
  while (length > 0) {
    const ssize_t n = read(fd, bytes, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    length -= static_cast<size_t>(n);
  }
  return true;
}

inline bool WriteAll(int fd, const void *data, size_t length) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  while (length > 0) {
    const ssize_t n = write(fd, bytes, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    length -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_FD_IO_H_
