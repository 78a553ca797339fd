// aclInit's configuration file (acl.json): read and checked, never trusted. CANN reads dump,
// profiling and error-report settings from it; the twin acts on none of them, but refuses what
// CANN refuses — a path that is not a readable regular file, a file too large to be a config,
// text that is not one JSON object — so a program that passes here passes on CANN.
#ifndef TWIN_RUNTIME_SRC_ACL_CONFIG_H_
#define TWIN_RUNTIME_SRC_ACL_CONFIG_H_

#include <cstddef>
#include <string>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

constexpr size_t kMaxAclConfigBytes = size_t{1} << 20;  // 1 MiB: far beyond any acl.json

// OK for nullptr or "" (no configuration), an empty file, or a file holding one JSON object.
Status CheckAclConfig(const char *path);

// Whether `text` is exactly one JSON value of type object (RFC 8259 syntax, nesting depth at
// most 64); on failure `where` says what is wrong and at which byte.
bool IsJsonObject(const std::string &text, std::string *where);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_SRC_ACL_CONFIG_H_
