// The argument-list launch API (aclrtKernelArgs*, aclrtLaunchKernelWithConfig) and
// aclrtLaunchKernelV2: a front end that builds the same packed blob aclrtLaunchKernel takes and
// hands it to the same launch path (Runtime::LaunchKernel).
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "twin/runtime/src/api_common.h"
#include "twin/runtime/src/kernel_args.h"
#include "twin/runtime/src/launch_config.h"

using namespace asc_twin::rt;

namespace {

Status NotPositive(const char *api, const char *name) {
  return Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + name + " must be > 0");
}

// The kernel behind `func`, which the list must have been initialized for.
StatusOr<std::shared_ptr<const Kernel>> KernelOf(Runtime &runtime, const char *api, const void *func) {
  StatusOr<std::shared_ptr<const Kernel>> kernel = runtime.FindFunction(func);
  if (!kernel.ok()) return Prefixed(api, kernel.status());
  return kernel;
}

// Copies the placeholder data to one device allocation and writes each placeholder's device
// address into its slot of `blob`. Returns the allocation (nullptr when there is no data).
StatusOr<void *> UploadPlaceholderData(Runtime &runtime, const char *api, const KernelArgs &args, int32_t device,
                                       uint8_t *blob) {
  if (!args.data_started) return static_cast<void *>(nullptr);
  const size_t bytes = args.used - args.data_begin;
  StatusOr<void *> data = runtime.memory().Allocate(bytes, device, /*huge_pages=*/false);
  if (!data.ok()) return Prefixed(api, data.status());
  auto *device_data = static_cast<uint8_t *>(data.value());
  std::memcpy(device_data, args.buffer + args.data_begin, bytes);
  for (uint32_t i = 0; i < args.count; ++i) {
    const KernelArgsParam &param = args.params[i];
    if (!param.placeholder) continue;
    const uint64_t address = reinterpret_cast<uint64_t>(device_data + (param.data_offset - args.data_begin));
    std::memcpy(blob + param.offset, &address, sizeof(address));
  }
  return data;
}

