// Kernel binaries: load (from memory or a file), look a kernel up, launch, unload.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "twin/common/file/regular_file.h"
#include "twin/runtime/src/api_common.h"

using namespace asc_twin::rt;

namespace {

constexpr uint64_t kMaxBinaryFileBytes = uint64_t{1} << 30;  // 1 GiB: no kernel binary is larger

Status CheckOptions(const char *api, const aclrtBinaryLoadOptions *options) {
  if (options == nullptr || options->numOpt == 0) return Status::Ok();
  if (options->options == nullptr) {
    return Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": options->numOpt is " +
                                               std::to_string(options->numOpt) + " but options->options is null");
  }
  for (size_t i = 0; i < options->numOpt; ++i) {
    const aclrtBinaryLoadOption &option = options->options[i];
    const int type = RawEnum(option.type);
    switch (type) {
      case ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD:  // the twin always resolves kernels at load time
        break;
      case ACL_RT_BINARY_LOAD_OPT_MAGIC:
        if (option.value.magic != ACL_RT_BINARY_MAGIC_ELF_AICORE &&
            option.value.magic != ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE &&
            option.value.magic != ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE) {
          char text[16];
          std::snprintf(text, sizeof(text), "0x%08x", option.value.magic);
          return Status(ACL_ERROR_INVALID_PARAM,
                        std::string(api) + ": option magic " + text + " is not an ACL_RT_BINARY_MAGIC_ELF_* value");
        }
        break;
      case ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE:
        return Status(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                      std::string(api) +
                          ": AI CPU kernels (ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE) are not supported by the twin");
      default:
        return Status(ACL_ERROR_INVALID_PARAM,
                      std::string(api) + ": option type " + std::to_string(type) + " is unknown");
    }
  }
  return Status::Ok();
}

aclError LoadAndRegister(Runtime &runtime, const char *api, const void *data, size_t length,
                         aclrtBinHandle *binHandle) {
  StatusOr<std::shared_ptr<KernelBinary>> binary = runtime.LoadBinary(data, length);
  if (!binary.ok()) return Report(Prefixed(api, binary.status()));
  *binHandle = runtime.RegisterBinary(binary.value());
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtBinaryLoadFromData(const void *data, size_t length, const aclrtBinaryLoadOptions *options,
                                 aclrtBinHandle *binHandle) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtBinaryLoadFromData");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryLoadFromData", data);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryLoadFromData", binHandle);
  if (length == 0) return Report(Status(ACL_ERROR_INVALID_PARAM, "aclrtBinaryLoadFromData: length must be > 0"));
  Status options_ok = CheckOptions("aclrtBinaryLoadFromData", options);
  if (!options_ok.ok()) return Report(options_ok);
  return LoadAndRegister(*runtime, "aclrtBinaryLoadFromData", data, length, binHandle);
}

aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options, aclrtBinHandle *binHandle) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtBinaryLoadFromFile");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryLoadFromFile", binPath);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryLoadFromFile", binHandle);
  Status options_ok = CheckOptions("aclrtBinaryLoadFromFile", options);
  if (!options_ok.ok()) return Report(options_ok);
  // Only regular files (twin/common/file: never blocks, size from the descriptor first).
  const std::string what = std::string("aclrtBinaryLoadFromFile: '") + binPath + "'";
  asc_twin::file::RegularFile file;
  std::string cause;
  if (!file.Open(binPath, &cause)) return Report(Status(ACL_ERROR_INVALID_FILE, what + " " + cause));
  if (file.size() > kMaxBinaryFileBytes) {
    return Report(Status(ACL_ERROR_INVALID_FILE,
                         what + " is " + std::to_string(file.size()) + " bytes, more than any kernel binary"));
  }
  if (file.size() == 0) return Report(Status(ACL_ERROR_INVALID_FILE, what + " is empty"));
  std::vector<uint8_t> bytes;
  if (!file.ReadAt(0, static_cast<size_t>(file.size()), &bytes, &cause)) {
    return Report(Status(ACL_ERROR_INVALID_FILE, what + " " + cause));
  }
  StatusOr<std::shared_ptr<KernelBinary>> binary = runtime->LoadBinary(bytes.data(), bytes.size());
  if (!binary.ok()) {
    return Report(Status(binary.status().code(),
                         std::string("aclrtBinaryLoadFromFile: '") + binPath + "': " + binary.status().message()));
  }
  *binHandle = runtime->RegisterBinary(binary.value());
  return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName, aclrtFuncHandle *funcHandle) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtBinaryGetFunction");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryGetFunction", binHandle);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryGetFunction", kernelName);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtBinaryGetFunction", funcHandle);
  StatusOr<void *> function = runtime->GetFunction(binHandle, kernelName);
  if (!function.ok()) return Report(function.status());
  *funcHandle = function.value();
  return ACL_SUCCESS;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtBinaryUnLoad");
  return Report(runtime->UnloadBinary(binHandle));
}

aclError aclrtFunctionGetParamCount(const void *func, size_t *paramCount) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtFunctionGetParamCount");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtFunctionGetParamCount", func);
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtFunctionGetParamCount", paramCount);
  StatusOr<std::shared_ptr<const Kernel>> kernel = runtime->FindFunction(func);
  if (!kernel.ok()) return Report(Prefixed("aclrtFunctionGetParamCount", kernel.status()));
  *paramCount = kernel.value()->params;
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                           aclrtStream stream) {
  ACL_TWIN_REQUIRE_RUNTIME("aclrtLaunchKernel");
  ACL_TWIN_REQUIRE_NOT_NULL("aclrtLaunchKernel", funcHandle);
  return Report(
      Prefixed("aclrtLaunchKernel", runtime->LaunchKernel(funcHandle, numBlocks, argsData, argsSize, stream)));
}

}  // extern "C"
