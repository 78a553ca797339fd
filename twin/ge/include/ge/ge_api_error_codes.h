/* ge/ge_api_error_codes.h: ge::Status values as CANN composes them (GE_ERRORNO bit fields),
 * plus the StatusFactory that maps a code to its description. */
#ifndef INC_EXTERNAL_GE_GE_API_ERROR_CODES_H_
#define INC_EXTERNAL_GE_GE_API_ERROR_CODES_H_

#include <cstdint>
#include <map>
#include <string>

#include "ge/ge_api_types.h"
#include "ge/ge_error_codes.h"

#ifndef GE_ERRORNO
// runtime: 2 bits, type: 2, level: 3, sysid: 8, modid: 5, value: 12 (CANN's layout).
#define GE_ERRORNO(runtime, type, level, sysid, modid, name, value, desc)                              \
  constexpr ge::Status name = (static_cast<uint32_t>(0xFFU & static_cast<uint32_t>(runtime)) << 30U) | \
                              (static_cast<uint32_t>(0xFFU & static_cast<uint32_t>(type)) << 28U) |    \
                              (static_cast<uint32_t>(0xFFU & static_cast<uint32_t>(level)) << 25U) |   \
                              (static_cast<uint32_t>(0xFFU & static_cast<uint32_t>(sysid)) << 17U) |   \
                              (static_cast<uint32_t>(0xFFU & static_cast<uint32_t>(modid)) << 12U) |   \
                              (static_cast<uint32_t>(0x0FFFU) & static_cast<uint32_t>(value));         \
  const ErrorNoRegisterar g_errorno_##name((name), (desc))

namespace ge {
class GE_FUNC_VISIBILITY StatusFactory {
 public:
  static StatusFactory *Instance() {
    // Header-only on the twin: one function-local instance per library that includes it.
    static StatusFactory instance;
    return &instance;
  }
  void RegisterErrorNo(const uint32_t err, const std::string &desc) { err_desc_.emplace(err, desc); }
  void RegisterErrorNo(const uint32_t err, const char *const desc) {
    if (desc != nullptr) err_desc_.emplace(err, desc);
  }
  std::string GetErrDesc(const uint32_t err) {
    const auto it = err_desc_.find(err);
    return it == err_desc_.end() ? std::string() : it->second;
  }
  AscendString GetErrDescV2(const uint32_t err) { return AscendString(GetErrDesc(err).c_str()); }

 private:
  std::map<uint32_t, std::string> err_desc_;
};

class GE_FUNC_VISIBILITY ErrorNoRegisterar {
 public:
  ErrorNoRegisterar(const uint32_t err, const std::string &desc) noexcept {
    StatusFactory::Instance()->RegisterErrorNo(err, desc);
  }
  ErrorNoRegisterar(const uint32_t err, const char *const desc) noexcept {
    StatusFactory::Instance()->RegisterErrorNo(err, desc);
  }
  ~ErrorNoRegisterar() = default;
};

GE_ERRORNO(0, 0, 0, 0, 0, SUCCESS, 0, "success");
GE_ERRORNO(0b11, 0b11, 0b111, 0xFFU, 0b11111, FAILED, 0xFFFU, "failed");
}  // namespace ge
#endif  // GE_ERRORNO

#endif  // INC_EXTERNAL_GE_GE_API_ERROR_CODES_H_
