// Reading a file a user named (a model, a kernel binary, a config) without trusting what it is:
// anything but a regular file (a FIFO would block the open and every read, /dev/zero never
// ends, a directory is no content) is refused before it is opened; the open never blocks and
// the descriptor is checked again (the path may have changed in between); sizes come from the
// descriptor, so a caller can refuse a file from its size or its first bytes before reading
// the rest. One piece for every such file the twin reads.
#ifndef TWIN_COMMON_FILE_REGULAR_FILE_H_
#define TWIN_COMMON_FILE_REGULAR_FILE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace asc_twin::file {

// An open regular file: its descriptor (closed on destruction) and its size when opened.
class RegularFile {
 public:
  // Opens `path`; on failure returns false and sets `cause` to one phrase that completes
  // "'<path>' ..." (e.g. "cannot be opened: No such file or directory", "is not a regular file").
  bool Open(const char *path, std::string *cause);
  ~RegularFile();
  RegularFile() = default;
  RegularFile(const RegularFile &) = delete;
  RegularFile &operator=(const RegularFile &) = delete;

  uint64_t size() const { return size_; }

  // Reads exactly `length` bytes at `offset` into `out` (resized); false with `cause` ("cannot
  // be read: ..." or "shrank while being read") if the file ends early or a read fails.
  bool ReadAt(uint64_t offset, size_t length, std::vector<uint8_t> *out, std::string *cause) const;

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace asc_twin::file

#endif  // TWIN_COMMON_FILE_REGULAR_FILE_H_
