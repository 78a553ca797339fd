// Trap: the typed exception the Ascend C twin throws instead of corrupting
// memory. The kernel entry shim (asc_twin/kernel_entry.h) catches it and turns
// it into the one-line cause the runtime reports with kernel and block.
#ifndef ASC_TWIN_TRAP_H_
#define ASC_TWIN_TRAP_H_

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace AscendC {
namespace twin {

class Trap : public std::runtime_error {
 public:
  explicit Trap(const std::string& cause) : std::runtime_error(cause) {}
};

// On the few calls every tile of a kernel makes (queue bookkeeping, count-form DataCopy and
// vector calls): inlined into the kernel, their checks fold into a handful of compares on values
// already in registers, where a call cost the twin more than the check (the tensors went through
// memory). The traps stay out of line (RaiseTrap).
#define ASC_TWIN_HOT __attribute__((always_inline))

// A fact the twin's own bookkeeping guarantees, given to the optimiser so that checks it makes
// redundant fold away (never a check of user input: that would drop a trap).
#if defined(__clang__)
#define ASC_TWIN_ASSUME(cond) __builtin_assume(cond)
#else
#define ASC_TWIN_ASSUME(cond)             \
  do {                                    \
    if (!(cond)) __builtin_unreachable(); \
  } while (0)
#endif

// Formats one line "<api>: <cause>" and throws Trap. Kept out of line and cold
// so that the checks in front of vector loops stay cheap.
[[noreturn]] __attribute__((noinline, cold, format(printf, 1, 2))) inline void RaiseTrap(const char* fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  throw Trap(line);
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_TRAP_H_
