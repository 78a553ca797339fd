// One aclrtcCompileProg: the program text (and its headers) written to a private temporary
// directory, the installed tree's bisheng run on it with the user's options, and the device
// binary taken out of the object (llvm-objcopy of .aicore_binary, as ascendc_fatbin_library
// does). Nothing is left behind: the directory goes with the job, whatever happened.
#ifndef TWIN_RUNTIME_RTC_SRC_COMPILE_JOB_H_
#define TWIN_RUNTIME_RTC_SRC_COMPILE_JOB_H_

#include <string>
#include <utility>
#include <vector>

namespace asc_twin::rtc {

struct SourceFile {
  std::string name;  // relative path inside the job's directory
  std::string text;
};

struct CompileResult {
  int code = 0;              // ACL_SUCCESS or an ACL_ERROR_RTC_* value
  std::string log;           // the compiler's own messages (warnings and notes on success too)
  std::string error;         // one line naming the program and the cause, when code != 0
  std::vector<char> binary;  // the device binary, when code == 0
};

// The install tree whose bisheng compiles: the directory above this library's own directory
// when it holds bin/bisheng (…/lib64/libacl_rtc.so -> …), else $ASCEND_HOME_PATH.
// Returns false with one line in *error when neither has bin/bisheng.
bool ResolveCompilerTree(std::string *tree, std::string *error);

CompileResult CompileProgram(const std::string &tree, const SourceFile &program, const std::vector<SourceFile> &headers,
                             const std::vector<std::string> &options);

}  // namespace asc_twin::rtc

#endif  // TWIN_RUNTIME_RTC_SRC_COMPILE_JOB_H_
