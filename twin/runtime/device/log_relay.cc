#include "twin/runtime/device/log_relay.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <new>

#include "twin/runtime/device/fd_io.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/device/sandbox.h"

namespace asc_twin::rt::device {
namespace {

struct RecordHeader {
  int32_t level;
  int32_t line;
  char module[16];
  char file[64];
  uint32_t text_bytes;
};
constexpr size_t kMaxText = PIPE_BUF - sizeof(RecordHeader);  // one atomic pipe write a record
// A flood of lines from a kernel that writes the pipe itself fills no disk: the relay stops.
constexpr uint64_t kMaxRecords = 100000;

// Records the relay has handled, in a page shared with it: a dying device process waits for its
// last line (in a PID namespace of its own, its end kills the relay at once).
std::atomic<uint32_t> *g_relayed = nullptr;
uint32_t g_sent = 0;  // records this process wrote (async-signal-safe enough: one writer per fault)

void CopyField(char *to, size_t size, const char *from) {
  size_t n = from == nullptr ? 0 : strnlen(from, size - 1);
  if (n > 0) std::memcpy(to, from, n);
  to[n] = '\0';
}

bool KnownLevel(int32_t level) {
  using ascend_twin::log::Level;
  return level == static_cast<int32_t>(Level::kDebug) || level == static_cast<int32_t>(Level::kInfo) ||
         level == static_cast<int32_t>(Level::kWarning) || level == static_cast<int32_t>(Level::kError) ||
         level == static_cast<int32_t>(Level::kEvent);
}

[[noreturn]] void RelayLoop(int from) {
  static char text[kMaxText + 1];
  for (uint64_t records = 0;; ++records) {
    RecordHeader header;
    if (!ReadAll(from, &header, sizeof(header))) _exit(0);  // the device process ended
    header.module[sizeof(header.module) - 1] = '\0';
    header.file[sizeof(header.file) - 1] = '\0';
    if (!KnownLevel(header.level) || header.text_bytes > kMaxText || !ReadAll(from, text, header.text_bytes)) {
      ASCEND_TWIN_LOGE(ascend_twin::log::kRuntime,
                       "device log relay: a malformed record; later device lines are dropped");
      _exit(0);
    }
    text[header.text_bytes] = '\0';
    if (records == kMaxRecords) {
      ASCEND_TWIN_LOGW(ascend_twin::log::kRuntime,
                       "device log relay: %llu lines from one device process; later "
                       "lines are dropped",
                       static_cast<unsigned long long>(kMaxRecords));
    }
    if (records < kMaxRecords) {
      ascend_twin::log::Write(static_cast<ascend_twin::log::Level>(header.level), header.module, header.file,
                              header.line, text);
    }
    g_relayed->fetch_add(1, std::memory_order_release);
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(g_relayed), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
  }
}

}  // namespace

std::string StartLogRelay() {
  void *shared = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) return std::string("mmap: ") + strerror(errno);
  g_relayed = new (shared) std::atomic<uint32_t>(0);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return std::string("pipe2: ") + strerror(errno);
  const pid_t relay = fork();
  if (relay < 0) return std::string("fork: ") + strerror(errno);
  if (relay == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    // Nothing of the device's but the pipe: not GM, the control block, the socket.
    for (int fd : {proto::kGmFd, proto::kControlFd, proto::kSocketFd, 6, pipe_fds[1]}) {
      if (fd != pipe_fds[0]) close(fd);  // the pipe may have taken a number freed before
    }
    RelayLoop(pipe_fds[0]);
  }
  signal(SIGCHLD, SIG_IGN);  // the relay reaps itself
  close(pipe_fds[0]);
  if (dup2(pipe_fds[1], kLogFd) != kLogFd) return std::string("dup2: ") + strerror(errno);
  if (pipe_fds[1] != kLogFd) close(pipe_fds[1]);
  return "";
}

uint32_t RelayLine(ascend_twin::log::Level level, const char *module, const char *file, int line, const char *text) {
  char record[PIPE_BUF];
  RecordHeader header{};
  header.level = static_cast<int32_t>(level);
  header.line = line;
  CopyField(header.module, sizeof(header.module), module);
  const char *slash = file == nullptr ? nullptr : std::strrchr(file, '/');
  CopyField(header.file, sizeof(header.file), slash != nullptr ? slash + 1 : file);
  header.text_bytes = static_cast<uint32_t>(strnlen(text, kMaxText));
  std::memcpy(record, &header, sizeof(header));
  std::memcpy(record + sizeof(header), text, header.text_bytes);
  if (write(kLogFd, record, sizeof(header) + header.text_bytes) <= 0) return 0;  // lost; the launch's result is not
  return ++g_sent;
}

void AwaitRelayed(uint32_t record, int timeout_ms) {
  if (g_relayed == nullptr || record == 0) return;
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    const uint32_t done = g_relayed->load(std::memory_order_acquire);
    if (done >= record) return;
    struct timespec ten_ms {
      0, 10 * 1000 * 1000
    };
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(g_relayed), FUTEX_WAIT, done, &ten_ms, nullptr, 0);
  }
}

}  // namespace asc_twin::rt::device
