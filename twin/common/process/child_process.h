// Running a helper program from a twin library (bisheng for aclrtc, the graph compiler for
// aclgrphBuildModel / Session): a private scratch directory that goes away with everything in
// it, and one way to start a child and wait for it. One piece for every such caller.
#ifndef TWIN_COMMON_PROCESS_CHILD_PROCESS_H_
#define TWIN_COMMON_PROCESS_CHILD_PROCESS_H_

#include <string>
#include <vector>

namespace asc_twin::process {

// mkdtemp("$TMPDIR/<prefix>.XXXXXX", else /tmp): mode 0700, removed with all it holds (symlinks
// are removed, never followed) when this goes out of scope. On failure path() is empty and
// error() says why ("cannot create a temporary directory <pattern>: <errno text>").
class ScratchDir {
 public:
  explicit ScratchDir(const char *prefix);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }
  const std::string &error() const { return error_; }

 private:
  std::string path_;
  std::string error_;
};

struct ChildIo {
  // Empty: the child shares this process's stdin/stdout/stderr (what this process buffered is
  // flushed first). Else stdin is /dev/null and stdout+stderr are appended to this file (0600).
  std::string output_path;
  // nullptr: this process's environment; else exactly these NAME=VALUE entries.
  const std::vector<std::string> *env = nullptr;
  // Look argv[0] up on PATH (posix_spawnp) instead of taking it as a path.
  bool search_path = false;
};

// Runs argv (no shell) and waits for it: returns waitpid's status (use WIFEXITED & co.), or -1
// with *error set ("cannot start <prog>: ...", "waiting for <prog>: ...").
int RunChild(const std::vector<std::string> &argv, const ChildIo &io, std::string *error);

// "exit status N" / "killed by signal N (NAME)" for a status from RunChild.
std::string DescribeStatus(int status);

}  // namespace asc_twin::process

#endif  // TWIN_COMMON_PROCESS_CHILD_PROCESS_H_
