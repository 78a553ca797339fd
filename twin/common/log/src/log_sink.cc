// The descriptors lines are written to: one per file, opened O_APPEND on the first line for it
// and kept; one write(2) per line, so threads and processes sharing a file never interleave
// inside a line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "twin/common/log/src/log_internal.h"

namespace ascend_twin::log::internal {
namespace {

struct OpenFile {
  int fd = -1;
  pid_t pid = 0;  // a descriptor inherited across fork() names the parent's file: reopened
};

std::mutex g_mutex;
std::map<std::string, OpenFile> g_files;
bool g_told_fallback = false;

bool WriteAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// mkdir -p with CANN's directory mode; "" or the cause.
std::string MakeParents(const std::string &path) {
  for (size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const std::string dir = path.substr(0, slash);
    if (::mkdir(dir.c_str(), 0750) != 0 && errno != EEXIST) return dir + ": " + std::strerror(errno);
  }
  return "";
}

// The open descriptor for `path`, or -1 with *cause set.
int DescriptorFor(const std::string &path, std::string *cause) {
  OpenFile &file = g_files[path];
  if (file.fd >= 0) {
    struct stat info;
    // Kept unless it was forked to us or the file was removed (then a new one is created).
    if (file.pid == getpid() && ::fstat(file.fd, &info) == 0 && info.st_nlink > 0) return file.fd;
    ::close(file.fd);
    file.fd = -1;
  }
  *cause = MakeParents(path);
  if (!cause->empty()) return -1;
  file.fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (file.fd < 0) {
    *cause = path + ": " + std::strerror(errno);
    return -1;
  }
  file.pid = getpid();
  return file.fd;
}

}  // namespace

void AppendToFile(const std::string &path, const std::string &line) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::string cause;
  const int fd = DescriptorFor(path, &cause);
  if (fd >= 0 && WriteAll(fd, line)) return;
  if (cause.empty()) cause = path + ": " + std::strerror(errno);
  // The line is not lost, and the caller's result does not change.
  if (!g_told_fallback) {
    g_told_fallback = true;
    WriteAll(STDERR_FILENO, "[WARNING] ascend-twin log: cannot write " + cause +
                                "; log lines go to stderr (set ASCEND_PROCESS_LOG_PATH to a writable directory)\n");
  }
  WriteAll(STDERR_FILENO, line);
}

void WriteToStdout(const std::string &line) {
  std::fflush(stdout);  // after what the program printed before the failing call
  std::lock_guard<std::mutex> lock(g_mutex);
  WriteAll(STDOUT_FILENO, line);
}

}  // namespace ascend_twin::log::internal
