#include "twin/runtime/internal/soc_spec.h"

#include <cstdlib>

namespace asc_twin::rt {

const char *ConfiguredSocName() {
  const char *env = std::getenv(kSocVersionEnv);
  return env != nullptr && *env != '\0' ? env : kDefaultSocVersion;
}

const SocSpec *FindSoc(const std::string &name) {
  for (size_t i = 0; i < kSocTableSize; ++i) {
    if (name == kSocTable[i].soc_version) return &kSocTable[i];
  }
  return nullptr;
}

std::string KnownSocNames() {
  std::string names;
  for (size_t i = 0; i < kSocTableSize; ++i) names += (i ? ", " : "") + std::string(kSocTable[i].soc_version);
  return names;
}

}  // namespace asc_twin::rt
