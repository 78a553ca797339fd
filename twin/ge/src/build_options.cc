#include "twin/ge/src/build_options.h"

#include <sys/stat.h>

#include <vector>

#include "twin/ge/src/ge_log.h"
#include "twin/ge/src/twin_tree.h"

namespace ge_twin {

ge::graphStatus CheckSocVersion(const std::string &api, const std::string &soc) {
  std::string tree;
  std::string error;
  if (!ResolveTree(&tree, &error)) {
    LogError(api + ": " + error);
    return ge::GRAPH_FAILED;
  }
  const std::string dir = PlatformConfigDir(tree);
  struct stat st {};
  const bool known = !soc.empty() && soc.find('/') == std::string::npos &&
                     stat((dir + "/" + soc + ".ini").c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (known) return ge::GRAPH_SUCCESS;
  std::string list;
  for (const std::string &name : KnownSocs(dir)) list += (list.empty() ? "" : ", ") + name;
  LogError(api + ": " + kSocVersionOption + "=\"" + soc + "\" is not a known SoC (known in " + dir + ": " +
           (list.empty() ? std::string("none") : list) + ")");
  return ge::GRAPH_PARAM_INVALID;
}

std::map<std::string, std::string> ToStdMap(const std::map<ge::AscendString, ge::AscendString> &options) {
  std::map<std::string, std::string> result;
  for (const auto &kv : options) result[kv.first.GetString()] = kv.second.GetString();
  return result;
}

}  // namespace ge_twin
