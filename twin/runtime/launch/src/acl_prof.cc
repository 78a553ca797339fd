// acl/acl_prof.h on the twin: argument checks and one log line per call; nothing is collected.
#include "acl/acl_prof.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

struct aclprofConfig {
  uint64_t data_type_config;
  aclprofAicoreMetrics metrics;
};

namespace {

std::mutex g_mu;
bool g_inited = false;
int g_depth = 0;
uint32_t g_next_range = 1;

void Log(const char* fmt, const char* arg = "", unsigned long long value = 0) {
  const char* quiet = std::getenv("ASCEND_TWIN_PROF_QUIET");
  if (quiet != nullptr && std::strcmp(quiet, "1") == 0) return;
  std::fprintf(stderr, "[INFO] acl_prof: ");
  std::fprintf(stderr, fmt, arg, value);
  std::fprintf(stderr, " (CPU twin: nothing is collected)\n");
}

}  // namespace

extern "C" {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
  if (profilerResultPath == nullptr || length == 0 || std::strlen(profilerResultPath) != length) {
    return ACL_ERROR_INVALID_PARAM;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  g_inited = true;
  Log("aclprofInit(%s)%.0llu", profilerResultPath);
  return ACL_SUCCESS;
}

aclError aclprofFinalize() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_inited) return ACL_ERROR_INVALID_PARAM;
  g_inited = false;
  Log("aclprofFinalize%s%.0llu");
  return ACL_SUCCESS;
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents*, uint64_t dataTypeConfig) {
  if (deviceIdList == nullptr && deviceNums != 0) return nullptr;
  return new aclprofConfig{dataTypeConfig, aicoreMetrics};
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return ACL_ERROR_INVALID_PARAM;
  delete profilerConfig;
  return ACL_SUCCESS;
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return ACL_ERROR_INVALID_PARAM;
  Log("aclprofStart(dataTypeConfig=%s0x%llx)", "", static_cast<unsigned long long>(profilerConfig->data_type_config));
  return ACL_SUCCESS;
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
  if (profilerConfig == nullptr) return ACL_ERROR_INVALID_PARAM;
  Log("aclprofStop%s%.0llu");
  return ACL_SUCCESS;
}

uint64_t aclprofStr2Id(const char* message) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a: a stable id per string
  for (const char* p = message; p != nullptr && *p; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 1099511628211ull;
  return h;
}

void* aclprofCreateStamp() { return new char[1]; }
void aclprofDestroyStamp(void* stamp) { delete[] static_cast<char*>(stamp); }
aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t) {
  return stamp != nullptr && msg != nullptr ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
aclError aclprofMark(void* stamp) { return stamp != nullptr ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclprofPush(void* stamp) {
  if (stamp == nullptr) return ACL_ERROR_INVALID_PARAM;
  std::lock_guard<std::mutex> lock(g_mu);
  ++g_depth;
  return ACL_SUCCESS;
}
aclError aclprofPop() {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_depth == 0) return ACL_ERROR_INVALID_PARAM;
  --g_depth;
  return ACL_SUCCESS;
}
aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
  if (stamp == nullptr || rangeId == nullptr) return ACL_ERROR_INVALID_PARAM;
  std::lock_guard<std::mutex> lock(g_mu);
  *rangeId = g_next_range++;
  return ACL_SUCCESS;
}
aclError aclprofRangeStop(uint32_t) { return ACL_SUCCESS; }
aclError aclprofRangePushEx(void* stamp) { return aclprofPush(stamp); }
aclError aclprofRangePop() { return aclprofPop(); }

}  // extern "C"
