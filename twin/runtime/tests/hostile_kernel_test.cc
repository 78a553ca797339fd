// The hostile-kernel suite: kernels that attack the host rather than fault — SIGKILL the host,
// write its memory through /proc/<pid>/mem, execve a shell, fork a child that would outlive the
// host, create a host file, run code from writable+executable memory or from memory made
// executable later, take all memory, keep memory after a launch — each fails its launch with
// CANN's AI Core error code and a line naming the kernel and what it tried (host plog and device
// log), while the host lives on unharmed and the next launch computes right. Then forged
// replies on the device's socket (a kernel may write it): never a host crash, each a device
// fault with a one-line error, and the device works again after it.
#include <linux/futex.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "twin/runtime/device/protocol.h"
#include "twin/runtime/internal/device.h"
#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

bool Contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

class HostileKernels : public AclTest {
 protected:
  void SetUp() override {
    root_ = MakeTempDir("hostile_log");
    setenv("ASCEND_PROCESS_LOG_PATH", root_.c_str(), 1);
    unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    AclTest::SetUp();
    hostile_bytes_ = ReadFile(KernelPath("khostile"));
    good_bytes_ = ReadFile(KernelPath("k2201"));
    ACL_OK(aclrtBinaryLoadFromData(hostile_bytes_.data(), hostile_bytes_.size(), nullptr, &hostile_));
    ACL_OK(aclrtBinaryLoadFromData(good_bytes_.data(), good_bytes_.size(), nullptr, &good_));
    ACL_OK(aclrtBinaryGetFunction(good_, "vadd_f32", &vadd_));
    ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(hostile_), ACL_SUCCESS) << TakeErrMsg();
    EXPECT_EQ(aclrtBinaryUnLoad(good_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
    unsetenv("ASCEND_PROCESS_LOG_PATH");
  }

  // Launches hostile kernel `name` (block `bad` of `blocks` acts, with arg0/arg1); returns the
  // synchronize's code, the message in *message.
  aclError Run(const char *name, uint32_t blocks, uint32_t bad, uint64_t arg0, uint64_t arg1, std::string *message) {
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(hostile_, name, &func), ACL_SUCCESS) << TakeErrMsg();
    uint64_t args[3] = {bad, arg0, arg1};
    EXPECT_EQ(aclrtLaunchKernel(func, blocks, args, sizeof(args), stream_), ACL_SUCCESS) << TakeErrMsg();
    const aclError code = aclrtSynchronizeStream(stream_);
    *message = TakeErrMsg();
    return code;
  }

  // A line holding `part` in the host's plog and one in the device log (the device's relay
  // writes it on its own time: waited for, up to 5 s).
  void ExpectLogged(const std::string &part) {
    const std::string pid = std::to_string(getpid());
    bool in_plog = false, in_device_log = false;
    for (int i = 0; i < 500 && !(in_plog && in_device_log); ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      for (const std::string &line : LogLinesOf(root_ + "/debug/plog", "plog-" + pid + "_")) {
        in_plog = in_plog || (Contains(line, part) && Contains(line, "[ERROR] ASCENDCL"));
      }
      for (const std::string &line : LogLinesOf(root_ + "/debug/device-0", "device-" + pid + "_")) {
        in_device_log = in_device_log || (Contains(line, part) && Contains(line, "[ERROR] RUNTIME"));
      }
    }
    EXPECT_TRUE(in_plog) << "no plog line with: " << part;
    EXPECT_TRUE(in_device_log) << "no device log line with: " << part;
  }

  std::string root_;
  std::vector<uint8_t> hostile_bytes_, good_bytes_;
  aclrtBinHandle hostile_ = nullptr, good_ = nullptr;
  aclrtFuncHandle vadd_ = nullptr;
  aclrtStream stream_ = nullptr;
};

