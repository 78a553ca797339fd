// The executor's only view of the runtime core (twin/runtime/internal). Everything the model
// code needs — the current device, kernel binaries, device memory, launches, streams, error
// reporting — goes through here, so a change of the runtime's internal API touches one file.
#ifndef TWIN_RUNTIME_MODEL_SRC_RUNTIME_ADAPTER_H_
#define TWIN_RUNTIME_MODEL_SRC_RUNTIME_ADAPTER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "twin/runtime/internal/status.h"

namespace asc_twin::model {

using rt::Status;
template <typename T>
using StatusOr = rt::StatusOr<T>;

// Records `status` for aclGetRecentErrMsg and returns its code (ACL_SUCCESS records nothing).
aclError ReportError(const Status &status, const char *file = __builtin_FILE(), int line = __builtin_LINE());

// A kernel resolved in a loaded binary; keeps the binary loaded.
class KernelRef {
 public:
  virtual ~KernelRef() = default;
  virtual uint32_t args_size() const = 0;  // bytes of the argument blob the kernel reads
};

// A loaded device binary.
class BinaryRef {
 public:
  virtual ~BinaryRef() = default;
  virtual StatusOr<std::shared_ptr<KernelRef>> FindKernel(const std::string &kernel_name) = 0;
};

// One kernel launch whose 8-byte argument slots the executor patches in place, then runs.
class PreparedLaunch {
 public:
  virtual ~PreparedLaunch() = default;
  virtual uint64_t *slots() = 0;
  virtual std::unique_ptr<PreparedLaunch> Clone() const = 0;
  // Runs every block now on this thread (plus pool workers); returns when all finished.
  virtual Status Run() = 0;
};

// A stream of the current context (or its default stream).
class StreamRef {
 public:
  virtual ~StreamRef() = default;
  // Queues `task` after everything queued before it.
  virtual void Enqueue(std::function<Status()> task) = 0;
  // Waits for everything queued so far (aclrtSynchronizeStream).
  virtual Status Synchronize() = 0;
};

// The current context's device as seen at load time; the model keeps it for its lifetime.
class DeviceAccess {
 public:
  virtual ~DeviceAccess() = default;

  // ACL_ERROR_RT_CONTEXT_NULL without a current context. ACL is initialized on first use.
  static StatusOr<std::shared_ptr<DeviceAccess>> ForCurrentContext();
  // Initializes ACL on first use (as aclInit(nullptr)); true once it is.
  static bool Initialized();

  virtual int32_t device_id() const = 0;
  virtual const std::string &soc_version() const = 0;
  virtual uint32_t npu_arch() const = 0;

  // Loads a device binary from memory (no file is written); checks its NpuArch.
  virtual StatusOr<std::shared_ptr<BinaryRef>> LoadBinary(const void *binary, size_t length) = 0;
  // Validates block count and blob size against the kernel, then builds the launch.
  virtual StatusOr<std::unique_ptr<PreparedLaunch>> PrepareLaunch(const std::shared_ptr<KernelRef> &kernel,
                                                                  uint32_t blocks, size_t slot_count) = 0;

  // False once aclFinalize ended the runtime this model was loaded on (even if aclInit ran again).
  virtual bool RuntimeIsCurrent() const = 0;

  virtual StatusOr<void *> Malloc(size_t size) = 0;
  // Frees an allocation made by Malloc, unless a device reset already released it (then the
  // address may belong to someone else: it is freed only if base and size still match).
  virtual void Free(void *ptr, size_t size) = 0;
  // True iff [ptr, ptr + size) lies inside one live device allocation.
  virtual bool IsDeviceMemory(const void *ptr, size_t size) const = 0;
  // Keeps the device allocation holding `ptr` mapped and unused until the result is released,
  // even if the caller frees it meanwhile (a queued run's copies); nullptr when there is none.
  virtual std::shared_ptr<const void> Hold(const void *ptr) = 0;

  // nullptr: the current context's default stream.
  virtual StatusOr<std::shared_ptr<StreamRef>> FindStream(void *handle) = 0;
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_RUNTIME_ADAPTER_H_
