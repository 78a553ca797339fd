#include "opp_loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "elf_symbols.h"
#include "ge_twin/abi_config.h"
#include "log.h"
#include "twin/platform/ini/ini_file.h"

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
    if (EndsWith(name, ".so") && IsRegularFile(std::string(dir).append("/").append(name), &size)) names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> SplitTrimmed(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, separator)) {
    part = Trim(part);
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

// The vendor names of <opp>/vendors/config.ini's "load_priority=a,b,c", in that order (CANN
// writes it without a section; a section is tolerated). A missing file means no vendors; an
// unreadable or malformed one, or load_priority set in two sections, is an error naming it.
std::string VendorLoadPriority(const std::string &opp_path, std::vector<std::string> *vendors) {
  const std::string config = opp_path + "/vendors/config.ini";
  struct stat st;
  if (::stat(config.c_str(), &st) != 0) return "";  // no vendors configured
  ascend_twin::IniSections sections;
  std::string error;
  if (!S_ISREG(st.st_mode) || !ascend_twin::ReadIniFile(config, &sections, &error)) {
    return "ASCEND_OPP_PATH vendors config '" + config + "' cannot be read" + (error.empty() ? "" : ": " + error);
  }
  int found = 0;
  for (const auto &section : sections) {
    auto it = section.second.find("load_priority");
    if (it == section.second.end()) continue;
    *vendors = SplitTrimmed(it->second, ',');
    ++found;
  }
  if (found > 1)
    return "ASCEND_OPP_PATH vendors config '" + config + "' sets load_priority in " + std::to_string(found) +
           " sections";
  return "";
}

// The twin's own ABI, as the public headers record it (ge_twin/abi_config.h).
constexpr int kTwinCxx11Abi = GE_TWIN_CXX11_ABI;
const char kAbiMarkerNamespace[] = "twin_abi";
}  // namespace

std::string HostCpuDirName() {
  struct utsname info;
  std::string machine = ::uname(&info) == 0 ? info.machine : "x86_64";
  if (machine == "arm64") return "aarch64";
  if (machine == "amd64") return "x86_64";
  return machine;
}

std::string DiscoverOppLibraries(const std::string &custom_roots, const std::string &opp_path,
                                 std::vector<std::string> *libraries) {
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
  // Every *.so directly in dir (alphabetical); a missing dir adds nothing.
  auto add_dir = [&](const std::string &dir) -> std::string {
    for (const auto &name : SharedObjectsIn(dir)) {
      uint64_t size = 0;
      std::string path = std::string(dir).append("/").append(name);
      if (!IsRegularFile(path, &size)) continue;
      std::string err = add(path, size);
      if (!err.empty()) return err;
    }
    return "";
  };
  const std::string arch_dir = "/lib/linux/" + HostCpuDirName();
  for (const auto &root : SplitTrimmed(custom_roots, ':')) {
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
    std::string err = add_dir(std::string(root).append("/op_graph").append(arch_dir));
    if (!err.empty()) return err;
  }
  const std::string opp = Trim(opp_path);
  if (opp.empty()) return "";
  // CANN's OPP tree, lower priority than the custom roots: configured vendors, the legacy custom
  // directory, then the built-in protos.
  std::vector<std::string> vendors;
  std::string err = VendorLoadPriority(opp, &vendors);
  if (!err.empty()) return err;
  for (const auto &vendor : vendors) {
    if (vendor.find('/') != std::string::npos || vendor == "." || vendor == "..") continue;  // names only
    err = add_dir(std::string(opp).append("/vendors/").append(vendor).append("/op_proto").append(arch_dir));
    if (!err.empty()) return err;
  }
  err = add_dir(opp + "/op_proto/custom");
  if (!err.empty()) return err;
  return add_dir(opp + "/built-in/op_proto" + arch_dir);
}