TEST_F(HostileKernels, EachAttackIsAnErrorCodeAndALogLineAndTheHostLivesOn) {
  // Host memory the /proc/<pid>/mem writer aims at, and a host file the file writer would create.
  std::vector<uint64_t> host(512, 0x1234567812345678ull);
  const std::string victim = root_ + "/created_by_a_kernel.txt";
  void *path_dev = nullptr;
  ACL_OK(aclrtMalloc(&path_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemcpy(path_dev, 4096, victim.c_str(), victim.size() + 1, ACL_MEMCPY_HOST_TO_DEVICE));
  const uint64_t self = static_cast<uint64_t>(getpid());

  struct Case {
    const char *kernel;
    uint32_t blocks;
    uint64_t arg0, arg1;
    const char *cause;
  };
  const Case cases[] = {
      {"hostile_kill_host", 4, self, 0, "made forbidden system call kill (62)"},
      {"hostile_write_host_memory", 2, self, reinterpret_cast<uint64_t>(host.data() + 3),
       "made forbidden system call openat (257)"},
      {"hostile_execve", 3, 0, 0, "made forbidden system call execve (59)"},
      {"hostile_fork", 2, 0, 0, "made forbidden system call clone (56) without CLONE_THREAD: a new process (fork)"},
      {"hostile_write_file", 1, reinterpret_cast<uint64_t>(path_dev), 0, "made forbidden system call openat (257)"},
      {"hostile_rwx_mmap", 2, 0, 0, "made forbidden system call mmap (9) with PROT_WRITE|PROT_EXEC"},
      {"hostile_mprotect_exec", 2, 0, 0,
       "made forbidden system call mprotect (10) with PROT_EXEC: no executable memory after start-up"},
      {"hostile_take_all_memory", 1, 0, 0, "MiB more than at its start"},
      {"hostile_keep_memory", 1, uint64_t{256} << 20, 0, "MiB more than at its start"},
      // More than RLIMIT_DATA allows: malloc answers NULL, and the kernel's store there faults.
      {"hostile_keep_memory", 1, uint64_t{2} << 30, 0, "SIGSEGV: invalid memory access at (nil)"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.kernel) + ": " + c.cause);
    const uint32_t bad = static_cast<uint32_t>(Rng()() % c.blocks);
    std::string message;
    EXPECT_EQ(Run(c.kernel, c.blocks, bad, c.arg0, c.arg1, &message), ACL_ERROR_RT_AICORE_EXCEPTION) << message;
    std::cout << "[hostile] " << message << std::endl;
    EXPECT_TRUE(Contains(message, std::string("kernel ") + c.kernel)) << message;
    EXPECT_TRUE(Contains(message, c.cause)) << message;
    EXPECT_TRUE(Contains(message, "the device was reset")) << message;
    ExpectLogged(c.cause);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << TakeErrMsg();  // reported once
    ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 1 + static_cast<uint32_t>(Rng()() % 8)));
    for (uint64_t word : host) ASSERT_EQ(word, 0x1234567812345678ull) << "host memory was written";
    struct stat info;
    EXPECT_NE(stat(victim.c_str(), &info), 0) << victim << " was created by a kernel";
  }
  ACL_OK(aclrtFree(path_dev));
}

// Heap use that ends with a thread arena's heap shrinking is no attack: glibc's one read of
// /proc/sys/vm/overcommit_memory then must have happened before the filters (it once killed
// asc-devkit's quant_group_matmul sample at random). Every block of many launches churns.
TEST_F(HostileKernels, HeapChurnInEveryBlockRunsUnderTheSandbox) {
  for (int launch = 0; launch < 20; ++launch) {
    std::string message;
    ASSERT_EQ(Run("benign_heap_churn", 48, 0, 512, 0, &message), ACL_SUCCESS) << message;
  }
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 3));
}

// Memory kept a little at a time, by launches too short to be metered one by one: the meter
// reads once their time adds up, so the leak ends within the limit all the same.
TEST_F(HostileKernels, MemoryKeptByManyShortLaunchesIsCaught) {
  const uint64_t step = uint64_t{4} << 20;
  int launches = 0;
  aclError code = ACL_SUCCESS;
  std::string message;
  while (code == ACL_SUCCESS && launches < 100) {  // 100 x 4 MiB: far past the 128 MiB allowed
    code = Run("hostile_keep_memory", 1, 0, step, 0, &message);
    ++launches;
  }
  std::cout << "[hostile] after " << launches << " launches of 4 MiB: " << message << std::endl;
  EXPECT_EQ(code, ACL_ERROR_RT_AICORE_EXCEPTION) << message;
  EXPECT_TRUE(Contains(message, "kernel hostile_keep_memory left the device process holding")) << message;
  EXPECT_LT(launches, 100);
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 5));
}

