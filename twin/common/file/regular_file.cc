#include "twin/common/file/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace asc_twin::file {

bool RegularFile::Open(const char *path, std::string *cause) {
  struct stat before {};
  if (stat(path, &before) != 0) {
    *cause = std::string("cannot be opened: ") + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(before.st_mode)) {
    *cause = "is not a regular file";
    return false;
  }
  const int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *cause = std::string("cannot be opened: ") + std::strerror(errno);
    return false;
  }
  struct stat info {};
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    close(fd);
    *cause = "is not a regular file";
    return false;
  }
  fd_ = fd;
  size_ = static_cast<uint64_t>(info.st_size);
  return true;
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) close(fd_);
}

bool RegularFile::ReadAt(uint64_t offset, size_t length, std::vector<uint8_t> *out, std::string *cause) const {
  out->resize(length);
  size_t done = 0;
  while (done < length) {
    const ssize_t got = pread(fd_, out->data() + done, length - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      *cause = std::string("cannot be read: ") + std::strerror(errno);
      return false;
    }
    if (got == 0) {
      *cause = "shrank while being read";
      return false;
    }
    done += static_cast<size_t>(got);
  }
  return true;
}

}  // namespace asc_twin::file
