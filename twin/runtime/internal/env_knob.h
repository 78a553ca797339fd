// Tuning knobs read from the environment (documented in twin/runtime/README.md "Environment").
#ifndef TWIN_RUNTIME_INTERNAL_ENV_KNOB_H_
#define TWIN_RUNTIME_INTERNAL_ENV_KNOB_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace asc_twin::rt {

// A non-negative decimal from `name`, capped at `max` (also when it overflows); unset, empty or
// malformed (a sign, spaces, a suffix) gives `fallback`, as each knob's documentation says.
inline uint64_t EnvUnsigned(const char *name, uint64_t fallback, uint64_t max) {
  const char *text = std::getenv(name);
  if (text == nullptr || text[0] < '0' || text[0] > '9') return fallback;
  char *end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0') return fallback;
  return std::min<uint64_t>(value, max);
}

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_ENV_KNOB_H_
