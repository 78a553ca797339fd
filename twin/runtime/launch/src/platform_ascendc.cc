// platform_ascendc on the twin: PlatformAscendC from the SoC's ini file.
#include "platform/platform_ascendc.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <memory>
#include <mutex>
#include <vector>

#include "twin/common/log/log.h"
#include "twin/platform/ini/ini_file.h"

extern "C" const char* aclrtGetSocName() __attribute__((weak));

namespace platform_ascendc {

struct PlatformAscendC::Impl {
  std::string soc;
  std::map<std::string, std::string> values;
};

namespace {

enum class IniRead { kMissing, kMalformed, kRead };

// <SoC>.ini through the twin's one ini reader, flattened to "section.key" (GetIniValue's keys).
IniRead ReadIni(const std::string& path, std::map<std::string, std::string>* out) {
  std::ifstream probe(path);
  if (!probe) return IniRead::kMissing;
  ascend_twin::IniSections sections;
  std::string error;
  if (!ascend_twin::ReadIniFile(path, &sections, &error)) {
    ASCEND_TWIN_LOGE(ascend_twin::log::kRuntime, "platform_ascendc: %s", error.c_str());
    return IniRead::kMalformed;
  }
  for (const auto& section : sections) {
    for (const auto& entry : section.second) (*out)[section.first + "." + entry.first] = entry.second;
  }
  return IniRead::kRead;
}

std::string LibraryDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&LibraryDir), &info) == 0 || info.dli_fname == nullptr) return "";
  std::string p = info.dli_fname;
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

std::string DefaultSoc() {
  if (aclrtGetSocName != nullptr) {
    const char* name = aclrtGetSocName();
    if (name != nullptr && *name != '\0') return name;
  }
  const char* env = std::getenv("ASCEND_TWIN_SOC_VERSION");
  return env != nullptr && *env != '\0' ? env : "Ascend910B1";
}

PlatformAscendC* Load(const std::string& soc) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<PlatformAscendC>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(soc);
  if (it != cache.end()) return it->second.get();
  std::vector<std::string> dirs;
  if (const char* d = std::getenv("ASCEND_TWIN_PLATFORM_DIR")) dirs.emplace_back(d);
  if (const char* h = std::getenv("ASCEND_HOME_PATH"))
    dirs.push_back(std::string(h) + "/x86_64-linux/data/platform_config");
  dirs.push_back(LibraryDir() + "/../x86_64-linux/data/platform_config");
  for (const std::string& dir : dirs) {
    std::map<std::string, std::string> values;
    const IniRead read = ReadIni(std::string(dir).append("/").append(soc).append(".ini"), &values);
    if (read == IniRead::kMalformed) return nullptr;  // a broken config is not skipped silently
    if (read == IniRead::kRead) {
      auto* p = new PlatformAscendC(new PlatformAscendC::Impl{soc, std::move(values)});
      cache[soc].reset(p);
      return p;
    }
  }
  return nullptr;
}

}  // namespace

const char* PlatformAscendC::GetSocName() const { return impl_->soc.c_str(); }

const char* PlatformAscendC::GetIniValue(const char* key) const {
  auto it = impl_->values.find(key == nullptr ? "" : key);
  return it == impl_->values.end() ? "" : it->second.c_str();
}

uint64_t PlatformAscendC::Num(const char* key) const { return std::strtoull(GetIniValue(key), nullptr, 10); }

static bool Split(const PlatformAscendC& p) {
  const std::string types = p.GetIniValue("SoCInfo.core_type_list");
  return types.find("VectorCore") != std::string::npos && types.find("CubeCore") != std::string::npos;
}

uint32_t PlatformAscendC::GetCoreNumAic() const {
  return static_cast<uint32_t>(Split(*this) ? Num("SoCInfo.cube_core_cnt") : Num("SoCInfo.ai_core_cnt"));
}
uint32_t PlatformAscendC::GetCoreNumAiv() const {
  return static_cast<uint32_t>(Split(*this) ? Num("SoCInfo.vector_core_cnt") : Num("SoCInfo.ai_core_cnt"));
}
uint32_t PlatformAscendC::GetCoreNumVector() const { return static_cast<uint32_t>(Num("SoCInfo.vector_core_cnt")); }
uint32_t PlatformAscendC::GetCoreNum() const {
  return Split(*this) ? GetCoreNumAiv() : static_cast<uint32_t>(Num("SoCInfo.ai_core_cnt"));
}

SocVersion PlatformAscendC::GetSocVersion() const {
  const std::string shortv = GetIniValue("version.Short_SoC_version");
  if (shortv == "Ascend910B" || shortv == "Ascend910_93") return SocVersion::ASCEND910B;
  if (shortv == "Ascend310P") return SocVersion::ASCEND310P;
  if (shortv == "Ascend310B") return SocVersion::ASCEND310B;
  if (shortv.rfind("Ascend950", 0) == 0) return SocVersion::ASCEND950;
  if (shortv == "Ascend910") return SocVersion::ASCEND910;
  return SocVersion::RESERVED_VERSION;
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  const bool a2 = GetSocVersion() == SocVersion::ASCEND910B;
  switch (memType) {
    case CoreMemType::UB:
      size = Num("AICoreSpec.ub_size") - (a2 ? 256 : 0);
      break;
    case CoreMemType::L1:
      size = Num("AICoreSpec.l1_size") - (a2 ? 256 : 0);
      break;
    case CoreMemType::L0_A:
      size = Num("AICoreSpec.l0_a_size");
      break;
    case CoreMemType::L0_B:
      size = Num("AICoreSpec.l0_b_size");
      break;
    case CoreMemType::L0_C:
      size = Num("AICoreSpec.l0_c_size");
      break;
    case CoreMemType::BT:
      size = Num("AICoreSpec.bt_size");
      break;
    case CoreMemType::FB:
      size = Num("AICoreSpec.fb_size");
      break;
    case CoreMemType::L2:
      size = Num("SoCInfo.l2_size");
      break;
    case CoreMemType::HBM:
      size = Num("SoCInfo.memory_size");
      break;
    default:
      size = 0;
      break;
  }
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize() const {
  const std::string arch = GetIniValue("version.NpuArch");
  return (arch == "2201" || arch == "3510") ? 16u * 1024u * 1024u : 2u * 1024u * 1024u;
}

uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
  if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
  uint32_t ratio = aivCoreNum / aicCoreNum;
  return ratio == 0 ? sliceNum : (sliceNum + ratio - 1) / ratio;
}

PlatformAscendC* PlatformAscendCManager::GetInstance() { return Load(DefaultSoc()); }
PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  return customSocVersion != nullptr && *customSocVersion != '\0' ? Load(customSocVersion) : GetInstance();
}

}  // namespace platform_ascendc