// The launch result in the control block is the device's word too: a status that is no ACL code,
// and a message without its terminating NUL, forged while the launch runs (from a host thread
// here, standing in for a kernel that found the block), are a device fault and a bounded line.
TEST_F(HostileKernels, ForgedLaunchResultIsADeviceFault) {
  ACL_OK(aclrtSetOpExecuteTimeOut(10));  // should the forgery miss, the watchdog ends the test
  proto::ControlBlock *control = Runtime::Get()->memory().arena()->control();
  ASSERT_NE(control, nullptr);
  void *flag = nullptr;
  ACL_OK(aclrtMalloc(&flag, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemset(flag, 64, 0, 64));
  struct Forgery {
    int32_t status;
    aclError expected;
    const char *says;
  };
  const Forgery forgeries[] = {
      {12345, ACL_ERROR_RT_AICORE_EXCEPTION, "the device process reported status 12345, which is no ACL error code"},
      {ACL_ERROR_RT_AICORE_EXCEPTION, ACL_ERROR_RT_AICORE_EXCEPTION, "AAAAAAAA"},  // unterminated message
  };
  for (const Forgery &f : forgeries) {
    SCOPED_TRACE(f.says);
    std::thread forger([&] {
      for (int i = 0; i < 5000; ++i) {
        for (proto::LaunchSlot &slot : control->slots) {
          const uint32_t seq = slot.submit_seq.load();
          if (seq == slot.done_seq.load() || slot.accepted_seq.load() != seq ||
              slot.phase.load() != proto::kPhaseBlocks) {
            continue;
          }
          slot.status = f.status;
          std::memset(slot.message, 'A', proto::kMessageBytes);
          slot.done_seq.store(seq);
          syscall(SYS_futex, reinterpret_cast<uint32_t *>(&slot.done_seq), FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0);
          return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::string message;
    const aclError code = Run("hostile_spin", 1, 0, reinterpret_cast<uint64_t>(flag), 0, &message);
    forger.join();
    EXPECT_EQ(code, f.expected) << message;
    EXPECT_TRUE(Contains(message, f.says)) << message;
    EXPECT_LE(message.size(), proto::kMessageBytes + 256) << "bounded by the slot's array";
    if (f.status != 12345) {
      // A believable status: the host believed it; the kernel still spins, so end it (the flag).
      const uint32_t one = 1;
      ACL_OK(aclrtMemcpy(flag, 64, &one, sizeof(one), ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 3));
    ACL_OK(aclrtMemset(flag, 64, 0, 64));
  }
  ACL_OK(aclrtFree(flag));
  ACL_OK(aclrtSetOpExecuteTimeOut(0));
}

// The reply a kernel forges: the probe's 4 GiB payload first, then random headers (fields drawn
// from edge values and guesses), random bytes, and truncated headers.
std::vector<uint8_t> Forgery(std::mt19937_64 &rng, int run) {
  proto::ReplyHeader header{};
  if (run == 0) {
    header = proto::ReplyHeader{0, 0, uint64_t{1} << 32, proto::kLoadBinary, 1};
  } else {
    const int32_t statuses[] = {0, ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_INTERNAL_ERROR, -1, 12345, INT_MIN};
    const uint32_t messages[] = {0, 5, proto::kMaxReplyMessageBytes, proto::kMaxReplyMessageBytes + 1, UINT32_MAX};
    const uint64_t payloads[] = {0, 8, 16, uint64_t{1} << 32, UINT64_MAX};
    header.status = statuses[rng() % 6];
    header.message_bytes = messages[rng() % 5];
    header.payload_bytes = payloads[rng() % 5];
    header.request = static_cast<uint32_t>(rng() % 6);
    header.sequence = static_cast<uint32_t>(rng() % 64);
  }
  std::vector<uint8_t> bytes(sizeof(header));
  std::memcpy(bytes.data(), &header, sizeof(header));
  switch (run == 0 ? 0 : rng() % 3) {
    case 0:
      break;
    case 1:  // random bytes instead
      bytes.resize(1 + rng() % 96);
      for (auto &b : bytes) b = static_cast<uint8_t>(rng());
      break;
    default:  // a header cut short; the real reply's bytes complete it
      bytes.resize(1 + rng() % (sizeof(header) - 1));
  }
  const size_t tail = rng() % 32;
  for (size_t i = 0; i < tail; ++i) bytes.push_back(static_cast<uint8_t>(rng()));
  return bytes;
}

// The probe's case: a kernel wrote a reply header announcing a 4 GiB payload; the host's next
// aclrtBinaryLoadFromData allocated it and aborted with std::bad_alloc. Now: a one-line device
// fault naming the bound, and the device works again.
TEST_F(HostileKernels, ForgedFourGiBReplyFailsTheNextLoadInsteadOfAbortingTheHost) {
  const proto::ReplyHeader forged{0, 0, uint64_t{1} << 32, proto::kLoadBinary, 0};
  void *forged_dev = nullptr;
  ACL_OK(aclrtMalloc(&forged_dev, sizeof(forged), ACL_MEM_MALLOC_HUGE_FIRST));
  ACL_OK(aclrtMemcpy(forged_dev, sizeof(forged), &forged, sizeof(forged), ACL_MEMCPY_HOST_TO_DEVICE));
  std::string message;
  ASSERT_EQ(Run("hostile_forge_reply", 1, 0, reinterpret_cast<uint64_t>(forged_dev), sizeof(forged), &message),
            ACL_SUCCESS)
      << message;
  aclrtBinHandle bin = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromData(good_bytes_.data(), good_bytes_.size(), nullptr, &bin),
            ACL_ERROR_RT_INTERNAL_ERROR);
  message = TakeErrMsg();
  EXPECT_TRUE(Contains(message,
                       "aclrtBinaryLoadFromData: the device process sent a malformed reply to a binary load (a payload "
                       "of 4294967296 bytes where "))
      << message;
  EXPECT_TRUE(Contains(message, "it was reset and restarts on the next request")) << message;
  // Loading works again on the restarted device, and so do launches.
  ACL_OK(aclrtBinaryLoadFromData(good_bytes_.data(), good_bytes_.size(), nullptr, &bin));
  ACL_OK(aclrtBinaryUnLoad(bin));
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 4));
  ACL_OK(aclrtFree(forged_dev));
}

TEST_F(HostileKernels, ForgedRepliesAreDeviceFaultsNeverAHostCrash) {
  const char *env = std::getenv("FORGE_RUNS");
  const int runs = env != nullptr ? std::atoi(env) : 60;
  void *forged_dev = nullptr;
  ACL_OK(aclrtMalloc(&forged_dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  int refused = 0;
  for (int run = 0; run < runs; ++run) {
    const std::vector<uint8_t> forged = Forgery(Rng(), run);
    SCOPED_TRACE("run " + std::to_string(run) + ", " + std::to_string(forged.size()) + " forged bytes");
    ACL_OK(aclrtMemcpy(forged_dev, 4096, forged.data(), forged.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    std::string message;
    ASSERT_EQ(Run("hostile_forge_reply", 1, 0, reinterpret_cast<uint64_t>(forged_dev), forged.size(), &message),
              ACL_SUCCESS)
        << message;
    // The next request reads the forgery first.
    aclrtBinHandle bin = nullptr;
    const aclError loaded = aclrtBinaryLoadFromData(good_bytes_.data(), good_bytes_.size(), nullptr, &bin);
    message = TakeErrMsg();
    if (loaded == ACL_SUCCESS) {
      aclrtFuncHandle func = nullptr;
      EXPECT_EQ(aclrtBinaryGetFunction(bin, "vadd_f32", &func), ACL_SUCCESS) << TakeErrMsg();
      EXPECT_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS) << TakeErrMsg();
    } else {
      ++refused;
      EXPECT_EQ(loaded, ACL_ERROR_RT_INTERNAL_ERROR) << message;
      EXPECT_TRUE(Contains(message, "aclrtBinaryLoadFromData: the device process")) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
      if (run == 0) {
        EXPECT_TRUE(Contains(message, "sent a malformed reply to a binary load")) << message;
      }
    }
    ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 1 + static_cast<uint32_t>(Rng()() % 8)));
  }
  std::cout << "[forge] " << runs << " forged replies, " << refused << " loads refused as device faults" << std::endl;
  EXPECT_GT(refused, runs / 2);
  ACL_OK(aclrtFree(forged_dev));
}

pid_t DevicePid() { return Runtime::Get()->CurrentContext().value()->device().process()->stats().pid; }

std::string NamespaceOf(pid_t pid, const char *kind) {
  char link[256] = {};
  const std::string path = "/proc/" + std::to_string(pid) + "/ns/" + kind;
  return readlink(path.c_str(), link, sizeof(link) - 1) > 0 ? link : "(" + path + " unreadable)";
}

// "Seccomp:\t2" and the like from /proc/<pid>/status.
std::string StatusField(pid_t pid, const std::string &field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) == 0) {
      std::string value = line.substr(field.size() + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      return value;
    }
  }
  return "(no " + field + ")";
}

// What the kernel says about the running device process: filtered, no privileges, its own
// namespaces (this machine allows them; where it does not, the next test's note applies).
TEST_F(HostileKernels, TheDeviceProcessIsSandboxed) {
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 2));
  const pid_t pid = DevicePid();
  ASSERT_GT(pid, 0);
  EXPECT_EQ(StatusField(pid, "Seccomp"), "2");  // SECCOMP_MODE_FILTER
  EXPECT_EQ(StatusField(pid, "NoNewPrivs"), "1");
  EXPECT_EQ(StatusField(pid, "CapEff"), "0000000000000000");
  EXPECT_EQ(StatusField(pid, "CapPrm"), "0000000000000000");
  EXPECT_EQ(StatusField(pid, "CapBnd"), "0000000000000000");
  for (const char *kind : {"user", "pid", "mnt", "net"}) {
    EXPECT_NE(NamespaceOf(pid, kind), NamespaceOf(getpid(), kind)) << kind;
  }
}

