// The device process's seccomp-bpf filters and start-up hardening (sandbox.h). The filters are
// written as classic BPF against the kernel's uapi headers; no libseccomp, so the device
// executable needs nothing the toolchain does not already carry.
#include "twin/runtime/device/sandbox.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

#include "twin/runtime/device/protocol.h"

namespace asc_twin::rt::device {
namespace {

#if !defined(__x86_64__)
#error "the device sandbox's filters are written for x86-64 system call numbers"
#endif

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;
// The device process's own heap budget beyond thread stacks: the runtime keeps little (images,
// the table mirror); an AI core has no heap, so kernels need none.
constexpr uint64_t kHeapBytes = 512 * kMiB;
// Code, the loader, malloc arenas' reservations, the control block: mapped, mostly not data.
constexpr uint64_t kOwnAddressBytes = 2 * kGiB;

// ---- a tiny BPF assembler ----

class Program {
 public:
  void Stmt(uint16_t code, uint32_t k) { code_.push_back(BPF_STMT(code, k)); }
  void Jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { code_.push_back(BPF_JUMP(code, k, jt, jf)); }
  void LoadNr() { Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
  // The low 32 bits of argument `i` (little endian): every argument checked here is an int or
  // flags whose bits of interest are low.
  void LoadArg(int i) { Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args) + 8 * i); }
  void Return(uint32_t action) { Stmt(BPF_RET | BPF_K, action); }
  // Starts the rule for system call `nr`: the body that follows runs only for it. End the body
  // with EndRule(), which patches the skip.
  void BeginRule(long nr) {
    LoadNr();
    rule_start_ = code_.size();
    Jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 0);
  }
  void EndRule() { code_[rule_start_].jf = static_cast<uint8_t>(code_.size() - rule_start_ - 1); }
  size_t size() const { return code_.size(); }
  sock_fprog Finish() { return sock_fprog{static_cast<unsigned short>(code_.size()), code_.data()}; }

 private:
  std::vector<sock_filter> code_;
  size_t rule_start_ = 0;
};

constexpr uint32_t Trap(TrapReason reason) { return SECCOMP_RET_TRAP | (reason & SECCOMP_RET_DATA); }

void Allow(Program &p, long nr) {
  p.BeginRule(nr);
  p.Return(SECCOMP_RET_ALLOW);
  p.EndRule();
}

// Allowed unless (argument `arg` & mask) == mask, i.e. all of `mask`'s bits are set.
void AllowUnlessAllBits(Program &p, long nr, int arg, uint32_t mask, TrapReason reason) {
  p.BeginRule(nr);
  p.LoadArg(arg);
  p.Stmt(BPF_ALU | BPF_AND | BPF_K, mask);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, mask, 0, 1);
  p.Return(Trap(reason));
  p.Return(SECCOMP_RET_ALLOW);
  p.EndRule();
}

// Allowed unless any of `mask`'s bits is set in argument `arg`.
void AllowUnlessAnyBit(Program &p, long nr, int arg, uint32_t mask, TrapReason reason, uint32_t allowed) {
  p.BeginRule(nr);
  p.LoadArg(arg);
  p.Jump(BPF_JMP | BPF_JSET | BPF_K, mask, 0, 1);
  p.Return(Trap(reason));
  p.Return(allowed);
  p.EndRule();
}

// Allowed only if argument `arg` is one of `values`.
void AllowOnlyValues(Program &p, long nr, int arg, const std::vector<uint32_t> &values, TrapReason reason) {
  p.BeginRule(nr);
  p.LoadArg(arg);
  for (size_t i = 0; i < values.size(); ++i) {
    // Match: jump over the remaining compares and the trap to the allow at the end.
    p.Jump(BPF_JMP | BPF_JEQ | BPF_K, values[i], static_cast<uint8_t>(values.size() - i), 0);
  }
  p.Return(Trap(reason));
  p.Return(SECCOMP_RET_ALLOW);
  p.EndRule();
}

// Arch check first: another ABI's numbers (or x32's) mean other calls; the process dies.
void Prologue(Program &p) {
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  p.Return(SECCOMP_RET_KILL_PROCESS);
  p.LoadNr();
  p.Jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);  // __X32_SYSCALL_BIT
  p.Return(SECCOMP_RET_KILL_PROCESS);
}

