// The benchmarks' command-line flags: `--name=value` arguments, matched by prefix.
#ifndef TWIN_RUNTIME_BENCH_BENCH_FLAGS_H_
#define TWIN_RUNTIME_BENCH_BENCH_FLAGS_H_

#include <cstring>
#include <string>

namespace asc_twin::bench {

// The value of `arg` if it is `flag` (spelled with its '='), else null.
inline const char *FlagValue(const std::string &arg, const char *flag) {
  const size_t len = std::strlen(flag);
  return arg.compare(0, len, flag) == 0 ? arg.c_str() + len : nullptr;
}

}  // namespace asc_twin::bench

#endif  // TWIN_RUNTIME_BENCH_BENCH_FLAGS_H_
