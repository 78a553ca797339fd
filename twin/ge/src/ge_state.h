// The process-wide GE state of libge_runner.so: GEInitialize sets it up and GEFinalize tears it
// down (ge_api.cc); every ge::Session call checks it and runs under it (session.cc).
#ifndef TWIN_GE_SRC_GE_STATE_H_
#define TWIN_GE_SRC_GE_STATE_H_

#include <map>
#include <set>
#include <shared_mutex>
#include <string>

#include "acl/acl.h"
#include "ge/ge_api.h"

namespace ge_twin {

constexpr ge::Status kNotInitialized = ACL_ERROR_GE_EXEC_NOT_INIT;

// Runs hold it shared; GEInitialize/GEFinalize hold it exclusively, so the runtime is never
// finalized under a running graph.
struct GeState {
  std::shared_mutex mutex;
  bool initialized = false;
  bool acl_initialized_here = false;
  int32_t device_id = 0;
  aclrtContext context = nullptr;
  std::map<std::string, std::string> options;
  std::set<ge::SessionImpl *> sessions;
};

GeState &State();

// GEFinalize: the runtime goes away, so every loaded model of `session` is released (its graphs
// stay added). Defined with the session (session.cc).
void ReleaseSessionModels(ge::SessionImpl *session);

inline std::string OptionOr(const std::map<std::string, std::string> &options, const std::string &key,
                            const std::string &fallback) {
  const auto it = options.find(key);
  return it == options.end() || it->second.empty() ? fallback : it->second;
}

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_GE_STATE_H_
