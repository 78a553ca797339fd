// SoC facts of the device twin, compiled in from twin/platform/*.ini by
// tools/gen_soc_table.py (the runtime reads no config file at run time).
#ifndef TWIN_RUNTIME_INTERNAL_SOC_SPEC_H_
#define TWIN_RUNTIME_INTERNAL_SOC_SPEC_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace asc_twin::rt {

struct SocSpec {
  const char *soc_version;        // [version] SoC_version, e.g. "Ascend910B1"
  const char *short_soc_version;  // [version] Short_SoC_version
  uint32_t npu_arch;              // [version] NpuArch, e.g. 2201
  uint32_t ai_core_cnt;           // [SoCInfo]
  uint32_t cube_core_cnt;
  uint32_t vector_core_cnt;
  uint64_t ub_size;  // [AICoreSpec] ub_size in bytes
  uint64_t l1_size;  // [AICoreSpec] l1_size, l0_a_size, ... in bytes: the AIC's local memories
  uint64_t l0_a_size;
  uint64_t l0_b_size;
  uint64_t l0_c_size;
  uint64_t bt_size;  // BiasTable
  uint64_t fb_size;  // Fixpipe buffer
};

extern const SocSpec kSocTable[];
extern const size_t kSocTableSize;

constexpr const char *kDefaultSocVersion = "Ascend910B1";
constexpr const char *kSocVersionEnv = "ASCEND_TWIN_SOC_VERSION";

// The SoC the device twin is: ASCEND_TWIN_SOC_VERSION if set and not empty, else the default.
const char *ConfiguredSocName();

// nullptr if `name` is not a known SoC.
const SocSpec *FindSoc(const std::string &name);
// "Ascend310B1, Ascend910B1, ..." for error messages.
std::string KnownSocNames();

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_SOC_SPEC_H_