std::string Install(Program &p) {
  sock_fprog program = p.Finish();
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
    return std::string("seccomp(SECCOMP_SET_MODE_FILTER): ") + strerror(errno);
  }
  return "";
}

}  // namespace

SandboxLimits LimitsFor(uint64_t gm_bytes, uint32_t threads) {
  struct rlimit stack {};
  getrlimit(RLIMIT_STACK, &stack);
  // glibc gives each thread RLIMIT_STACK (32 MiB when unlimited) of private writable memory.
  const uint64_t stack_bytes =
      stack.rlim_cur == RLIM_INFINITY || stack.rlim_cur > 64 * kMiB ? 32 * kMiB : static_cast<uint64_t>(stack.rlim_cur);
  SandboxLimits limits;
  limits.data_bytes = kHeapBytes + uint64_t{threads} * (stack_bytes + 64 * 1024 /* guard, alt stack */);
  limits.address_bytes = gm_bytes + limits.data_bytes + kOwnAddressBytes;
  return limits;
}

std::string Harden(const SandboxLimits &limits) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return std::string("PR_SET_PDEATHSIG: ") + strerror(errno);
  if (prctl(PR_SET_DUMPABLE, 0) != 0) return std::string("PR_SET_DUMPABLE: ") + strerror(errno);
  const struct rlimit as {
    limits.address_bytes, limits.address_bytes
  };
  const struct rlimit data {
    limits.data_bytes, limits.data_bytes
  };
  const struct rlimit none {
    0, 0
  };
  if (setrlimit(RLIMIT_AS, &as) != 0) return std::string("RLIMIT_AS: ") + strerror(errno);
  if (setrlimit(RLIMIT_DATA, &data) != 0) return std::string("RLIMIT_DATA: ") + strerror(errno);
  setrlimit(RLIMIT_CORE, &none);
  // Capabilities: the bounding set first (dropping needs CAP_SETPCAP, which goes last), then
  // ambient, then effective/permitted/inheritable. Without privileges the drops fail harmlessly.
  for (int cap = 0; cap <= 63; ++cap) {
    if (prctl(PR_CAPBSET_READ, cap) < 0) break;  // past the kernel's last capability
    prctl(PR_CAPBSET_DROP, cap);
  }
  prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct caps[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capset, &header, caps) != 0) return std::string("capset: ") + strerror(errno);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("PR_SET_NO_NEW_PRIVS: ") + strerror(errno);
  return "";
}

std::string InstallProcessFilter(pid_t self) {
  Program p;
  Prologue(p);
  // Unconditional: descriptors are the device's own (the host passes GM, control, socket, the
  // executable; the relay pipe and meter are opened before this filter).
  for (long nr :
       {__NR_read, __NR_readv, __NR_pread64, __NR_write, __NR_writev, __NR_recvfrom, __NR_recvmsg, __NR_sendto,
        __NR_sendmsg, __NR_close, __NR_fstat, __NR_newfstatat, __NR_lseek, __NR_fcntl, __NR_futex, __NR_set_robust_list,
        __NR_rseq, __NR_sched_yield, __NR_sched_getaffinity, __NR_getcpu, __NR_nanosleep, __NR_clock_nanosleep,
        __NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_getpid, __NR_gettid, __NR_exit, __NR_exit_group,
        __NR_restart_syscall, __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_sigaltstack, __NR_munmap,
        __NR_madvise, __NR_mremap, __NR_brk, __NR_getrandom, __NR_memfd_create,
        // The kernel filter is stacked after this one (filters only ever add refusals).
        __NR_seccomp}) {
    Allow(p, nr);
  }
  // Memory: never writable and executable at once (mremap keeps a mapping's protection).
  AllowUnlessAllBits(p, __NR_mmap, 2, PROT_WRITE | PROT_EXEC, kWritableExecutable);
  AllowUnlessAllBits(p, __NR_mprotect, 2, PROT_WRITE | PROT_EXEC, kWritableExecutable);
  AllowUnlessAllBits(p, __NR_pkey_mprotect, 2, PROT_WRITE | PROT_EXEC, kWritableExecutable);
  // Threads only: clone without CLONE_THREAD is fork. clone3 passes its flags in memory the
  // filter cannot read: ENOSYS, and glibc falls back to clone.
  p.BeginRule(__NR_clone);
  p.LoadArg(0);
  p.Jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
  p.Return(SECCOMP_RET_ALLOW);
  p.Return(Trap(kNotAThread));
  p.EndRule();
  p.BeginRule(__NR_clone3);
  p.Return(SECCOMP_RET_ERRNO | ENOSYS);
  p.EndRule();
  // raise() and the fault handlers' re-raise: signals to this process only.
  AllowOnlyValues(p, __NR_tgkill, 0, {static_cast<uint32_t>(self)}, kOtherProcess);
  // dlopen of an image's memfd (/proc/self/fd/N): for reading only.
  AllowUnlessAnyBit(p, __NR_openat, 2, O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_TMPFILE, kOpenForWriting,
                    SECCOMP_RET_ALLOW);
  // getrlimit (pthread_getattr_np) reads limits; none may be set.
  p.BeginRule(__NR_prlimit64);
  p.LoadArg(2);
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3);
  p.Stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args) + 8 * 2 + 4);  // and its high half
  p.Jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1);
  p.Return(SECCOMP_RET_ALLOW);
  p.Return(Trap(kNewLimit));
  p.EndRule();
  p.Return(Trap(kNotAllowed));
  return Install(p);
}

