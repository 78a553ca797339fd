#include "twin/runtime/src/device_spawn.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
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

extern char **environ;

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
  SpawnerThread() { std::thread([this] { Loop(); }).detach(); }
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

[[noreturn]] void ExecDevice(const int fds[4], char *const argv[]) {
  int moved[4];
  for (int i = 0; i < 4; ++i) moved[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 16);
  for (int i = 0; i < 4; ++i) {
    if (moved[i] < 0 || dup2(moved[i], 3 + i) != 3 + i) _exit(126);
  }
  syscall(SYS_close_range, 7u, ~0u, 0u);
  struct sigaction deflt {};
  deflt.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) sigaction(sig, &deflt, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  syscall(SYS_execveat, 6, "", argv, environ, AT_EMPTY_PATH);
  _exit(127);
}

// The child in new namespaces, or -1 with errno (EPERM, EINVAL, ENOSPC, EUSERS: not allowed here).
pid_t CloneInNamespaces(const int fds[4], char *const argv[]) {
  char uid_map[64], gid_map[64];
  std::snprintf(uid_map, sizeof(uid_map), "%u %u 1\n", geteuid(), geteuid());
  std::snprintf(gid_map, sizeof(gid_map), "%u %u 1\n", getegid(), getegid());
  const long pid = syscall(SYS_clone, kNamespaces | SIGCHLD, nullptr, nullptr, nullptr, 0);
  if (pid != 0) return static_cast<pid_t>(pid);
  // The child: keep its own uid and gid (files it makes are the user's), then the executable.
  if (!WriteFile("/proc/self/setgroups", "deny") || !WriteFile("/proc/self/uid_map", uid_map) ||
      !WriteFile("/proc/self/gid_map", gid_map)) {
    _exit(125);
  }
  ExecDevice(fds, argv);
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
      why_not = std::string("clone(CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNS|CLONE_NEWNET): ") + strerror(errno);
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
