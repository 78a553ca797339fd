/*
 * platform/platform_ascendc.h of the CPU twin (CANN: in libtiling_api.a): the host-side view of
 * the SoC that tiling code queries. Values come from the twin's <SoC>.ini
 * (ASCEND_TWIN_PLATFORM_DIR, else $ASCEND_HOME_PATH/x86_64-linux/data/platform_config, else
 * beside libascendc_runtime.so in the installed tree). Implemented in libascendc_runtime.so.
 */
#ifndef PLATFORM_PLATFORM_ASCENDC_H_
#define PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND950, RESERVED_VERSION = 99999 };

// No standard-library types cross this interface, so it works whatever
// _GLIBCXX_USE_CXX11_ABI the caller and the library were built with.
class PlatformAscendC {
 public:
  struct Impl;
  explicit PlatformAscendC(Impl* impl) : impl_(impl) {}
  PlatformAscendC(const PlatformAscendC&) = delete;
  PlatformAscendC& operator=(const PlatformAscendC&) = delete;
  uint32_t GetCoreNum() const;
  uint32_t GetCoreNumAic() const;
  uint32_t GetCoreNumAiv() const;
  uint32_t GetCoreNumVector() const;
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  SocVersion GetSocVersion() const;
  uint32_t GetLibApiWorkSpaceSize() const;
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  // Twin extras: the SoC name and any ini value ("Section.key"; "" when absent).
  const char* GetSocName() const;
  const char* GetIniValue(const char* sectionDotKey) const;

 private:
  uint64_t Num(const char* key) const;
  Impl* impl_;
};

class PlatformAscendCManager {
 public:
  // nullptr when the SoC (customSocVersion, else the twin device's, ASCEND_TWIN_SOC_VERSION,
  // default Ascend910B1) has no readable ini.
  static PlatformAscendC* GetInstance();
  static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc

#endif  // PLATFORM_PLATFORM_ASCENDC_H_