std::string InstallKernelFilter() {
  Program p;
  Prologue(p);
  AllowUnlessAnyBit(p, __NR_mmap, 2, PROT_EXEC, kExecutableMemory, SECCOMP_RET_ALLOW);
  AllowUnlessAnyBit(p, __NR_mprotect, 2, PROT_EXEC, kExecutableMemory, SECCOMP_RET_ALLOW);
  AllowUnlessAnyBit(p, __NR_pkey_mprotect, 2, PROT_EXEC, kExecutableMemory, SECCOMP_RET_ALLOW);
  for (long nr : {__NR_openat, __NR_memfd_create, __NR_seccomp}) {
    p.BeginRule(nr);
    p.Return(Trap(kNotAllowed));
    p.EndRule();
  }
  // The host's stdout and stderr (a kernel's printf goes there, as an NPU's goes to the host's
  // console), the socket (a kernel may still write it: the host checks every reply) and the
  // log relay.
  const std::vector<uint32_t> writable = {STDOUT_FILENO, STDERR_FILENO, static_cast<uint32_t>(proto::kSocketFd),
                                          static_cast<uint32_t>(kLogFd)};
  for (long nr : {__NR_write, __NR_writev, __NR_sendto, __NR_sendmsg}) AllowOnlyValues(p, nr, 0, writable, kDescriptor);
  // Reading the host's requests is the socket thread's alone; the dispatchers read the meter.
  for (long nr : {__NR_read, __NR_readv, __NR_pread64, __NR_recvfrom, __NR_recvmsg}) {
    AllowOnlyValues(p, nr, 0, {static_cast<uint32_t>(kMeterFd)}, kDescriptor);
  }
  p.Return(SECCOMP_RET_ALLOW);  // the process filter below decides the rest
  return Install(p);
}

