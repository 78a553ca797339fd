#include "twin/runtime/rtc/src/compile_job.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include "acl/acl_rt_compile.h"
#include "twin/common/process/child_process.h"

namespace asc_twin::rtc {
namespace {

bool IsExecutable(const std::string &path) { return access(path.c_str(), X_OK) == 0; }

std::string Dirname(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

bool WriteFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return static_cast<bool>(out.flush());
}

bool ReadFile(const std::string &path, std::string *content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  content->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

// Runs argv (no shell) with stdin from /dev/null and stdout+stderr into `output_path`.
// Returns the exit status, or -1 with *error set when it could not run or was killed.
int Run(const std::vector<std::string> &argv, const std::string &output_path, std::string *error) {
  process::ChildIo io;
  io.output_path = output_path;
  const int status = process::RunChild(argv, io, error);
  if (status < 0) return -1;
  if (WIFSIGNALED(status)) {
    *error = argv[0] + " was " + process::DescribeStatus(status);
    return -1;
  }
  return WEXITSTATUS(status);
}

// A header's include name must stay inside the job's directory.
bool SafeRelativePath(const std::string &name) {
  if (name.empty() || name[0] == '/') return false;
  size_t start = 0;
  while (start <= name.size()) {
    const size_t end = name.find('/', start);
    const std::string part = name.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return true;
}

bool MakeParents(const std::string &root, const std::string &relative) {
  for (size_t slash = relative.find('/'); slash != std::string::npos; slash = relative.find('/', slash + 1)) {
    const std::string dir = root + "/" + relative.substr(0, slash);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return false;
  }
  return true;
}

CompileResult Failure(int code, std::string error, std::string log = "") {
  CompileResult result;
  result.code = code;
  result.error = std::move(error);
  result.log = std::move(log);
  return result;
}

}  // namespace

bool ResolveCompilerTree(std::string *tree, std::string *error) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&ResolveCompilerTree), &info) != 0 && info.dli_fname != nullptr) {
    // The path it was loaded by, not its target: a tree may hold its libraries as links.
    std::string self = info.dli_fname;
    char cwd[PATH_MAX];
    if (self[0] != '/' && getcwd(cwd, sizeof(cwd)) != nullptr) self = std::string(cwd) + "/" + self;
    const std::string above = Dirname(Dirname(self));
    if (IsExecutable(above + "/bin/bisheng")) {
      *tree = above;
      return true;
    }
  }
  const char *home = std::getenv("ASCEND_HOME_PATH");
  if (home != nullptr && *home != '\0' && IsExecutable(std::string(home) + "/bin/bisheng")) {
    *tree = home;
    return true;
  }
  *error = "no bisheng found: neither the tree of libacl_rtc.so nor ASCEND_HOME_PATH (" +
           std::string(home != nullptr ? home : "unset") + ") has bin/bisheng; source the tree's set_env.sh";
  return false;
}

CompileResult CompileProgram(const std::string &tree, const SourceFile &program, const std::vector<SourceFile> &headers,
                             const std::vector<std::string> &options) {
  const std::string objcopy = tree + "/x86_64-linux/ccec_compiler/bin/llvm-objcopy";
  if (!IsExecutable(objcopy)) return Failure(ACL_ERROR_RTC_FAILURE, "no llvm-objcopy in the tree at " + objcopy);
  process::ScratchDir dir("aclrtc");
  if (dir.path().empty()) return Failure(ACL_ERROR_RTC_FAILURE, dir.error());
  const std::string src_dir = dir.path() + "/src";
  if (mkdir(src_dir.c_str(), 0700) != 0) return Failure(ACL_ERROR_RTC_FAILURE, "cannot create " + src_dir);
  for (const SourceFile &header : headers) {
    if (!SafeRelativePath(header.name)) {
      return Failure(ACL_ERROR_RTC_INVALID_INPUT,
                     "header include name '" + header.name + "' is not a relative path inside the program");
    }
    if (!MakeParents(src_dir, header.name) || !WriteFile(src_dir + "/" + header.name, header.text)) {
      return Failure(ACL_ERROR_RTC_FAILURE, "cannot write header '" + header.name + "' to " + src_dir);
    }
  }
  const std::string source = src_dir + "/" + program.name;
  if (!WriteFile(source, program.text)) return Failure(ACL_ERROR_RTC_FAILURE, "cannot write the program to " + source);

  const std::string object = dir.path() + "/program.o";
  const std::string binary = dir.path() + "/program.bin";
  const std::string output = dir.path() + "/compiler.log";
  // The program's directory is the first include directory, so its headers are found by the
  // names given; options come after -std=c++17 so the user's -std wins, as in CANN.
  std::vector<std::string> argv = {tree + "/bin/bisheng", "-x", "asc", "-std=c++17", "-I" + src_dir};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"-c", source, "-o", object});
  std::string run_error;
  const int status = Run(argv, output, &run_error);
  std::string log;
  ReadFile(output, &log);
  // Diagnostics name the program as the user named it, not the temporary path.
  for (size_t at = log.find(src_dir + "/"); at != std::string::npos; at = log.find(src_dir + "/", at)) {
    log.erase(at, src_dir.size() + 1);
  }
  if (status < 0) return Failure(ACL_ERROR_RTC_FAILURE, run_error, log);
  if (status != 0) {
    // The first line with "error" names the cause; the whole log stays available.
    const size_t error_at = log.find("error");
    const size_t line_start = error_at == std::string::npos ? 0 : log.rfind('\n', error_at) + 1;
    const std::string first = log.substr(line_start, log.find('\n', line_start) - line_start);
    return Failure(ACL_ERROR_RTC_COMPILATION, "bisheng exited with status " + std::to_string(status) + ": " + first,
                   log);
  }
  std::string objcopy_error;
  const int extracted = Run({objcopy, "-O", "binary", "--only-section=.aicore_binary", object, binary},
                            dir.path() + "/objcopy.log", &objcopy_error);
  std::string bytes;
  if (extracted != 0 || !ReadFile(binary, &bytes)) {
    std::string objcopy_log;
    ReadFile(dir.path() + "/objcopy.log", &objcopy_log);
    return Failure(ACL_ERROR_RTC_LINKING,
                   "could not take the device binary out of bisheng's object: " +
                       (objcopy_error.empty() ? objcopy_log : objcopy_error),
                   log);
  }
  if (bytes.empty()) {
    return Failure(ACL_ERROR_RTC_COMPILATION, "the program defines no __global__ kernel (empty device binary)", log);
  }
  CompileResult result;
  result.log = std::move(log);
  result.binary.assign(bytes.begin(), bytes.end());
  return result;
}

}  // namespace asc_twin::rtc
