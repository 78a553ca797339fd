// Device binary whose kernels fault the way buggy kernels do: wild stores, integer division by
// zero, abort(), exit(), _exit(), stack overflow, an endless loop, SIGKILL. Each takes
// (bad_block, arg): only block `bad_block` faults, the others return at once. The trap suite
// (tests/trap_suite_test.cc) checks that each one fails its launch with an error code naming
// kernel and block, and that the host and the next launch are unharmed.
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "asc_twin/aicore_abi.h"

extern "C" __attribute__((used, section(".ascend.meta"))) const char asc_twin_meta[] =
    "abi=3\n"
    "npu_arch=2201\n"
    "npu_arch_flag=dav-2201\n"
    "kernel=fault_wild_store\n"
    "kernel=fault_divide\n"
    "kernel=fault_abort\n"
    "kernel=fault_exit\n"
    "kernel=fault_quick_exit\n"
    "kernel=fault_stack_overflow\n"
    "kernel=fault_hang\n"
    "kernel=fault_sigkill\n";

#define EXPORT extern "C" __attribute__((visibility("default")))
#define FAULT_KERNEL(name)                                                                  \
  EXPORT const AscTwinKernelInfo __asc_twin_info_##name = {ASC_TWIN_ABI_VERSION, 2, 16, 0}; \
  EXPORT int __asc_twin_entry_##name(const AscTwinBlockEnv *env, const void *args, size_t, char *, size_t)

namespace {

uint64_t Slot(const void *args, size_t index) {
  uint64_t value;
  std::memcpy(&value, static_cast<const uint8_t *>(args) + 8 * index, 8);
  return value;
}

bool Mine(const AscTwinBlockEnv *env, const void *args) { return env->block_idx == Slot(args, 0); }

volatile uint64_t g_sink;

__attribute__((noinline)) uint64_t Recurse(uint64_t depth) {
  volatile char frame[4096];
  frame[depth % sizeof(frame)] = static_cast<char>(depth);
  if (g_sink == 0xfeedfacecafebeefull) return 0;  // never true: defeats the tail call
  return Recurse(depth + 1) + frame[depth % sizeof(frame)];
}

}  // namespace

// A store through `arg`: a host pointer, a GM guard page, freed GM, or 0x10.
FAULT_KERNEL(fault_wild_store) {
  if (Mine(env, args)) *reinterpret_cast<volatile uint64_t *>(Slot(args, 1)) = 0xdeadbeefdeadbeefull;
  return 0;
}

FAULT_KERNEL(fault_divide) {
  if (Mine(env, args)) {
    volatile int64_t divisor = static_cast<int64_t>(Slot(args, 1));  // 0
    g_sink = static_cast<uint64_t>(1000 / divisor);
  }
  return 0;
}

FAULT_KERNEL(fault_abort) {
  if (Mine(env, args)) abort();
  return 0;
}

FAULT_KERNEL(fault_exit) {
  if (Mine(env, args)) exit(static_cast<int>(Slot(args, 1)));
  return 0;
}

FAULT_KERNEL(fault_quick_exit) {
  if (Mine(env, args)) _exit(static_cast<int>(Slot(args, 1)));
  return 0;
}

FAULT_KERNEL(fault_stack_overflow) {
  if (Mine(env, args)) g_sink = Recurse(Slot(args, 1));
  return 0;
}

FAULT_KERNEL(fault_hang) {
  if (Mine(env, args)) {
    for (;;) g_sink = g_sink + 1;
  }
  return 0;
}

FAULT_KERNEL(fault_sigkill) {
  if (Mine(env, args)) kill(getpid(), SIGKILL);
  return 0;
}
