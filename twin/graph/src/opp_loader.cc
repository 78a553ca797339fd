#include "opp_loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>

#include "log.h"

namespace ge_twin {
namespace {
// CANN's documented limits on custom proto libraries.
constexpr size_t kMaxLibraries = 64;
constexpr uint64_t kMaxLibraryBytes = 800ull << 20;
constexpr uint64_t kMaxTotalBytes = 1000ull << 20;

std::string Trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

bool IsRegularFile(const std::string &path, uint64_t *size) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  *size = static_cast<uint64_t>(st.st_size);
  return true;
}

bool EndsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> SharedObjectsIn(const std::string &dir) {
  std::vector<std::string> names;
  DIR *d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent *entry = ::readdir(d)) {
    std::string name = entry->d_name;
    uint64_t size = 0;
    if (EndsWith(name, ".so") && IsRegularFile(dir + "/" + name, &size)) names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}
}  // namespace

std::string HostCpuDirName() {
  struct utsname info;
  std::string machine = ::uname(&info) == 0 ? info.machine : "x86_64";
  if (machine == "arm64") return "aarch64";
  if (machine == "amd64") return "x86_64";
  return machine;
}

std::string DiscoverOppLibraries(const std::string &root_list, std::vector<std::string> *libraries) {
  libraries->clear();
  std::set<std::string> seen;  // canonical paths, so a library listed twice loads once
  uint64_t total = 0;
  auto add = [&](const std::string &path, uint64_t size) -> std::string {
    char resolved[PATH_MAX];
    std::string canonical = ::realpath(path.c_str(), resolved) != nullptr ? resolved : path;
    if (!seen.insert(canonical).second) return "";
    if (size > kMaxLibraryBytes) return "OPP library '" + path + "' is larger than 800 MB";
    total += size;
    if (total > kMaxTotalBytes) return "OPP libraries exceed 1000 MB in total (at '" + path + "')";
    libraries->push_back(path);
    if (libraries->size() > kMaxLibraries) return "more than 64 OPP libraries (at '" + path + "')";
    return "";
  };
  size_t start = 0;
  while (start <= root_list.size()) {
    size_t colon = root_list.find(':', start);
    if (colon == std::string::npos) colon = root_list.size();
    std::string root = Trim(root_list.substr(start, colon - start));
    start = colon + 1;
    if (root.empty()) continue;
    struct stat st;
    if (::stat(root.c_str(), &st) != 0) {
      return "ASCEND_CUSTOM_OPP_PATH entry '" + root + "' cannot be accessed: " + std::strerror(errno);
    }
    if (!S_ISDIR(st.st_mode)) continue;  // a Python plugin file: not ours
    uint64_t size = 0;
    std::string top = root + "/libcust_opapi.so";
    if (IsRegularFile(top, &size)) {
      std::string err = add(top, size);
      if (!err.empty()) return err;
    }
    std::string lib_dir = root + "/op_graph/lib/linux/" + HostCpuDirName();
    for (const auto &name : SharedObjectsIn(lib_dir)) {
      std::string path = lib_dir + "/" + name;
      if (!IsRegularFile(path, &size)) continue;
      std::string err = add(path, size);
      if (!err.empty()) return err;
    }
  }
  return "";
}

std::string LoadOppLibraries(const std::string &root_list, std::vector<std::string> *loaded) {
  std::vector<std::string> libraries;
  std::string err = DiscoverOppLibraries(root_list, &libraries);
  if (!err.empty()) return err;
  loaded->clear();
  for (const auto &path : libraries) {
    // Kept loaded for the life of the process: the registries point into it.
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
      const char *why = ::dlerror();
      return "cannot load OPP library '" + path + "': " + (why == nullptr ? "unknown dlopen error" : why);
    }
    GE_TWIN_LOGI("loaded OPP library %s", path.c_str());
    loaded->push_back(path);
  }
  return "";
}
}  // namespace ge_twin