const char *SyscallName(long nr) {
  switch (nr) {
// (X-macro lists laid out by hand: the formatter never settles on them.)
// clang-format off
#define NAME(call) \
  case __NR_##call: return #call;
    NAME(read) NAME(write) NAME(open) NAME(close) NAME(stat) NAME(fstat) NAME(lstat) NAME(poll) NAME(lseek)
    NAME(mmap) NAME(mprotect) NAME(munmap) NAME(brk) NAME(rt_sigaction) NAME(rt_sigprocmask) NAME(ioctl)
    NAME(pread64) NAME(pwrite64) NAME(readv) NAME(writev) NAME(access) NAME(pipe) NAME(select) NAME(mremap)
    NAME(msync) NAME(madvise) NAME(shmget) NAME(shmat) NAME(dup) NAME(dup2) NAME(nanosleep) NAME(getpid)
    NAME(sendfile) NAME(socket) NAME(connect) NAME(accept) NAME(sendto) NAME(recvfrom) NAME(sendmsg)
    NAME(recvmsg) NAME(bind) NAME(listen) NAME(socketpair) NAME(clone) NAME(fork) NAME(vfork) NAME(execve)
    NAME(exit) NAME(wait4) NAME(kill) NAME(uname) NAME(fcntl) NAME(flock) NAME(fsync) NAME(truncate)
    NAME(ftruncate) NAME(getdents) NAME(chdir) NAME(rename) NAME(mkdir) NAME(rmdir) NAME(creat) NAME(link)
    NAME(unlink) NAME(symlink) NAME(readlink) NAME(chmod) NAME(chown) NAME(umask) NAME(ptrace) NAME(getuid)
    NAME(setuid) NAME(setgid) NAME(getppid) NAME(setsid) NAME(setpgid) NAME(capset) NAME(personality)
    NAME(prctl) NAME(arch_prctl) NAME(setrlimit) NAME(chroot) NAME(mount) NAME(umount2) NAME(reboot)
    NAME(init_module) NAME(gettid) NAME(tkill) NAME(futex) NAME(getdents64) NAME(clock_gettime)
    NAME(clock_nanosleep) NAME(exit_group) NAME(tgkill) NAME(mbind) NAME(openat) NAME(mkdirat) NAME(unlinkat)
    NAME(renameat) NAME(linkat) NAME(symlinkat) NAME(fchmodat) NAME(unshare) NAME(splice) NAME(vmsplice)
    NAME(memfd_create) NAME(execveat) NAME(process_vm_readv) NAME(process_vm_writev) NAME(bpf) NAME(userfaultfd)
    NAME(pkey_mprotect) NAME(io_uring_setup) NAME(clone3) NAME(pidfd_open) NAME(pidfd_send_signal)
    NAME(openat2) NAME(seccomp) NAME(setns) NAME(prlimit64) NAME(perf_event_open) NAME(keyctl)
    NAME(name_to_handle_at) NAME(open_by_handle_at) NAME(getrandom) NAME(sched_setaffinity) NAME(mlock)
#undef NAME
        // clang-format on
        default : return nullptr;
  }
}

void DescribeTrap(const siginfo_t *info, const void *ucontext, char *out, size_t size) {
  const long nr = info->si_syscall;
  const char *name = SyscallName(nr);
  char number[32];
  if (name == nullptr) {
    std::snprintf(number, sizeof(number), "syscall %ld", nr);
    name = number;
  }
  long prot = 0;
  if (ucontext != nullptr) prot = static_cast<const ucontext_t *>(ucontext)->uc_mcontext.gregs[REG_RDX];
  const char *why = "";
  char detail[96] = "";
  switch (info->si_errno) {
    case kExecutableMemory:
      std::snprintf(detail, sizeof(detail), " with %s: no executable memory after start-up",
                    prot & PROT_WRITE ? "PROT_WRITE|PROT_EXEC" : "PROT_EXEC");
      why = detail;
      break;
    case kWritableExecutable:
      why = " with PROT_WRITE|PROT_EXEC: no writable and executable memory";
      break;
    case kNotAThread:
      why = " without CLONE_THREAD: a new process (fork)";
      break;
    case kDescriptor:
      why = " on a descriptor kernels may not use";
      break;
    case kOtherProcess:
      why = " to another process";
      break;
    case kOpenForWriting:
      why = " for writing";
      break;
    case kNewLimit:
      why = " to change a resource limit";
      break;
    default:
      break;
  }
  std::snprintf(out, size, "made forbidden system call %s (%ld)%s", name, nr, why);
}

uint64_t PrivateResidentBytes() {
  char text[160];
  const ssize_t n = pread(kMeterFd, text, sizeof(text) - 1, 0);
  if (n <= 0) return 0;
  text[n] = '\0';
  unsigned long long size = 0, resident = 0, shared = 0;
  if (std::sscanf(text, "%llu %llu %llu", &size, &resident, &shared) != 3 || shared > resident) return 0;
  return (resident - shared) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

}  // namespace asc_twin::rt::device
