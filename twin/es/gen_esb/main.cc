// gen_esb: generates the ES (eager-style graph builder) C, C++ and Python API of every operator
// prototype the OPP proto libraries of ASCEND_CUSTOM_OPP_PATH register (CANN's bin/gen_esb).
//
//   ASCEND_CUSTOM_OPP_PATH=<opp root> gen_esb --output_dir=out --module_name=custom
//
// Every failure is one line "gen_esb: error: ..." and exit status 1 (2 for usage errors); the
// files are written into a temporary directory first, so a failed run leaves no partial output.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "generator.h"
#include "ge_twin/graph_c_api.h"
#include "twin/graph/proto/graph_c_api.pb.h"

namespace {
const char *kUsage =
    "usage: gen_esb [--es_mode=codegen] [--output_dir=DIR] [--module_name=NAME] [--h_guard_prefix=PREFIX]\n"
    "               [--exclude_ops=Op1,Op2] [--history_registry=P] [--release_version=V] [--release_date=D]\n"
    "               [--branch_name=B]\n"
    "Generates es_<NAME>_ops{_c.h,.h,.py} and per operator es_<Op>{_c.h,.cpp,.h,.py} for the operator\n"
    "prototypes registered by the proto libraries of ASCEND_CUSTOM_OPP_PATH.\n";

const std::set<std::string> kFlags = {"es_mode",         "output_dir",   "module_name",
                                      "h_guard_prefix",  "exclude_ops",  "history_registry",
                                      "release_version", "release_date", "branch_name"};

int Fail(const std::string &message, int status = 1) {
  std::fprintf(stderr, "gen_esb: error: %s\n", message.c_str());
  return status;
}

std::string TakeString(char *s) {
  std::string out = s == nullptr ? "" : s;
  GeTwinGraphFreeString(s);
  return out;
}

// The op types the graph library knows now.
bool ListProtos(std::map<std::string, ge::twin::capi::OpProto> *ops, std::string *error) {
  void *data = nullptr;
  size_t size = 0;
  char *err = nullptr;
  if (GeTwinGraphListOpProtos(&data, &size, &err) != 0) {
    *error = "cannot list operator prototypes: " + TakeString(err);
    return false;
  }
  ge::twin::capi::OpProtoList listing;
  const bool parsed = listing.ParseFromArray(data, static_cast<int>(size));
  GeTwinGraphFreeBuffer(data);
  if (!parsed) {
    *error = "the graph library's prototype listing is not a valid ge.twin.capi.OpProtoList";
    return false;
  }
  ops->clear();
  for (const auto &op : listing.ops()) (*ops)[op.op_type()] = op;
  return true;
}

bool WriteFile(const std::string &path, const std::string &contents, std::string *error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

void RemoveTree(const std::string &dir) {
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name != "." && name != "..") unlink(std::string(dir).append("/").append(name).c_str());
    }
    closedir(d);
  }
  rmdir(dir.c_str());
}

bool MakeDirs(const std::string &path, std::string *error) {
  std::string partial;
  for (size_t pos = 0; pos != std::string::npos;) {
    size_t next = path.find('/', pos + 1);
    partial = path.substr(0, next);
    if (!partial.empty() && mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      *error = "cannot create directory '" + partial + "': " + std::strerror(errno);
      return false;
    }
    pos = next;
  }
  return true;
}

// Writes every file into a fresh sibling directory of out_dir, then renames it into place (or,
// when out_dir already exists, renames the files into it).
bool WriteOutput(const std::string &out_dir, const std::map<std::string, std::string> &files, std::string *error) {
  std::string parent = out_dir.substr(0, out_dir.find_last_of('/'));
  if (parent.empty()) parent = "/";
  if (!MakeDirs(parent, error)) return false;
  struct stat st;
  bool exists = stat(out_dir.c_str(), &st) == 0;
  if (exists && !S_ISDIR(st.st_mode)) {
    *error = "--output_dir '" + out_dir + "' exists and is not a directory";
    return false;
  }
  std::string pattern = parent + "/.gen_esb.XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) {
    *error = "cannot create a temporary directory in '" + parent + "': " + std::strerror(errno);
    return false;
  }
  std::string tmp = buf.data();
  for (const auto &f : files) {
    if (!WriteFile(tmp + "/" + f.first, f.second, error)) {
      RemoveTree(tmp);
      return false;
    }
  }
  if (!exists) {
    chmod(tmp.c_str(), 0755);
    if (rename(tmp.c_str(), out_dir.c_str()) != 0) {
      *error = "cannot rename '" + tmp + "' to '" + out_dir + "': " + std::strerror(errno);
      RemoveTree(tmp);
      return false;
    }
    return true;
  }
  // generated_code.flag last: its presence means the set is complete.
  std::vector<std::string> order;
  for (const auto &f : files) {
    if (f.first != "generated_code.flag") order.push_back(f.first);
  }
  order.emplace_back("generated_code.flag");
  for (const auto &name : order) {
    const std::string from = std::string(tmp).append("/").append(name);
    const std::string to = std::string(out_dir).append("/").append(name);
    if (rename(from.c_str(), to.c_str()) != 0) {
      *error = std::string("cannot move '")
                   .append(name)
                   .append("' into '")
                   .append(out_dir)
                   .append("': ")
                   .append(std::strerror(errno));
      RemoveTree(tmp);
      return false;
    }
  }
  rmdir(tmp.c_str());
  return true;
}

