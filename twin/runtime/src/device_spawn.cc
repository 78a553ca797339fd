#include "twin/runtime/src/device_spawn.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

#include "twin/common/log/log.h"

extern char **environ;  // NOLINT(readability-redundant-declaration): POSIX has the program declare it

namespace asc_twin::rt {
namespace {

constexpr unsigned long kNamespaces = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET;

// Runs jobs one at a time on a thread that lives as long as the process.
class SpawnerThread {
 public:
  static SpawnerThread &Get() {
    // Never destroyed: its thread never ends. A forked child has no such thread: it makes its own.
    static std::mutex made;
    static SpawnerThread *spawner = nullptr;
    static pid_t owner = 0;
    std::lock_guard<std::mutex> lock(made);
    if (spawner == nullptr || owner != getpid()) {
      spawner = new SpawnerThread;
      owner = getpid();
    }
    return *spawner;
  }
  void Run(const std::function<void()> &job) {
    std::unique_lock<std::mutex> lock(mutex_);
    idle_.wait(lock, [&] { return job_ == nullptr; });
    job_ = &job;
    wake_.notify_all();
    idle_.wait(lock, [&] { return job_ != &job; });
  }

 private:
  SpawnerThread() {
    std::thread([this] { Loop(); }).detach();
  }
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return job_ != nullptr; });
      (*job_)();
      job_ = nullptr;
      idle_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  const std::function<void()> *job_ = nullptr;
};

// In the cloned child only: plain system calls, no allocation (another host thread may have held
// malloc's lock at the clone).
bool WriteFile(const char *path, const char *text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const size_t length = strlen(text);
  const bool ok = write(fd, text, length) == static_cast<ssize_t>(length);
  close(fd);
  return ok;
}

// Where a cloned child tells its parent it failed before exec (close-on-exec: a successful
// exec closes it, and the parent reads end-of-file).
constexpr int kFirstErrorFd = 100;

[[noreturn]] void FailBeforeExec(int error_fd) {
  const int code = errno;
  const ssize_t ignored = write(error_fd, &code, sizeof(code));
  (void)ignored;
  _exit(125);
}

[[noreturn]] void ExecDevice(const int fds[4], char *const argv[], int error_fd) {
  int moved[4];
  for (int i = 0; i < 4; ++i) moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 16);
  for (int i = 0; i < 4; ++i) {
    if (moved[i] < 0 || dup2(moved[i], 3 + i) != 3 + i) FailBeforeExec(error_fd);
  }
  // Everything else closed, but the error pipe (close-on-exec).
  syscall(SYS_close_range, 7u, static_cast<unsigned>(error_fd - 1), 0u);
  syscall(SYS_close_range, static_cast<unsigned>(error_fd + 1), ~0u, 0u);
  struct sigaction deflt {};
  deflt.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &deflt, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  syscall(SYS_execveat, 6, "", argv, environ, AT_EMPTY_PATH);
  FailBeforeExec(error_fd);
}

// The child in new namespaces, or -1 with errno: clone refused (EPERM, EINVAL, ENOSPC, EUSERS:
// not allowed here), or the child could not map its ids or exec (it was reaped).
pid_t CloneInNamespaces(const int fds[4], char *const argv[]) {
  char uid_map[64], gid_map[64];
  std::snprintf(uid_map, sizeof(uid_map), "%u %u 1\n", geteuid(), geteuid());
  std::snprintf(gid_map, sizeof(gid_map), "%u %u 1\n", getegid(), getegid());
  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) return -1;
  const int error_fd = fcntl(error_pipe[1], F_DUPFD_CLOEXEC, kFirstErrorFd);
  close(error_pipe[1]);
  if (error_fd < 0) {
    close(error_pipe[0]);
    return -1;
  }
  const long pid = syscall(SYS_clone, kNamespaces | SIGCHLD, nullptr, nullptr, nullptr, 0);
  if (pid == 0) {
    // The child: keep its own uid and gid (files it makes are the user's), then the executable.
    close(error_pipe[0]);
    if (!WriteFile("/proc/self/setgroups", "deny") || !WriteFile("/proc/self/uid_map", uid_map) ||
        !WriteFile("/proc/self/gid_map", gid_map)) {
      FailBeforeExec(error_fd);
    }
    ExecDevice(fds, argv, error_fd);
  }
  const int clone_errno = errno;
  close(error_fd);
  if (pid < 0) {
    close(error_pipe[0]);
    errno = clone_errno;
    return -1;
  }
  int child_errno = 0;
  ssize_t got;
  while ((got = read(error_pipe[0], &child_errno, sizeof(child_errno))) < 0 && errno == EINTR) {
  }
  close(error_pipe[0]);
  if (got == 0) return static_cast<pid_t>(pid);  // exec'd
  int status = 0;
  while (waitpid(static_cast<pid_t>(pid), &status, 0) < 0 && errno == EINTR) {
  }
  errno = got == sizeof(child_errno) && child_errno != 0 ? child_errno : ECHILD;
  return -1;
}

pid_t SpawnInHostNamespaces(const int fds[4], char *const argv[], std::string *error) {
  int moved[4];
  for (int i = 0; i < 4; ++i) moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 16);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int i = 0; i < 4; ++i) posix_spawn_file_actions_adddup2(&actions, moved[i], 3 + i);
  posix_spawn_file_actions_addclosefrom_np(&actions, 7);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, "/proc/self/fd/6", &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  for (int fd : moved) close(fd);
  if (spawned != 0) {
    *error = strerror(spawned);
    return -1;
  }
  return pid;
}

bool NamespacesWanted() {
  const char *env = std::getenv("ASCEND_TWIN_DEVICE_NAMESPACES");
  return env == nullptr || (std::strcmp(env, "0") != 0 && std::strcmp(env, "off") != 0);
}

}  // namespace

pid_t SpawnDevice(const int fds[4], char *const argv[], std::string *error) {
  pid_t pid = -1;
  SpawnerThread::Get().Run([&] {
    std::string why_not = "ASCEND_TWIN_DEVICE_NAMESPACES=0";
    if (NamespacesWanted()) {
      pid = CloneInNamespaces(fds, argv);
      if (pid > 0) return;
      why_not =
          std::string("clone(CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNS|CLONE_NEWNET) and its id maps: ") + strerror(errno);
    }
    static bool told = false;
    if (!told) {
      told = true;
      ASCEND_TWIN_LOGW(ascend_twin::log::kRuntime,
                       "device process: no namespaces of its own (%s); it runs in the host's user, PID, mount and "
                       "network namespaces, under its seccomp filter and limits",
                       why_not.c_str());
    }
    pid = SpawnInHostNamespaces(fds, argv, error);
  });
  return pid;
}

}  // namespace asc_twin::rt
