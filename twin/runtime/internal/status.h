// Status: an ACL error code plus the one-line message reported through aclGetRecentErrMsg.
#ifndef TWIN_RUNTIME_INTERNAL_STATUS_H_
#define TWIN_RUNTIME_INTERNAL_STATUS_H_

#include <string>
#include <utility>

#include "acl/acl_base.h"

namespace asc_twin::rt {

class Status {
 public:
  Status() = default;
  Status(aclError code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == ACL_SUCCESS; }
  aclError code() const { return code_; }
  const std::string &message() const { return message_; }

 private:
  aclError code_ = ACL_SUCCESS;
  std::string message_;
};

// Status or a value; the value is meaningful only when status().ok().
template <typename T>
class StatusOr {
 public:
  StatusOr(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design
  StatusOr(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  bool ok() const { return status_.ok(); }
  const Status &status() const { return status_; }
  T &value() { return value_; }
  const T &value() const { return value_; }

 private:
  Status status_;
  T value_{};
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_STATUS_H_
