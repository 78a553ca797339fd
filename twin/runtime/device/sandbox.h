// The device process's sandbox (README.md "The sandbox"): what a kernel may do once the device
// is up. Kernels run on the dispatcher and worker threads; those threads live under two stacked
// seccomp-bpf filters, the socket (loader) thread under the first alone:
//
//   process filter  (InstallProcessFilter, all threads): futex, clocks, the memory calls with no
//                   page writable and executable at once, read/write/recvmsg/sendmsg, threads
//                   (clone with CLONE_THREAD; clone3 answers ENOSYS so glibc uses clone), signals
//                   to this process only, open for reading only (dlopen of an image's memfd),
//                   exit. Everything else traps.
//   kernel filter   (InstallKernelFilter, the thread that starts the dispatchers and every thread
//                   it creates): no executable memory at all, no open, no memfd, writes only to
//                   stdout/stderr (kernel printf), the socket and the log relay, reads only of
//                   the memory meter.
//
// A forbidden call raises SIGSYS (SECCOMP_RET_TRAP; the reason in si_errno): the fault handler
// reports "made forbidden system call execve (59)" and the launch fails like any kernel fault.
// Harden() does the rest once, before either filter: no new privileges, no capabilities, not
// dumpable, SIGKILL when the host dies, address-space and data limits.
#ifndef TWIN_RUNTIME_DEVICE_SANDBOX_H_
#define TWIN_RUNTIME_DEVICE_SANDBOX_H_

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace asc_twin::rt::device {

constexpr int kLogFd = 7;    // write end of the log relay's pipe (log_relay.h)
constexpr int kMeterFd = 8;  // /proc/self/statm, opened before the filters (MemoryMeter)

// Why a call trapped: SECCOMP_RET_DATA of the rule, delivered as si_errno.
enum TrapReason : uint16_t {
  kNotAllowed = 0,
  kExecutableMemory = 1,    // PROT_EXEC after start-up (kernel threads)
  kWritableExecutable = 2,  // PROT_WRITE|PROT_EXEC (any thread, ever)
  kNotAThread = 3,          // clone without CLONE_THREAD: a new process
  kDescriptor = 4,          // a descriptor this thread may not use
  kOtherProcess = 5,        // a signal to another process
  kOpenForWriting = 6,      // open with a write/create flag
  kNewLimit = 7,            // prlimit64 that sets a limit
};

struct SandboxLimits {
  uint64_t address_bytes = 0;  // RLIMIT_AS: device memory (the GM arena) + the process's own
  uint64_t data_bytes = 0;     // RLIMIT_DATA: private writable memory (heap, thread stacks)
};

// The limits for a device with `gm_bytes` of device memory whose launches run on up to
// `threads` threads at once.
SandboxLimits LimitsFor(uint64_t gm_bytes, uint32_t threads);

// No new privileges, all capabilities dropped (effective, permitted, inheritable, ambient,
// bounding), not dumpable, SIGKILL on the host's death, RLIMIT_AS/RLIMIT_DATA/RLIMIT_CORE.
// "" or what failed.
std::string Harden(const SandboxLimits &limits);

// The process filter (every thread, present and future). `self` is getpid(). "" or the cause.
std::string InstallProcessFilter(pid_t self);
// The kernel filter, stacked on it for the calling thread and the threads it creates.
std::string InstallKernelFilter();

// "execve" for 59; "syscall 999" style names are the caller's (nullptr when unknown).
const char *SyscallName(long nr);

// The cause of a SIGSYS the filters raised, for the fault report: "made forbidden system call
// mprotect (10) with PROT_EXEC: no executable memory after start-up". Async-signal-safe.
void DescribeTrap(const siginfo_t *info, const void *ucontext, char *out, size_t size);

// Anonymous resident memory of this process in bytes (statm: resident - shared), read through
// kMeterFd with one pread; 0 if unreadable.
uint64_t PrivateResidentBytes();

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_SANDBOX_H_
