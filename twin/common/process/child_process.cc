#include "twin/common/process/child_process.h"

#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

extern char **environ;  // NOLINT(readability-redundant-declaration): POSIX has the program declare it

namespace asc_twin::process {

ScratchDir::ScratchDir(const char *prefix) {
  const char *tmp = std::getenv("TMPDIR");
  const std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" + prefix + ".XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) != nullptr) {
    path_ = buffer.data();
  } else {
    error_ = "cannot create a temporary directory " + pattern + ": " + std::strerror(errno);
  }
}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  nftw(
      path_.c_str(), [](const char *p, const struct stat *, int, struct FTW *) { return remove(p); }, 16,
      FTW_DEPTH | FTW_PHYS);
}

int RunChild(const std::vector<std::string> &argv, const ChildIo &io, std::string *error) {
  if (argv.empty()) {
    *error = "cannot start a program: no program named";
    return -1;
  }
  std::vector<char *> args;
  args.reserve(argv.size() + 1);
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char *> env;
  if (io.env != nullptr) {
    env.reserve(io.env->size() + 1);
    for (const std::string &e : *io.env) env.push_back(const_cast<char *>(e.c_str()));
    env.push_back(nullptr);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (io.output_path.empty()) {
    // The child writes to the same stdout/stderr: what this process buffered comes out first.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
  } else {
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, io.output_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  char **envp = io.env != nullptr ? env.data() : environ;
  pid_t pid = 0;
  const int spawned = io.search_path ? posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp)
                                     : posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    *error = "cannot start " + argv[0] + ": " + std::strerror(spawned);
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      *error = "waiting for " + argv[0] + ": " + std::strerror(errno);
      return -1;
    }
  }
  return status;
}

std::string DescribeStatus(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char *name = sigabbrev_np(sig);
    return "killed by signal " + std::to_string(sig) + (name != nullptr ? std::string(" (SIG") + name + ")" : "");
  }
  return "exit status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace asc_twin::process
