// aclrtc entry points: argument checks with CANN's codes, a registry of live programs (so a stale
// or foreign handle is ACL_ERROR_RTC_INVALID_PROG, never a crash), and the compile job. Every
// failure also writes one [ERROR] line to CANN's application log.
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "acl/acl_rt_compile.h"
#include "twin/common/log/log.h"
#include "twin/runtime/rtc/src/compile_job.h"

namespace {

using asc_twin::rtc::SourceFile;

struct Program {
  SourceFile source;
  std::vector<SourceFile> headers;
  std::string log;           // of the last compile
  std::vector<char> binary;  // empty until a compile succeeded
};

std::mutex g_mutex;
std::set<Program *> g_programs;  // live handles

aclError Fail(aclError code, const char *api, const std::string &message) {
  ascend_twin::log::Writef(ascend_twin::log::Level::kError, ascend_twin::log::kAscendCl, __FILE__, __LINE__,
                           "%s: %s (error %d)", api, message.c_str(), code);
  return code;
}

// The live program behind `prog` (g_mutex held by the caller), or nullptr.
Program *Find(aclrtcProg prog) {
  auto it = g_programs.find(static_cast<Program *>(prog));
  return it == g_programs.end() ? nullptr : *it;
}

aclError InvalidProg(const char *api, aclrtcProg prog) {
  return Fail(ACL_ERROR_RTC_INVALID_PROG, api,
              prog == nullptr ? std::string("prog is null") : std::string("prog is not a live aclrtcProg"));
}

// The file name the program is compiled as: `name` without directories ("" as CANN's default).
std::string ProgramFileName(const char *name) {
  std::string file = *name == '\0' ? "default_program" : name;
  const size_t slash = file.rfind('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  if (file.empty() || file == "." || file == "..") file = "default_program";
  return file;
}

// Options that would change what the compile produces; the job decides those.
bool ReservedOption(const std::string &option) {
  return option == "-c" || option == "-o" || option.rfind("-o", 0) == 0 || option == "-shared" || option == "-lib" ||
         option == "-dc" || option == "-E" || option == "-S";
}

// Asking for the binary of a program that has none yet.
aclError NoBinary(const char *api, const Program &program) {
  return Fail(ACL_ERROR_RTC_INVALID_PROG, api,
              "program '" + program.source.name + "' has no device binary: aclrtcCompileProg has not succeeded");
}

}  // namespace

extern "C" {

aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders, const char **headers,
                          const char **includeNames) {
  constexpr const char *api = "aclrtcCreateProg";
  if (prog == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "prog is null");
  if (src == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "src is null");
  if (name == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "name is null");
  if (numHeaders < 0) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "numHeaders is " + std::to_string(numHeaders));
  if (numHeaders > 0 && (headers == nullptr || includeNames == nullptr)) {
    return Fail(ACL_ERROR_RTC_INVALID_INPUT, api,
                "numHeaders is " + std::to_string(numHeaders) + " but headers or includeNames is null");
  }
  auto program = std::make_unique<Program>();
  program->source = {ProgramFileName(name), src};
  for (int i = 0; i < numHeaders; ++i) {
    if (headers[i] == nullptr || includeNames[i] == nullptr) {
      return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "header " + std::to_string(i) + " or its include name is null");
    }
    program->headers.push_back({includeNames[i], headers[i]});
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  *prog = program.get();
  g_programs.insert(program.release());
  return ACL_SUCCESS;
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options) {
  constexpr const char *api = "aclrtcCompileProg";
  std::vector<std::string> args;
  if (numOptions < 0 || (numOptions > 0 && options == nullptr)) {
    return Fail(ACL_ERROR_RTC_INVALID_INPUT, api,
                "numOptions is " + std::to_string(numOptions) + (options == nullptr ? " and options is null" : ""));
  }
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr)
      return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "options[" + std::to_string(i) + "] is null");
    if (options[i][0] == '\0')
      return Fail(ACL_ERROR_RTC_INVALID_OPTION, api, "options[" + std::to_string(i) + "] is empty");
    if (ReservedOption(options[i])) {
      return Fail(ACL_ERROR_RTC_INVALID_OPTION, api,
                  std::string("option '") + options[i] + "' is not allowed: aclrtc decides what the compile produces");
    }
    args.emplace_back(options[i]);
  }
  SourceFile source;
  std::vector<SourceFile> headers;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    Program *program = Find(prog);
    if (program == nullptr) return InvalidProg(api, prog);
    source = program->source;
    headers = program->headers;
  }
  std::string tree;
  std::string error;
  asc_twin::rtc::CompileResult result;
  if (!asc_twin::rtc::ResolveCompilerTree(&tree, &error)) {
    result.code = ACL_ERROR_RTC_FAILURE;
    result.error = error;
  } else {
    result = asc_twin::rtc::CompileProgram(tree, source, headers, args);  // outside the lock: it takes seconds
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(prog);
  if (program == nullptr) return InvalidProg(api, prog);  // destroyed meanwhile
  program->log = result.log;
  program->binary = std::move(result.binary);
  if (result.code != ACL_SUCCESS) {
    if (program->log.empty()) program->log = result.error + "\n";
    return Fail(result.code, api, "program '" + source.name + "': " + result.error);
  }
  return ACL_SUCCESS;
}

aclError aclrtcDestroyProg(aclrtcProg *prog) {
  constexpr const char *api = "aclrtcDestroyProg";
  if (prog == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "prog is null");
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(*prog);
  if (program == nullptr) return InvalidProg(api, *prog);
  g_programs.erase(program);
  delete program;
  *prog = nullptr;
  return ACL_SUCCESS;
}

aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet) {
  constexpr const char *api = "aclrtcGetBinDataSize";
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(prog);
  if (program == nullptr) return InvalidProg(api, prog);
  if (binDataSizeRet == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "binDataSizeRet is null");
  if (program->binary.empty()) return NoBinary(api, *program);
  *binDataSizeRet = program->binary.size();
  return ACL_SUCCESS;
}

aclError aclrtcGetBinData(aclrtcProg prog, char *binData) {
  constexpr const char *api = "aclrtcGetBinData";
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(prog);
  if (program == nullptr) return InvalidProg(api, prog);
  if (binData == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "binData is null");
  if (program->binary.empty()) return NoBinary(api, *program);
  std::memcpy(binData, program->binary.data(), program->binary.size());
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet) {
  constexpr const char *api = "aclrtcGetCompileLogSize";
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(prog);
  if (program == nullptr) return InvalidProg(api, prog);
  if (logSizeRet == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "logSizeRet is null");
  *logSizeRet = program->log.size() + 1;  // with the terminating NUL
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLog(aclrtcProg prog, char *log) {
  constexpr const char *api = "aclrtcGetCompileLog";
  std::lock_guard<std::mutex> lock(g_mutex);
  Program *program = Find(prog);
  if (program == nullptr) return InvalidProg(api, prog);
  if (log == nullptr) return Fail(ACL_ERROR_RTC_INVALID_INPUT, api, "log is null");
  std::memcpy(log, program->log.c_str(), program->log.size() + 1);
  return ACL_SUCCESS;
}

}  // extern "C"