std::string Absolute(const std::string &path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  return path.empty() || path == "." ? std::string(cwd) : std::string(cwd) + "/" + path;
}
}  // namespace

int main(int argc, char **argv) {
  std::map<std::string, std::string> flags;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg.compare(0, 2, "--") != 0) return Fail("unexpected argument '" + arg + "' (flags are --name=value)", 2);
    size_t eq = arg.find('=');
    std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (kFlags.count(name) == 0) return Fail("unknown flag '--" + name + "' (see gen_esb --help)", 2);
    if (eq != std::string::npos) {
      flags[name] = arg.substr(eq + 1);
    } else if (i + 1 < argc) {
      flags[name] = argv[++i];
    } else {
      return Fail("flag '--" + name + "' needs a value", 2);
    }
  }
  std::string mode = flags.count("es_mode") ? flags["es_mode"] : "codegen";
  if (mode == "extract_history") {
    return Fail("--es_mode=extract_history is not supported by the twin's gen_esb (only codegen)", 2);
  }
  if (mode != "codegen") return Fail("--es_mode must be codegen or extract_history, got '" + mode + "'", 2);

  gen_esb::Options options;
  if (flags.count("module_name")) options.module_name = flags["module_name"];
  if (flags.count("h_guard_prefix")) options.h_guard_prefix = flags["h_guard_prefix"];
  std::string out_dir = Absolute(flags.count("output_dir") ? flags["output_dir"] : ".");
  while (out_dir.size() > 1 && out_dir.back() == '/') out_dir.pop_back();
  std::set<std::string> excluded;
  if (flags.count("exclude_ops")) {
    std::string list = flags["exclude_ops"] + ",";
    for (size_t start = 0, comma; (comma = list.find(',', start)) != std::string::npos; start = comma + 1) {
      std::string op = list.substr(start, comma - start);
      op.erase(0, op.find_first_not_of(" \t"));
      op.erase(op.find_last_not_of(" \t") + 1);
      if (!op.empty()) excluded.insert(op);
    }
  }

  const char *roots = std::getenv("ASCEND_CUSTOM_OPP_PATH");
  if (roots == nullptr || *roots == '\0') {
    return Fail(
        "ASCEND_CUSTOM_OPP_PATH is not set: point it at the OPP root(s) holding the proto libraries "
        "(<root>/libcust_opapi.so or <root>/op_graph/lib/linux/<arch>/*.so)");
  }
  std::string error;
  // Prototypes the graph library registers itself (the twin's built-ins) are not part of the
  // module: CANN's graph library has none, its built-ins come from OPP proto libraries.
  std::map<std::string, ge::twin::capi::OpProto> builtin, listed;
  if (!ListProtos(&builtin, &error)) return Fail(error);
  void *loaded = nullptr;
  size_t loaded_size = 0;
  char *err = nullptr;
  // The graph library logs the cause it also returns into the plog (twin/common/log), not on
  // the console: a failure is the one gen_esb line.
  uint32_t load_status = GeTwinGraphLoadOppLibraries(roots, &loaded, &loaded_size, &err);
  if (load_status != 0) {
    return Fail("cannot load the proto libraries of ASCEND_CUSTOM_OPP_PATH: " + TakeString(err));
  }
  ge::twin::capi::LoadedLibraries libraries;
  libraries.ParseFromArray(loaded, static_cast<int>(loaded_size));
  GeTwinGraphFreeBuffer(loaded);
  std::string loaded_list;
  for (const auto &path : libraries.paths()) loaded_list += (loaded_list.empty() ? "" : ", ") + path;
  if (!ListProtos(&listed, &error)) return Fail(error);

  std::vector<gen_esb::OpProto> ops;
  for (const auto &entry : listed) {
    if (builtin.count(entry.first) || excluded.count(entry.first)) continue;
    gen_esb::OpProto op;
    if (!gen_esb::ReadOpProto(entry.second, &op, &error)) return Fail(error);
    ops.push_back(std::move(op));
  }
  if (ops.empty()) {
    return Fail("the proto libraries of ASCEND_CUSTOM_OPP_PATH='" + std::string(roots) +
                "' register no operator prototype" + (excluded.empty() ? "" : " outside --exclude_ops") +
                " (loaded: " + (loaded_list.empty() ? std::string("none") : loaded_list) + ")");
  }
  std::map<std::string, std::string> files;
  if (!gen_esb::GenerateModule(ops, options, &files, &error)) return Fail(error, 2);
  files["generated_code.flag"] = std::to_string(ops.size()) + " operators\n";
  if (!WriteOutput(out_dir, files, &error)) return Fail(error);
  std::printf("gen_esb: generated %zu operators of module %s into %s\n", ops.size(), options.module_name.c_str(),
              out_dir.c_str());
  return 0;
}
