// DeviceProcess: starting, reaching and ending the device process, and the socket requests
// (load/unload binaries, map host ranges). Launches are in device_launch.cc.
#include "twin/runtime/internal/device_process.h"

#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "twin/runtime/device/image_loader.h"
#include "twin/runtime/device/protocol.h"
#include "twin/runtime/internal/env_knob.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/src/device_spawn.h"

// The device executable (//twin/runtime:asc_twin_device), embedded by the build.
extern "C" const unsigned char asc_twin_device_image_begin[];
extern "C" const unsigned char asc_twin_device_image_end[];

namespace asc_twin::rt {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kStartTimeoutMs = 10000;
constexpr int kRequestTimeoutMs = 30000;  // a load that hangs (e.g. in the loader) is killed
// How long the device's dispatcher polls for the next launch before it sleeps (README "Launch
// latency"): long enough to cover a model run every millisecond or so.
constexpr uint32_t kDefaultDeviceSpinUs = 2000;
constexpr uint32_t kMaxDeviceSpinUs = 1000 * 1000;

uint32_t DeviceSpinBudgetUs() {
  return static_cast<uint32_t>(EnvUnsigned("ASCEND_TWIN_DEVICE_SPIN_US", kDefaultDeviceSpinUs, kMaxDeviceSpinUs));
}

Status Internal(const std::string &what) { return Status(ACL_ERROR_RT_INTERNAL_ERROR, "device process: " + what); }

bool WriteAll(int fd, const void *data, size_t length) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  while (length > 0) {
    const ssize_t n = send(fd, bytes, length, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    length -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly `length` bytes before `deadline`; false on EOF, error or timeout (*timed_out).
bool ReadAll(int fd, void *data, size_t length, Clock::time_point deadline, bool *timed_out) {
  auto *bytes = static_cast<uint8_t *>(data);
  while (length > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      *timed_out = true;
      return false;
    }
    struct pollfd pfd {
      fd, POLLIN, 0
    };
    const int ready = poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = recv(fd, bytes, length, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    length -= static_cast<size_t>(n);
  }
  return true;
}

// The embedded device executable in a sealed memfd, made once per host process.
int DeviceExecutableFd() {
  static int fd = [] {
    const int made = memfd_create("asc_twin_device", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (made < 0) return -1;
    const size_t size = static_cast<size_t>(asc_twin_device_image_end - asc_twin_device_image_begin);
    size_t done = 0;
    while (done < size) {
      const ssize_t n = write(made, asc_twin_device_image_begin + done, size - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(made);
        return -1;
      }
      done += static_cast<size_t>(n);
    }
    fcntl(made, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
    return made;
  }();
  return fd;
}

}  // namespace

DeviceProcess::DeviceProcess(std::shared_ptr<GmArena> arena, const SocSpec &soc)
    : arena_(std::move(arena)), soc_(soc), in_process_(!DeviceIsolationEnabled()) {}

DeviceProcess::~DeviceProcess() {
  std::lock_guard<std::mutex> lock(mutex_);
  StopLocked();
}

std::string DeviceProcess::DescribeExit(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    const char *name = sigabbrev_np(sig);
    return std::string("killed by SIG") + (name != nullptr ? name : std::to_string(sig).c_str());
  }
  if (WIFEXITED(wait_status)) return "exited with status " + std::to_string(WEXITSTATUS(wait_status));
  return "ended";
}

void DeviceProcess::StopLocked() {
  if (socket_ >= 0) {
    close(socket_);  // the device process exits when its socket reaches EOF
    socket_ = -1;
  }
  if (pid_ <= 0) return;
  int status = 0;
  for (int i = 0; i < 200; ++i) {  // up to ~100 ms for a clean exit
    const pid_t got = waitpid(pid_, &status, WNOHANG);
    if (got == pid_ || (got < 0 && errno == ECHILD)) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  kill(pid_, SIGKILL);
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

namespace {
// control.device_alive for a new device process (protocol.h): robust and process-shared.
void InitAliveMutex(pthread_mutex_t *mutex) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
  pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
  pthread_mutex_init(mutex, &attr);
  pthread_mutexattr_destroy(&attr);
}
}  // namespace

Status DeviceProcess::StartLocked() {
  const int exe = DeviceExecutableFd();
  if (exe < 0) return Internal(std::string("cannot stage the device executable: ") + strerror(errno));
  proto::ControlBlock &control = *arena_->control();
  const uint32_t spin_budget_us = DeviceSpinBudgetUs();
  for (proto::LaunchSlot &slot : control.slots) {
    slot.submit_seq.store(0);
    slot.done_seq.store(0);
    slot.device_waiting.store(0);
    slot.host_waiting.store(0);
    slot.spin_budget_us = spin_budget_us;
    slot.device_inline_launches.store(0);
    slot.accepted_seq.store(0);
    slot.phase.store(proto::kPhaseIdle);
  }
  control.crash_written.store(0);
  control.crash_slot = proto::kLaunchSlots;
  InitAliveMutex(&control.device_alive);
  control.crash_cause[0] = '\0';
  for (auto &slot : control.running_block) slot.mark.store(proto::kNoBlock);

  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    return Internal(std::string("socketpair: ") + strerror(errno));
  }
  // Fixed descriptor numbers in the child (protocol.h).
  const int sources[4] = {arena_->gm_fd(), arena_->control_fd(), pair[1], exe};
  char base[32], size[32], arch[16], ub[32], host[16];
  std::snprintf(base, sizeof(base), "%llx", static_cast<unsigned long long>(arena_->base()));
  std::snprintf(size, sizeof(size), "%llx", static_cast<unsigned long long>(arena_->size()));
  std::snprintf(arch, sizeof(arch), "%u", soc_.npu_arch);
  std::snprintf(ub, sizeof(ub), "%llu", static_cast<unsigned long long>(soc_.ub_size));
  std::snprintf(host, sizeof(host), "%d", static_cast<int>(getpid()));
  char name[] = "asc_twin_device";
  char *argv[] = {name, base, size, const_cast<char *>(soc_.soc_version), arch, ub, host, nullptr};
  std::string spawn_error;
  const pid_t pid = SpawnDevice(sources, argv, &spawn_error);
  close(pair[1]);
  if (pid < 0) {
    close(pair[0]);
    return Internal("cannot start: " + spawn_error);
  }
  pid_ = pid;
  socket_ = pair[0];
  starts_.fetch_add(1);
  ++generation_;
  proto::ReplyHeader ready{};
  bool timed_out = false;
  if (!ReadAll(socket_, &ready, sizeof(ready), Clock::now() + std::chrono::milliseconds(kStartTimeoutMs), &timed_out)) {
    StopLocked();
    return Internal(timed_out ? "did not report ready" : "ended before reporting ready");
  }
  if (ready.message_bytes > proto::kMaxReplyMessageBytes || ready.payload_bytes != 0 ||
      !proto::IsReplyStatus(ready.status)) {
    StopLocked();
    return Internal("sent a malformed ready report");
  }
  std::string message(ready.message_bytes, '\0');
  if (ready.message_bytes > 0 && !ReadAll(socket_, message.data(), message.size(),
                                          Clock::now() + std::chrono::milliseconds(kStartTimeoutMs), &timed_out)) {
    StopLocked();
    return Internal("ended while reporting");
  }
  if (ready.status != ACL_SUCCESS) {
    StopLocked();
    return Internal(message);
  }
  return Status::Ok();
}

DeviceProcess::Stats DeviceProcess::stats() {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats stats;
  stats.pid = pid_;
  if (!in_process_) {
    for (const proto::LaunchSlot &slot : arena_->control()->slots) {
      stats.dispatcher_spin_ns += slot.device_spin_ns.load(std::memory_order_relaxed);
      stats.dispatcher_sleeps += slot.device_sleeps.load(std::memory_order_relaxed);
      // a process-wide count each slot copies after its launches: the largest is the latest
      stats.inline_launches =
          std::max<uint64_t>(stats.inline_launches, slot.device_inline_launches.load(std::memory_order_relaxed));
    }
  }
  return stats;
}

void DeviceProcess::Retire() {
  std::lock_guard<std::mutex> lock(mutex_);
  retired_ = true;
  StopLocked();
}

Status DeviceProcess::EnsureRunningLocked() {
  if (retired_) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE,
                  "the device this was loaded on has been reset (aclrtResetDevice) or ACL finalized; load it again");
  }
  if (pid_ > 0) {
    int status = 0;
    pid_t got = 0;
    const int held = pthread_mutex_trylock(&arena_->control()->device_alive);
    if (held == EBUSY) return Status::Ok();  // its main thread lives: no waitpid per launch
    if (held == EOWNERDEAD) {                // that thread ended, so the process is ending: reap it
      pthread_mutex_consistent(&arena_->control()->device_alive);
      pthread_mutex_unlock(&arena_->control()->device_alive);
      while ((got = waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
      }
    } else {  // not held (never expected after "ready"): ask the kernel as before
      if (held == 0) pthread_mutex_unlock(&arena_->control()->device_alive);
      got = waitpid(pid_, &status, WNOHANG);
      if (got == 0) return Status::Ok();
    }
    pid_ = -1;  // died between requests (or reaped by someone else): start another
    if (busy_slots_ != 0 && failed_generation_ != generation_) {
      // Launches of the dead process are in flight: keep its report for their waiters.
      const proto::ControlBlock &control = *arena_->control();
      const bool reported = control.crash_written.load() == 1;
      RecordGenerationFailureLocked(generation_, reported ? control.crash_slot : proto::kLaunchSlots,
                                    Status(ACL_ERROR_RT_AICORE_EXCEPTION,
                                           (reported ? CrashCause() : "the device process " + DescribeExit(status)) +
                                               "; the device was reset and restarts on the next launch"));
    }
    StopLocked();
  }
  Status started = StartLocked();
  if (!started.ok()) return started;
  // A new device: the same GM (already mapped), every live binary and registration again.
  for (const auto &range : host_ranges_) {
    std::vector<uint8_t> payload(24);
    const uint64_t fields[3] = {range.first, range.second.size, range.second.offset};
    std::memcpy(payload.data(), fields, 24);
    std::vector<uint8_t> reply;
    Status mapped = CallLocked(proto::kMapHost, payload, &reply, kRequestTimeoutMs);
    if (!mapped.ok()) return mapped;
  }
  for (const auto &binary : binaries_) {
    std::vector<DeviceKernelInfo> infos;
    Status loaded = LoadLocked(binary.first, binary.second, &infos);
    if (!loaded.ok()) return loaded;
  }
  return Status::Ok();
}

Status DeviceProcess::CallLocked(uint32_t type, const std::vector<uint8_t> &payload, std::vector<uint8_t> *reply,
                                 int timeout_ms, uint64_t success_payload_bytes) {
  const uint32_t sequence = ++sequence_;
  proto::RequestHeader header{type, sequence, payload.size()};
  if (!WriteAll(socket_, &header, sizeof(header)) || !WriteAll(socket_, payload.data(), payload.size())) {
    StopLocked();
    return Internal("ended before taking a request");
  }
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  proto::ReplyHeader answer{};
  bool timed_out = false;
  std::string message;
  bool ok = ReadAll(socket_, &answer, sizeof(answer), deadline, &timed_out);
  if (ok) {
    // Every field against the request, every size against its bound, before any allocation.
    const std::string malformed = MalformedReply(answer, type, sequence, success_payload_bytes);
    if (!malformed.empty()) return DeviceFaultLocked(RequestName(type), malformed);
    message.resize(answer.message_bytes);
    reply->resize(answer.payload_bytes);
    ok = ReadAll(socket_, message.data(), message.size(), deadline, &timed_out) &&
         ReadAll(socket_, reply->data(), reply->size(), deadline, &timed_out);
    // One request, one reply: bytes beyond it were not sent by the device's loop.
    uint8_t extra = 0;
    if (ok && recv(socket_, &extra, 1, MSG_PEEK | MSG_DONTWAIT) > 0) {
      return DeviceFaultLocked(RequestName(type), "more bytes than one reply");
    }
  }
  if (!ok) {
    const pid_t pid = pid_;
    int status = 0;
    if (timed_out) kill(pid, SIGKILL);
    if (socket_ >= 0) close(socket_);
    socket_ = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    std::string cause = CrashCause().empty() ? DescribeExit(status) : CrashCause();
    return Status(ACL_ERROR_RT_INTERNAL_ERROR,
                  std::string("the device process ") +
                      (timed_out ? "did not answer within " + std::to_string(timeout_ms) + " ms and was killed"
                                 : "died: " + cause) +
                      "; it restarts on the next request");
  }
  return Status(answer.status, message);
}

const char *DeviceProcess::RequestName(uint32_t type) {
  switch (type) {
    case proto::kLoadBinary:
      return "a binary load";
    case proto::kUnloadBinary:
      return "a binary unload";
    case proto::kMapHost:
      return "a host-memory mapping";
    case proto::kUnmapHost:
      return "a host-memory unmapping";
    default:
      return "a request";
  }
}

std::string DeviceProcess::MalformedReply(const proto::ReplyHeader &answer, uint32_t type, uint32_t sequence,
                                          uint64_t success_payload_bytes) {
  // Sizes first: they are what a trusting reader would allocate.
  if (answer.message_bytes > proto::kMaxReplyMessageBytes) {
    return "a message of " + std::to_string(answer.message_bytes) + " bytes (at most " +
           std::to_string(proto::kMaxReplyMessageBytes) + ")";
  }
  const uint64_t expected = answer.status == ACL_SUCCESS ? success_payload_bytes : 0;
  if (answer.payload_bytes != expected) {
    return "a payload of " + std::to_string(answer.payload_bytes) + " bytes where " + std::to_string(expected) +
           " were due";
  }
  if (!proto::IsReplyStatus(answer.status)) return "status " + std::to_string(answer.status) + " is no ACL error code";
  if (answer.request != type || answer.sequence != sequence) {
    return "it answers request " + std::to_string(answer.request) + " #" + std::to_string(answer.sequence) +
           ", not request " + std::to_string(type) + " #" + std::to_string(sequence);
  }
  return "";
}

void DeviceProcess::KillLocked() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
}

Status DeviceProcess::DeviceFaultLocked(const char *request, const std::string &why) {
  KillLocked();
  return Status(ACL_ERROR_RT_INTERNAL_ERROR, std::string("the device process sent a malformed reply to ") + request +
                                                 " (" + why + "); it was reset and restarts on the next request");
}

std::string DeviceProcess::CrashCause() const {
  const proto::ControlBlock &control = *arena_->control();
  if (control.crash_written.load() == 0) return "";
  // Written by the device: bounded by its array whatever it holds.
  return std::string(control.crash_cause, strnlen(control.crash_cause, proto::kMessageBytes));
}

Status DeviceProcess::LoadLocked(uint64_t id, const Binary &binary, std::vector<DeviceKernelInfo> *infos) {
  std::vector<uint8_t> payload(8 + binary.image.size());
  std::memcpy(payload.data(), &id, 8);
  std::memcpy(payload.data() + 8, binary.image.data(), binary.image.size());
  std::vector<uint8_t> reply;
  Status loaded = CallLocked(proto::kLoadBinary, payload, &reply, kRequestTimeoutMs,
                             binary.kernels.size() * proto::kKernelInfoBytes);
  if (!loaded.ok()) return loaded;
  infos->resize(binary.kernels.size());
  for (size_t i = 0; i < infos->size(); ++i) {
    DeviceKernelInfo &info = (*infos)[i];
    std::memcpy(&info.params, reply.data() + 8 * i, 4);
    std::memcpy(&info.args_size, reply.data() + 8 * i + 4, 4);
    // What the device's loader checked (image_loader.cc), checked again: launches rely on it.
    if (info.args_size > proto::kMaxArgBytes || uint64_t{info.params} * 8 > info.args_size) {
      return DeviceFaultLocked(RequestName(proto::kLoadBinary), "kernel " + binary.kernels[i] + " with " +
                                                                    std::to_string(info.params) + " parameters in " +
                                                                    std::to_string(info.args_size) + " argument bytes");
    }
  }
  return Status::Ok();
}

StatusOr<std::vector<DeviceKernelInfo>> DeviceProcess::LoadBinary(const std::vector<uint8_t> &image,
                                                                  const std::vector<std::string> &kernels,
                                                                  uint64_t *id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_process_) {
    StatusOr<std::shared_ptr<LoadedImage>> loaded = LoadImage(image.data(), image.size());
    if (!loaded.ok()) return loaded.status();
    std::vector<DeviceKernelInfo> infos;
    for (const Kernel &kernel : loaded.value()->kernels)
      infos.push_back(DeviceKernelInfo{kernel.params, kernel.args_size});
    *id = next_id_++;
    local_images_[*id] = loaded.value();
    return infos;
  }
  Status running = EnsureRunningLocked();
  if (!running.ok()) return running;
  Binary binary{image, kernels};
  const uint64_t new_id = next_id_++;
  std::vector<DeviceKernelInfo> infos;
  Status loaded = LoadLocked(new_id, binary, &infos);
  if (!loaded.ok()) return loaded;
  binaries_.emplace(new_id, std::move(binary));
  *id = new_id;
  return infos;
}

