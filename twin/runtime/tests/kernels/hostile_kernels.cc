// Device binary whose kernels are hostile, not buggy: each tries to reach past the device
// process — kill the host, write its memory through /proc/<pid>/mem, run a shell, fork a child
// that outlives it, write a host file, make memory writable and executable or executable
// later, take all memory, keep memory after its launch, forge the socket's replies. Each takes
// (bad_block, arg0, arg1): only block `bad_block` acts. The hostile-kernel suite
// (tests/hostile_kernel_test.cc) checks that the sandbox answers each with an error code and a
// log line while the host lives on and the next launch computes right.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "asc_twin/aicore_abi.h"

extern "C" __attribute__((used, section(".ascend.meta"))) const char asc_twin_meta[] =
    "abi=3\n"
    "npu_arch=2201\n"
    "npu_arch_flag=dav-2201\n"
    "kernel=hostile_kill_host\n"
    "kernel=hostile_write_host_memory\n"
    "kernel=hostile_execve\n"
    "kernel=hostile_fork\n"
    "kernel=hostile_write_file\n"
    "kernel=hostile_rwx_mmap\n"
    "kernel=hostile_mprotect_exec\n"
    "kernel=hostile_take_all_memory\n"
    "kernel=hostile_keep_memory\n"
    "kernel=hostile_forge_reply\n"
    "kernel=hostile_spin\n"
    "kernel=benign_heap_churn\n";

#define EXPORT extern "C" __attribute__((visibility("default")))
#define HOSTILE_KERNEL(name)                                                                \
  EXPORT const AscTwinKernelInfo __asc_twin_info_##name = {ASC_TWIN_ABI_VERSION, 3, 24, 0}; \
  EXPORT int __asc_twin_entry_##name(const AscTwinBlockEnv *env, const void *args, size_t, char *, size_t)

namespace {

uint64_t Slot(const void *args, size_t index) {
  uint64_t value;
  std::memcpy(&value, static_cast<const uint8_t *>(args) + 8 * index, 8);
  return value;
}

bool Mine(const AscTwinBlockEnv *env, const void *args) { return env->block_idx == Slot(args, 0); }

// Memory a kernel keeps across launches (the leak the device must not carry on with).
void *g_kept[64];

}  // namespace

// arg0: the host's pid.
HOSTILE_KERNEL(hostile_kill_host) {
  if (Mine(env, args)) kill(static_cast<pid_t>(Slot(args, 1)), SIGKILL);
  return 0;
}

// arg0: the host's pid, arg1: a host address to overwrite.
HOSTILE_KERNEL(hostile_write_host_memory) {
  if (Mine(env, args)) {
    char path[64];
    std::snprintf(path, sizeof(path), "/proc/%llu/mem", static_cast<unsigned long long>(Slot(args, 1)));
    const int fd = open(path, O_RDWR);
    const uint64_t evil = 0xdeadbeefdeadbeefull;
    if (fd >= 0) pwrite(fd, &evil, sizeof(evil), static_cast<off_t>(Slot(args, 2)));
  }
  return 0;
}

HOSTILE_KERNEL(hostile_execve) {
  if (Mine(env, args)) {
    char sh[] = "/bin/sh";
    char *argv[] = {sh, nullptr};
    execve(sh, argv, nullptr);
  }
  return 0;
}

// A child that would outlive the host: it sleeps and never exits.
HOSTILE_KERNEL(hostile_fork) {
  if (Mine(env, args) && fork() == 0) {
    for (;;) pause();
  }
  return 0;
}

// arg0: a device pointer holding the NUL-terminated host path to create.
HOSTILE_KERNEL(hostile_write_file) {
  if (Mine(env, args)) {
    const int fd = open(reinterpret_cast<const char *>(Slot(args, 1)), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) write(fd, "pwned\n", 6);
  }
  return 0;
}

// Code written into memory that is writable and executable at once, then run.
HOSTILE_KERNEL(hostile_rwx_mmap) {
  if (Mine(env, args)) {
    void *page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED) {
      static_cast<uint8_t *>(page)[0] = 0xc3;  // ret
      reinterpret_cast<void (*)()>(page)();
    }
  }
  return 0;
}

// W^X the slow way: write code, then make the page executable, then run it.
HOSTILE_KERNEL(hostile_mprotect_exec) {
  if (Mine(env, args)) {
    void *page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED) {
      static_cast<uint8_t *>(page)[0] = 0xc3;  // ret
      if (mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0) reinterpret_cast<void (*)()>(page)();
    }
  }
  return 0;
}

// Allocates and touches 64 MiB at a time until the allocator says no, and keeps it all.
HOSTILE_KERNEL(hostile_take_all_memory) {
  if (Mine(env, args)) {
    for (void *&chunk : g_kept) {
      chunk = malloc(64u << 20);
      if (chunk == nullptr) break;
      std::memset(chunk, 0x5a, 64u << 20);
    }
  }
  return 0;
}

// arg0: bytes to allocate, touch and keep after the launch (touched without a check: an
// allocation the device refuses faults here).
HOSTILE_KERNEL(hostile_keep_memory) {
  if (Mine(env, args)) {
    const size_t bytes = static_cast<size_t>(Slot(args, 1));
    g_kept[0] = malloc(bytes);
    std::memset(g_kept[0], 0x5a, bytes);
  }
  return 0;
}

// arg0: device pointer to bytes, arg1: their count, written to the host's socket (descriptor 5,
// device/protocol.h) as if they were the device's next reply.
HOSTILE_KERNEL(hostile_forge_reply) {
  if (Mine(env, args)) send(5, reinterpret_cast<const void *>(Slot(args, 1)), static_cast<size_t>(Slot(args, 2)), 0);
  return 0;
}

// Spins until the word at device pointer arg0 is non-zero: a launch that stays in flight while a
// test forges its result in the control block (as a kernel that found it could).
HOSTILE_KERNEL(hostile_spin) {
  if (Mine(env, args)) {
    while (*reinterpret_cast<volatile uint32_t *>(Slot(args, 1)) == 0) {
    }
  }
  return 0;
}

// Not hostile: every block fills arg0 heap chunks of 8 KiB and frees them newest first, so the
// malloc arena its thread uses shrinks its heap, as the twin's own API code (std::vector) may in
// any block. glibc reads /proc/sys/vm/overcommit_memory the first time a thread arena shrinks;
// under the sandbox's filters that would be a forbidden openat, so the device reads it before.
HOSTILE_KERNEL(benign_heap_churn) {
  // Resident first, as a kernel that waits for other blocks: its blocks then run on fresh
  // threads, which share the device's malloc arenas (the quant_group_matmul case).
  char err[128];
  if (env->cross_block != nullptr)
    (void)env->cross_block(env->launch_ctx, ASC_TWIN_CROSS_BLOCK_RESIDENT, err, sizeof(err));
  const size_t count = static_cast<size_t>(Slot(args, 1));
  void *chunks[1024];
  const size_t n = count < 1024 ? count : 1024;
  for (size_t i = 0; i < n; ++i) {
    chunks[i] = malloc(8192);
    if (chunks[i] != nullptr) std::memset(chunks[i], 0x3c, 8192);
  }
  for (size_t i = n; i > 0; --i) free(chunks[i - 1]);
  return 0;
}