aclError LaunchWithArgs(Runtime &runtime, const char *api, aclrtFuncHandle func, uint32_t blocks, aclrtStream stream,
                        const aclrtLaunchKernelCfg *cfg, const KernelArgs &args) {
  StatusOr<std::shared_ptr<Context>> context = runtime.CurrentContext();
  if (!context.ok()) return Report(Prefixed(api, context.status()));
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(runtime, api, func);
  if (!kernel.ok()) return Report(kernel.status());
  StatusOr<std::shared_ptr<Stream>> queue = runtime.FindStream(stream);
  if (!queue.ok()) return Report(Prefixed(api, queue.status()));
  StatusOr<LaunchOptions> options = ParseLaunchConfig(api, cfg);
  if (!options.ok()) return Report(options.status());
  // The entry reads exactly its parameters' slots: a list of another shape would fail in every
  // block, so refuse it here with the two layouts named.
  const size_t params_bytes = (args.params_end + 7) / 8 * 8;
  if (params_bytes != kernel.value()->args_size) {
    return Report(Status(ACL_ERROR_INVALID_PARAM,
                         std::string(api) + ": the argument list holds " + std::to_string(args.count) +
                             " parameters in " + std::to_string(params_bytes) + " bytes, but kernel " +
                             kernel.value()->name + " takes " + std::to_string(kernel.value()->params) +
                             " parameters in " + std::to_string(kernel.value()->args_size) + " bytes (8-byte slots)"));
  }
  size_t blob_size = 0;
  std::vector<uint64_t> blob = PackLaunchArgs(args.buffer, params_bytes, options.value(), &blob_size);
  StatusOr<void *> data = UploadPlaceholderData(runtime, api, args, context.value()->device().id(),
                                                reinterpret_cast<uint8_t *>(blob.data()));
  if (!data.ok()) return Report(data.status());
  Status launched = runtime.LaunchKernel(kernel.value(), blocks, blob.data(), blob_size, *queue.value(),
                                         context.value()->device().soc());
  MemoryTable *memory = &runtime.memory();
  if (!launched.ok()) {
    if (data.value() != nullptr) memory->Free(data.value());
    return Report(Prefixed(api, launched));
  }
  if (data.value() != nullptr) {
    // Freed once the launch ran (tasks run in order); the runtime outlives its streams' tasks.
    void *device_data = data.value();
    queue.value()->Enqueue([memory, device_data]() {
      memory->Free(device_data);
      return Status::Ok();
    });
  }
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t *memSize) {
  constexpr const char *api = "aclrtKernelArgsGetHandleMemSize";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, memSize);
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(*runtime, api, funcHandle);
  if (!kernel.ok()) return Report(kernel.status());
  *memSize = sizeof(KernelArgs);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize, size_t *actualArgsSize) {
  constexpr const char *api = "aclrtKernelArgsGetMemSize";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, actualArgsSize);
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(*runtime, api, funcHandle);
  if (!kernel.ok()) return Report(kernel.status());
  // Room for the alignment padding of every parameter (no system parameters on the twin).
  *actualArgsSize = userArgsSize + size_t{kernel.value()->params} * 8;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle) {
  constexpr const char *api = "aclrtKernelArgsInit";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(*runtime, api, funcHandle);
  if (!kernel.ok()) return Report(kernel.status());
  uint8_t *buffer = nullptr;
  KernelArgs *args = ThreadKernelArgs(&buffer);
  InitKernelArgs(args, funcHandle, buffer, kKernelArgsBufferSize, kMaxKernelArgsParams);
  *argsHandle = args;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle, void *userHostMem,
                                      size_t actualArgsSize) {
  constexpr const char *api = "aclrtKernelArgsInitByUserMem";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, userHostMem);
  if (actualArgsSize == 0) return Report(NotPositive(api, "actualArgsSize"));
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(*runtime, api, funcHandle);
  if (!kernel.ok()) return Report(kernel.status());
  // The handle memory is the caller's (aclrtKernelArgsGetHandleMemSize bytes); as on CANN, at
  // most the kernel's own parameter count may be appended.
  InitKernelArgs(new (argsHandle) KernelArgs(), funcHandle, static_cast<uint8_t *>(userHostMem), actualArgsSize,
                 kernel.value()->params);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
                               aclrtParamHandle *paramHandle) {
  constexpr const char *api = "aclrtKernelArgsAppend";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, param);
  if (paramSize == 0) return Report(NotPositive(api, "paramSize"));
  ACL_TWIN_REQUIRE_NOT_NULL(api, paramHandle);
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  StatusOr<KernelArgsParam *> appended = AppendParam(api, *args.value(), param, paramSize);
  if (!appended.ok()) return Report(appended.status());
  *paramHandle = appended.value();
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle, aclrtParamHandle *paramHandle) {
  constexpr const char *api = "aclrtKernelArgsAppendPlaceHolder";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, paramHandle);
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  StatusOr<KernelArgsParam *> appended = AppendPlaceholder(api, *args.value());
  if (!appended.ok()) return Report(appended.status());
  *paramHandle = appended.value();
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, size_t dataSize,
                                             void **bufferAddr) {
  constexpr const char *api = "aclrtKernelArgsGetPlaceHolderBuffer";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, paramHandle);
  if (dataSize == 0) return Report(NotPositive(api, "dataSize"));
  ACL_TWIN_REQUIRE_NOT_NULL(api, bufferAddr);
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  StatusOr<KernelArgsParam *> param = FindParam(api, *args.value(), paramHandle);
  if (!param.ok()) return Report(param.status());
  StatusOr<void *> buffer = PlaceholderBuffer(api, *args.value(), *param.value(), dataSize);
  if (!buffer.ok()) return Report(buffer.status());
  *bufferAddr = buffer.value();
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle, void *param,
                                   size_t paramSize) {
  constexpr const char *api = "aclrtKernelArgsParaUpdate";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, paramHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, param);
  if (paramSize == 0) return Report(NotPositive(api, "paramSize"));
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  StatusOr<KernelArgsParam *> target = FindParam(api, *args.value(), paramHandle);
  if (!target.ok()) return Report(target.status());
  return Report(UpdateParam(api, *args.value(), *target.value(), param, paramSize));
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  constexpr const char *api = "aclrtKernelArgsFinalize";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  return Report(FinalizeKernelArgs(*args.value()));
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks, aclrtStream stream,
                                     aclrtLaunchKernelCfg *cfg, aclrtArgsHandle argsHandle, void *reserve) {
  constexpr const char *api = "aclrtLaunchKernelWithConfig";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsHandle);
  if (reserve != nullptr) {
    return Report(Status(ACL_ERROR_RT_PARAM_INVALID, std::string(api) + ": reserve is " + HexAddress(reserve) +
                                                         "; it is reserved and must be NULL"));
  }
  StatusOr<KernelArgs *> args = FindKernelArgs(api, argsHandle);
  if (!args.ok()) return Report(args.status());
  if (args.value()->function != funcHandle) {
    return Report(Status(ACL_ERROR_RT_PARAM_INVALID,
                         std::string(api) + ": argsHandle " + HexAddress(argsHandle) + " was built for function " +
                             HexAddress(args.value()->function) + ", not " + HexAddress(funcHandle)));
  }
  Status ready = CheckLaunchable(api, *args.value());
  if (!ready.ok()) return Report(ready);
  return LaunchWithArgs(*runtime, api, funcHandle, numBlocks, stream, cfg, *args.value());
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void *argsData, size_t argsSize,
                             aclrtLaunchKernelCfg *cfg, aclrtStream stream) {
  constexpr const char *api = "aclrtLaunchKernelV2";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, funcHandle);
  ACL_TWIN_REQUIRE_NOT_NULL(api, argsData);
  StatusOr<LaunchOptions> options = ParseLaunchConfig(api, cfg);
  if (!options.ok()) return Report(options.status());
  if (argsSize > kMaxArgsSize) {  // checked before the copy below; the launch checks the rest
    return Report(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": argsSize=" + std::to_string(argsSize) +
                                                      " exceeds the " + std::to_string(kMaxArgsSize) +
                                                      "-byte argument limit"));
  }
  size_t blob_size = 0;
  std::vector<uint64_t> blob = PackLaunchArgs(argsData, argsSize, options.value(), &blob_size);
  return Report(Prefixed(api, runtime->LaunchKernel(funcHandle, numBlocks, blob.data(), blob_size, stream)));
}

