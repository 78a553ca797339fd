// What names a process's log files: its pid and its start time. The start time (not the time of
// the first line) is what every library of the process, and ascend_log.py, agree on without
// sharing any state.
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "twin/common/log/src/log_internal.h"

namespace ascend_twin::log {
namespace internal {
namespace {

std::string ReadFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Seconds since the epoch at boot (/proc/stat "btime").
long long BootTime() {
  std::istringstream stat(ReadFile("/proc/stat"));
  std::string key;
  long long value = 0;
  while (stat >> key) {
    if (key == "btime" && (stat >> value)) return value;
  }
  return 0;
}

std::string StampOfMilliseconds(long long epoch_ms) {
  const time_t seconds = static_cast<time_t>(epoch_ms / 1000);
  struct tm local;
  localtime_r(&seconds, &local);
  char text[32];
  std::snprintf(text, sizeof(text), "%04d%02d%02d%02d%02d%02d%03lld", local.tm_year + 1900, local.tm_mon + 1,
                local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, epoch_ms % 1000);
  return text;
}

struct DeviceRole {
  bool set = false;
  int device_id = 0;
  pid_t host_pid = 0;
  std::string host_stamp;
};

std::mutex g_mutex;
ProcessInfo g_self;  // valid while g_self.pid == getpid()
DeviceRole g_device;

}  // namespace

std::string StartStampOf(pid_t pid) {
  // Field 22 of /proc/<pid>/stat (clock ticks after boot); the name (field 2) may hold spaces and
  // parentheses, so fields are counted after its last ')'.
  const std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return "";
  std::istringstream rest(stat.substr(close + 1));
  std::vector<std::string> fields{std::istream_iterator<std::string>(rest), std::istream_iterator<std::string>()};
  if (fields.size() < 20) return "";
  const long long ticks = std::strtoll(fields[19].c_str(), nullptr, 10);  // fields[0] is field 3
  const long long per_second = sysconf(_SC_CLK_TCK);
  if (per_second <= 0) return "";
  return StampOfMilliseconds(BootTime() * 1000 + ticks * 1000 / per_second);
}

const ProcessInfo &Self() {
  std::lock_guard<std::mutex> lock(g_mutex);
  const pid_t pid = getpid();
  if (g_self.pid != pid) {
    g_self.pid = pid;
    std::string name = ReadFile("/proc/self/comm");
    while (!name.empty() && (name.back() == '\n' || name.back() == '\r')) name.pop_back();
    g_self.name = name.empty() ? "unknown" : name;
    g_self.stamp = StartStampOf(pid);
    if (g_self.stamp.empty()) g_self.stamp = StampOfMilliseconds(static_cast<long long>(time(nullptr)) * 1000);
  }
  return g_self;
}

long ThreadId() { return static_cast<long>(syscall(SYS_gettid)); }

std::string DebugFileRelative() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_device.set) {
      return "debug/device-" + std::to_string(g_device.device_id) + "/device-" + std::to_string(g_device.host_pid) +
             "_" + g_device.host_stamp + ".log";
    }
  }
  return "debug/plog/" + PlogFileName();
}

std::string RunFileRelative() {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_device.set) {
      return "run/device-" + std::to_string(g_device.device_id) + "/device-" + std::to_string(g_device.host_pid) + "_" +
             g_device.host_stamp + ".log";
    }
  }
  return "run/plog/" + PlogFileName();
}

}  // namespace internal

std::string PlogFileName() {
  const internal::ProcessInfo &self = internal::Self();
  return "plog-" + std::to_string(self.pid) + "_" + self.stamp + ".log";
}

void SetDeviceProcess(int device_id, int host_pid) {
  std::string stamp = internal::StartStampOf(host_pid);
  if (stamp.empty()) stamp = internal::Self().stamp;
  std::lock_guard<std::mutex> lock(internal::g_mutex);
  internal::g_device.set = true;
  internal::g_device.device_id = device_id;
  internal::g_device.host_pid = host_pid;
  internal::g_device.host_stamp = stamp;
}

}  // namespace ascend_twin::log
