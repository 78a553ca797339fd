/* ge::AscendString: the ABI-stable string GE's external API passes around. */
#ifndef INC_EXTERNAL_GRAPH_ASCEND_STRING_H_
#define INC_EXTERNAL_GRAPH_ASCEND_STRING_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "ge_twin/abi_guard.h"

namespace ge {
class AscendString {
 public:
  AscendString() = default;
  ~AscendString() = default;
  AscendString(const char *name) : name_(name == nullptr ? "" : name) {}  // NOLINT: implicit as in CANN
  AscendString(const char *name, size_t length) : name_(name == nullptr ? std::string() : std::string(name, length)) {}

  const char *GetString() const { return name_.c_str(); }
  size_t GetLength() const { return name_.size(); }
  size_t Hash() const { return std::hash<std::string>()(name_); }

  bool operator<(const AscendString &d) const { return name_ < d.name_; }
  bool operator>(const AscendString &d) const { return name_ > d.name_; }
  bool operator<=(const AscendString &d) const { return name_ <= d.name_; }
  bool operator>=(const AscendString &d) const { return name_ >= d.name_; }
  bool operator==(const AscendString &d) const { return name_ == d.name_; }
  bool operator!=(const AscendString &d) const { return name_ != d.name_; }

 private:
  std::string name_;
};
}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
  size_t operator()(const ge::AscendString &name) const { return name.Hash(); }
};
}  // namespace std

#endif  // INC_EXTERNAL_GRAPH_ASCEND_STRING_H_