// Where namespaces are not to be had (ASCEND_TWIN_DEVICE_NAMESPACES=0 stands in for a kernel that
// refuses them), the device says so once in the log and is filtered all the same.
TEST_F(HostileKernels, WithoutNamespacesALogNoteAndTheSameFilter) {
  ASSERT_EQ(setenv("ASCEND_TWIN_DEVICE_NAMESPACES", "0", 1), 0);
  ASSERT_EQ(setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1), 0);  // the note is a warning
  std::string message;
  EXPECT_EQ(Run("hostile_execve", 1, 0, 0, 0, &message), ACL_ERROR_RT_AICORE_EXCEPTION) << message;
  EXPECT_TRUE(Contains(message, "made forbidden system call execve (59)")) << message;
  ASSERT_NO_FATAL_FAILURE(CheckVaddWorks(vadd_, stream_, 3));  // a device process started without them
  const pid_t pid = DevicePid();
  EXPECT_EQ(NamespaceOf(pid, "pid"), NamespaceOf(getpid(), "pid"));
  EXPECT_EQ(StatusField(pid, "Seccomp"), "2");
  int notes = 0;
  for (const std::string &line : LogLinesOf(root_ + "/debug/plog", "plog-" + std::to_string(getpid()) + "_")) {
    if (Contains(line, "[WARNING] RUNTIME") &&
        Contains(line, "no namespaces of its own (ASCEND_TWIN_DEVICE_NAMESPACES=0)")) {
      ++notes;
    }
  }
  EXPECT_EQ(notes, 1);
  unsetenv("ASCEND_TWIN_DEVICE_NAMESPACES");
  unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
}