void DeviceProcess::UnloadBinary(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  local_images_.erase(id);
  if (binaries_.erase(id) == 0 || pid_ <= 0) return;
  std::vector<uint8_t> payload(8), reply;
  std::memcpy(payload.data(), &id, 8);
  CallLocked(proto::kUnloadBinary, payload, &reply, kRequestTimeoutMs);
}

Status DeviceProcess::MapHost(void *addr, uint64_t size, uint64_t offset, bool map) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (in_process_) return Status::Ok();
  const auto key = reinterpret_cast<uintptr_t>(addr);
  if (!map) {
    host_ranges_.erase(key);
    if (pid_ <= 0) return Status::Ok();
    std::vector<uint8_t> payload(16), reply;
    const uint64_t fields[2] = {key, size};
    std::memcpy(payload.data(), fields, 16);
    return CallLocked(proto::kUnmapHost, payload, &reply, kRequestTimeoutMs);
  }
  if (pid_ > 0) {
    std::vector<uint8_t> payload(24), reply;
    const uint64_t fields[3] = {key, size, offset};
    std::memcpy(payload.data(), fields, 24);
    Status mapped = CallLocked(proto::kMapHost, payload, &reply, kRequestTimeoutMs);
    if (!mapped.ok()) return mapped;
  }
  host_ranges_[key] = HostRange{size, offset};
  return Status::Ok();
}

}  // namespace asc_twin::rt