std::string AbiMismatchError(const std::string &library, const std::string &symbol_text) {
  // Markers of include/ge_twin/abi_guard.h (mangled or not): "built_with__GLIBCXX_USE_CXX11_ABI_<a>__..."
  // is always foreign; "uses__GLIBCXX_USE_CXX11_ABI_<a>" is foreign when a is not the twin's ABI.
  int built_with = -1;
  for (const char *prefix : {"built_with__GLIBCXX_USE_CXX11_ABI_", "uses__GLIBCXX_USE_CXX11_ABI_"}) {
    size_t at = symbol_text.find(prefix);
    if (at == std::string::npos) continue;
    char digit = symbol_text[at + std::strlen(prefix)];  // the NUL terminator if at the end
    if (digit != '0' && digit != '1') continue;
    if (digit - '0' != kTwinCxx11Abi) built_with = digit - '0';
  }
  if (built_with < 0) return "";
  const std::string twin = std::to_string(kTwinCxx11Abi);
  return library + ": built with _GLIBCXX_USE_CXX11_ABI=" + std::to_string(built_with) +
         "; CANN libraries use _GLIBCXX_USE_CXX11_ABI=" + twin + ": rebuild it with -D_GLIBCXX_USE_CXX11_ABI=" + twin;
}

// Empty if `path` and its directory are owned by this user or root and not group/other-writable
// (or ASCEND_TWIN_ALLOW_WRITABLE_PATHS=1); else why not.
static std::string UntrustedPath(const std::string &path) {
  const char *allow = std::getenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS");
  if (allow != nullptr && std::strcmp(allow, "1") == 0) return "";
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  for (const std::string &candidate : {path, dir}) {
    struct stat info {};
    if (::stat(candidate.c_str(), &info) != 0) continue;
    if (info.st_uid != ::getuid() && info.st_uid != 0) {
      return candidate + " is owned by uid " + std::to_string(info.st_uid) + ", neither this user nor root";
    }
    if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
      char mode[16];
      std::snprintf(mode, sizeof(mode), "%o", static_cast<unsigned>(info.st_mode & 07777));
      return candidate + " is writable by group or others (mode " + mode + ")";
    }
  }
  return "";
}

std::string LoadOppLibraries(const std::string &custom_roots, const std::string &opp_path,
                             std::vector<std::string> *loaded) {
  std::vector<std::string> libraries;
  std::string err = DiscoverOppLibraries(custom_roots, opp_path, &libraries);
  if (!err.empty()) return err;
  loaded->clear();
  for (const auto &path : libraries) {
    // Refuse a library that others could have replaced (Ascend tooling's rule: inputs must not
    // be writable by group or others), before dlopen runs any of its code.
    std::string untrusted = UntrustedPath(path);
    if (!untrusted.empty()) {
      GE_TWIN_LOGE(
          "OPP library '%s' refused: %s; libraries must not be writable by group or others (chmod go-w "
          "it, or set ASCEND_TWIN_ALLOW_WRITABLE_PATHS=1 to trust it anyway)",
          path.c_str(), untrusted.c_str());
      continue;
    }
    // Refuse a library of the other libstdc++ ABI before dlopen runs any of its code.
    std::vector<std::string> markers;
    if (UndefinedDynamicSymbols(path, kAbiMarkerNamespace, &markers)) {
      for (const auto &marker : markers) {
        std::string abi_error = AbiMismatchError(path, marker);
        if (!abi_error.empty()) return abi_error;
      }
    }
    // Kept loaded for the life of the process: the registries point into it.
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle == nullptr) {
      const char *why = ::dlerror();
      const std::string text = why == nullptr ? "unknown dlopen error" : why;
      std::string abi_error = AbiMismatchError(path, text);  // e.g. a library without section headers
      if (!abi_error.empty()) return abi_error;
      return std::string("cannot load OPP library '").append(path).append("': ").append(text);
    }
    GE_TWIN_LOGI("loaded OPP library %s", path.c_str());
    loaded->push_back(path);
  }
  return "";
}
}  // namespace ge_twin
