#include "twin/ge/src/twin_tree.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

extern char **environ;  // NOLINT(readability-redundant-declaration): POSIX has the program declare it

namespace ge_twin {
namespace {

bool IsDirectory(const std::string &path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string Parent(const std::string &path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string Absolute(const std::string &path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) == nullptr) return path;
  return std::string(cwd) + "/" + path;
}

bool HasSitePackages(const std::string &tree) { return IsDirectory(tree + "/python/site-packages"); }

// The directory of the shared object this code is linked into.
std::string OwnLibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(&OwnLibraryDir), &info) == 0 || info.dli_fname == nullptr) return "";
  return Parent(Absolute(info.dli_fname));
}

std::string PrependPath(const char *name, const std::string &entry) {
  const char *old = std::getenv(name);
  return std::string(name) + "=" + entry + (old != nullptr && *old != '\0' ? std::string(":") + old : "");
}

}  // namespace

bool ResolveTree(std::string *tree, std::string *error) {
  const std::string lib_dir = OwnLibraryDir();
  if (!lib_dir.empty()) {
    // As loaded (e.g. <tree>/lib64 reached through a symlink) first, then the real location.
    std::vector<std::string> candidates = {Parent(lib_dir)};
    char real[PATH_MAX];
    if (realpath(lib_dir.c_str(), real) != nullptr) candidates.push_back(Parent(real));
    for (const std::string &candidate : candidates) {
      if (HasSitePackages(candidate)) {
        *tree = candidate;
        return true;
      }
    }
  }
  const char *home = std::getenv("ASCEND_HOME_PATH");
  if (home == nullptr || *home == '\0') {
    *error = "cannot find the CANN install tree: " + (lib_dir.empty() ? std::string("this library") : lib_dir) +
             " is not in <tree>/lib64 and ASCEND_HOME_PATH is not set (source <tree>/set_env.sh)";
    return false;
  }
  const std::string abs_home = Absolute(home);
  if (!HasSitePackages(abs_home)) {
    *error = "ASCEND_HOME_PATH=" + std::string(home) + " is not a CANN install tree: " + abs_home +
             "/python/site-packages does not exist";
    return false;
  }
  *tree = abs_home;
  return true;
}

std::string PythonInterpreter() {
  const char *python = std::getenv("ASCEND_TWIN_PYTHON");
  return python != nullptr && *python != '\0' ? python : "python3";
}

std::vector<std::string> ChildEnvironment(const std::string &tree) {
  std::vector<std::string> env;
  for (char **e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    if (name == "PYTHONPATH" || name == "LD_LIBRARY_PATH" || name == "ASCEND_HOME_PATH") continue;
    env.push_back(entry);
  }
  env.push_back(PrependPath("PYTHONPATH", tree + "/python/site-packages"));
  env.push_back(PrependPath("LD_LIBRARY_PATH", tree + "/lib64"));
  env.push_back("ASCEND_HOME_PATH=" + tree);
  return env;
}

std::string PlatformConfigDir(const std::string &tree) {
  const char *dir = std::getenv("ASCEND_TWIN_PLATFORM_DIR");
  if (dir != nullptr && *dir != '\0') return dir;
  struct utsname names {};
  const std::string machine = uname(&names) == 0 ? names.machine : "x86_64";
  return tree + "/" + machine + "-linux/data/platform_config";
}

std::vector<std::string> KnownSocs(const std::string &dir) {
  std::vector<std::string> socs;
  DIR *d = opendir(dir.c_str());
  if (d == nullptr) return socs;
  while (const dirent *entry = readdir(d)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".ini") == 0)
      socs.push_back(name.substr(0, name.size() - 4));
  }
  closedir(d);
  std::sort(socs.begin(), socs.end());
  return socs;
}

}  // namespace ge_twin