aclError aclrtLaunchKernelWithArgsArray(void *func, uint32_t numBlocks, aclrtStream stream, aclrtLaunchKernelCfg *cfg,
                                        void **args) {
  constexpr const char *api = "aclrtLaunchKernelWithArgsArray";
  ACL_TWIN_REQUIRE_RUNTIME(api);
  ACL_TWIN_REQUIRE_NOT_NULL(api, func);
  StatusOr<std::shared_ptr<const Kernel>> kernel = KernelOf(*runtime, api, func);
  if (!kernel.ok()) return Report(kernel.status());
  const Kernel &k = *kernel.value();
  // The array gives no sizes: every parameter must be one 8-byte slot (a pointer or a scalar);
  // each slot takes 8 bytes from its element (a narrower scalar's kernel reads its low bytes).
  if (k.args_size != 8ull * k.params) {
    return Report(Status(ACL_ERROR_FEATURE_UNSUPPORTED,
                         std::string(api) + ": kernel " + k.name + " takes a by-value struct (" +
                             std::to_string(k.args_size) + " argument bytes for " + std::to_string(k.params) +
                             " parameters); pass its arguments with aclrtLaunchKernelWithConfig"));
  }
  if (k.params > 0 && args == nullptr) {
    return Report(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": args is null but kernel " + k.name + " takes " +
                                                      std::to_string(k.params) + " parameters"));
  }
  std::vector<uint64_t> slots(k.params);
  for (uint32_t i = 0; i < k.params; ++i) {
    if (args[i] == nullptr) {
      return Report(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": args[" + std::to_string(i) + "] is null"));
    }
    std::memcpy(&slots[i], args[i], sizeof(uint64_t));
  }
  StatusOr<LaunchOptions> options = ParseLaunchConfig(api, cfg);
  if (!options.ok()) return Report(options.status());
  size_t blob_size = 0;
  std::vector<uint64_t> blob =
      PackLaunchArgs(slots.data(), slots.size() * sizeof(uint64_t), options.value(), &blob_size);
  return Report(Prefixed(api, runtime->LaunchKernel(func, numBlocks, blob.data(), blob_size, stream)));
}

}  // extern "C"
