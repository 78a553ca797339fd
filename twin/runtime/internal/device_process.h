// The host side of a twin device: device code (kernel images, blocks) runs in a child process,
// the device process, so that a faulting kernel cannot take down or corrupt the host. GM is
// shared (gm_arena.h); binaries are sent over a socket and validated and mapped there only;
// launches go through the shared control block with futex wake-ups (device/protocol.h).
//
// Any death of the device process while it runs a launch (a signal, abort, exit, stack
// overflow, wild access) or an overrun of the operator execution timeout (the watchdog: the
// process is killed) fails that launch with ACL_ERROR_RT_AICORE_EXCEPTION /
// ACL_ERROR_RT_AICORE_TIMEOUT and "kernel K block B: cause"; the next request starts a new
// device process, which maps the same GM and reloads every live binary, so the host's
// pointers, data and handles stay valid.
#ifndef TWIN_RUNTIME_INTERNAL_DEVICE_PROCESS_H_
#define TWIN_RUNTIME_INTERNAL_DEVICE_PROCESS_H_

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "twin/runtime/device/protocol.h"
#include "twin/runtime/internal/gm_arena.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

struct Kernel;
struct LaunchRequest;
struct LaunchState;
struct LoadedImage;
class WorkerPool;
using LaunchPublisher = std::function<void(const std::shared_ptr<LaunchState> &)>;

struct DeviceKernelInfo {
  uint32_t params = 0;
  uint32_t args_size = 0;
};

class DeviceProcess {
 public:
  DeviceProcess(std::shared_ptr<GmArena> arena, const SocSpec &soc);
  ~DeviceProcess();  // ends the device process
  DeviceProcess(const DeviceProcess &) = delete;
  DeviceProcess &operator=(const DeviceProcess &) = delete;

  const SocSpec &soc() const { return soc_; }

  // Validates and maps a device image in the device process; on success the kernels' infos in
  // meta order. Errors: ACL_ERROR_INVALID_PARAM (refused image), ACL_ERROR_RT_INTERNAL_ERROR.
  StatusOr<std::vector<DeviceKernelInfo>> LoadBinary(const std::vector<uint8_t> &image,
                                                     const std::vector<std::string> &kernels, uint64_t *id);
  void UnloadBinary(uint64_t id);
  // MemoryTable::HostMapper.
  Status MapHost(void *addr, uint64_t size, uint64_t offset, bool map);
  // Runs a launch to completion in the device process. Up to proto::kLaunchSlots launches (from
  // different host threads) are in flight at once; more wait for a free slot.
  Status Launch(const LaunchRequest &request);
  // Device isolation off (DeviceIsolationEnabled()): images are mapped in this process and
  // launches run here, on `pool` (the runtime before the device process, for measurements).
  bool in_process() const { return in_process_; }
  Status LaunchInProcess(const LaunchRequest &request, WorkerPool &pool, const LaunchPublisher &publish);

  // The device was reset (aclrtResetDevice) or the runtime finalized: the process ends; later
  // loads and launches through this object fail with ACL_ERROR_RT_INVALID_HANDLE.
  void Retire();

  // Operator execution timeout (aclrtSetOpExecuteTimeOut), process-wide, in milliseconds.
  static void SetExecuteTimeoutMs(uint64_t ms);
  static uint64_t ExecuteTimeoutMs();
  // How many device processes this one has started (tests, benchmarks).
  uint64_t starts() const { return starts_.load(); }
  // For benchmarks: the running device process (-1: none, or in-process mode) and its
  // dispatcher's polling time and sleeps so far (README "Launch latency").
  struct Stats {
    pid_t pid = -1;
    uint64_t dispatcher_spin_ns = 0;
    uint64_t dispatcher_sleeps = 0;
    uint64_t inline_launches = 0;  // launches the device ran without fan-out (small-launch path)
  };
  Stats stats();

 private:
  struct Binary {
    std::vector<uint8_t> image;
    std::vector<std::string> kernels;
  };
  static std::string DescribeExit(int wait_status);  // "killed by SIGSEGV", "exited with status 3"
  Status EnsureRunningLocked();
  Status StartLocked();
  void StopLocked();  // kills and reaps the device process, if any
  void KillLocked();  // the same at once (SIGKILL, no grace period): a device that broke the protocol
  // One request/reply on the socket; a dead or hung device process fails it (and is stopped), so
  // does a malformed reply (the device process is reset: DeviceFaultLocked). A successful reply
  // carries exactly `success_payload_bytes`.
  Status CallLocked(uint32_t type, const std::vector<uint8_t> &payload, std::vector<uint8_t> *reply, int timeout_ms,
                    uint64_t success_payload_bytes = 0);
  static const char *RequestName(uint32_t type);  // "a binary load"
  // "" if `answer` may be the reply to request `type` #`sequence`, else what is wrong with it.
  static std::string MalformedReply(const proto::ReplyHeader &answer, uint32_t type, uint32_t sequence,
                                    uint64_t success_payload_bytes);
  // The device process broke the protocol: it is killed (restarted on the next request), and
  // the request fails with ACL_ERROR_RT_INTERNAL_ERROR naming `request` and `why`.
  Status DeviceFaultLocked(const char *request, const std::string &why);
  // The device's fault report, bounded by its array ("" if none was written).
  std::string CrashCause() const;
  Status LoadLocked(uint64_t id, const Binary &binary, std::vector<DeviceKernelInfo> *infos);
  // Waits for launch `seq` in slot `index` of device process `generation`; the watchdog.
  Status AwaitLaunch(const Kernel &kernel, uint32_t index, uint32_t seq, uint64_t generation);
  // The end of device process `generation`, caused by the launch in `slot` (kLaunchSlots: none
  // known), for every launch that was in flight on it; and what one of them reports.
  void RecordGenerationFailureLocked(uint64_t generation, uint32_t slot, const Status &failure);
  Status GenerationFailureFor(const Kernel &kernel, uint32_t index) const;
  // After the device process died or was killed during a launch (slot `index`): its error.
  Status DeathStatusLocked(const std::string &kernel, uint32_t index, const char *how, const int *reaped_status);

  std::shared_ptr<GmArena> arena_;
  const SocSpec &soc_;
  std::mutex mutex_;  // guards everything below; held for a whole request, or to start a launch
  std::condition_variable slot_free_;
  uint32_t busy_slots_ = 0;         // bit i: launch slot i has a launch in flight
  uint64_t generation_ = 0;         // bumped by every device process start
  uint64_t failed_generation_ = 0;  // the generation whose end generation_failure_ describes
  uint32_t failure_slot_ = 0;       // the launch slot that caused it (its launch reports it as is)
  Status generation_failure_;
  pid_t pid_ = -1;
  int socket_ = -1;
  uint32_t sequence_ = 0;  // requests sent to the device processes (the replies echo it)
  int exe_fd_ = -1;
  uint64_t next_id_ = 1;
  bool retired_ = false;
  std::map<uint64_t, Binary> binaries_;  // live binaries, reloaded by a new device process
  struct HostRange {
    uint64_t size;
    uint64_t offset;
  };
  std::map<uintptr_t, HostRange> host_ranges_;  // live registrations, remapped likewise
  std::atomic<uint64_t> starts_{0};
  const bool in_process_;
  std::map<uint64_t, std::shared_ptr<LoadedImage>> local_images_;  // in_process_ only
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_DEVICE_PROCESS_H_