// "R (running)" -> 'R'; 0 when the process is gone.
char ProcessState(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  return paren == std::string::npos || paren + 2 >= text.size() ? 0 : text[paren + 2];
}

// A host killed by SIGKILL takes its device process along (PR_SET_PDEATHSIG), so a kernel still
// running — or one that would linger — does not outlive it.
TEST(DeviceProcessLifetime, EndsWhenTheHostIsKilled) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t host = fork();
  ASSERT_GE(host, 0);
  if (host == 0) {  // the host: start a device process, say its pid, wait to be killed
    close(pipe_fds[0]);
    const std::vector<uint8_t> image = ReadFile(KernelPath("k2201"));
    aclrtBinHandle bin = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtBinaryLoadFromData(image.data(), image.size(), nullptr, &bin) != ACL_SUCCESS) {
      _exit(2);
    }
    const pid_t device = DevicePid();
    if (write(pipe_fds[1], &device, sizeof(device)) != sizeof(device)) _exit(3);
    for (;;) pause();
  }
  close(pipe_fds[1]);
  pid_t device = 0;
  ASSERT_EQ(read(pipe_fds[0], &device, sizeof(device)), static_cast<ssize_t>(sizeof(device)));
  close(pipe_fds[0]);
  ASSERT_GT(device, 0);
  EXPECT_NE(ProcessState(device), 0) << "the device process should run while its host does";
  ASSERT_EQ(kill(host, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(host, &status, 0), host);
  char state = ProcessState(device);
  for (int i = 0; i < 500 && state != 0 && state != 'Z' && state != 'X'; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    state = ProcessState(device);
  }
  EXPECT_TRUE(state == 0 || state == 'Z' || state == 'X') << "device process " << device << " is in state " << state;
}

}  // namespace
}  // namespace asc_twin::rt::testing
