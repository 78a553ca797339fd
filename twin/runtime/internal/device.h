// Internal C++ API of the runtime twin, shared by the ACL C API (src/acl_*.cc) and the model
// executor (twin/runtime/model): the process-wide Runtime (aclInit..aclFinalize), devices and
// contexts, streams, the memory table, kernel binaries and the launch path.
//
// Threading: every method is thread-safe. The current context is per thread (as in CANN):
// aclrtSetDevice / aclrtCreateContext / aclrtSetCurrentContext set it.
#ifndef TWIN_RUNTIME_INTERNAL_DEVICE_H_
#define TWIN_RUNTIME_INTERNAL_DEVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "twin/runtime/internal/device_process.h"
#include "twin/runtime/internal/kernel_binary.h"
#include "twin/runtime/internal/launch.h"
#include "twin/runtime/internal/memory_table.h"
#include "twin/runtime/internal/soc_spec.h"
#include "twin/runtime/internal/status.h"
#include "twin/runtime/internal/stream.h"
#include "twin/runtime/internal/worker_pool.h"

namespace asc_twin::rt {

constexpr uint32_t kDeviceCount = 1;

class Device;

class Context {
 public:
  Context(std::shared_ptr<Device> device, std::shared_ptr<Stream> default_stream)
      : device_(std::move(device)), default_stream_(std::move(default_stream)) {}
  Device &device() const { return *device_; }
  const std::shared_ptr<Device> &device_ptr() const { return device_; }
  const std::shared_ptr<Stream> &default_stream() const { return default_stream_; }

 private:
  std::shared_ptr<Device> device_;
  std::shared_ptr<Stream> default_stream_;
};

class Device {
 public:
  Device(int32_t id, const SocSpec &soc, std::shared_ptr<DeviceProcess> process)
      : id_(id), soc_(soc), process_(std::move(process)) {}
  int32_t id() const { return id_; }
  const SocSpec &soc() const { return soc_; }
  // Where this device's kernels run (started on first use).
  const std::shared_ptr<DeviceProcess> &process() const { return process_; }

 private:
  int32_t id_;
  const SocSpec &soc_;
  std::shared_ptr<DeviceProcess> process_;
};

class Runtime {
 public:
  // The process-wide instance; nullptr before the first use and after aclFinalize.
  static std::shared_ptr<Runtime> Get();
  // The instance, created on first use as aclInit(nullptr) would (thread-safe, once): CANN
  // initializes on first use, and many CANN programs never call aclInit.
  static std::shared_ptr<Runtime> GetOrInit();
  // aclInit: ACL_ERROR_REPEAT_INITIALIZE if aclInit was already called (since the last
  // aclFinalize); after an implicit initialization it succeeds and keeps that instance.
  static Status Init();
  static Status Finalize();  // ACL_ERROR_REPEAT_FINALIZE if not initialized (explicitly or not)

  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  WorkerPool &pool() { return *pool_; }
  MemoryTable &memory() { return memory_; }
  HostMemoryTable &host_memory() { return host_memory_; }

  // ---- devices and contexts ----
  // Opens (reference-counts) device `id` with the SoC of ASCEND_TWIN_SOC_VERSION and makes its
  // default context current on this thread.
  Status SetDevice(int32_t id);
  // Drops one reference; the last one synchronizes and destroys the device's contexts, streams
  // and memory.
  Status ResetDevice(int32_t id);
  StatusOr<std::shared_ptr<Context>> CreateContext(int32_t device_id);  // also made current
  Status DestroyContext(void *handle);
  Status SetCurrentContext(void *handle);
  // This thread's current context, or ACL_ERROR_RT_CONTEXT_NULL.
  StatusOr<std::shared_ptr<Context>> CurrentContext();
  Status SynchronizeDevice();

  // ---- streams ----
  StatusOr<std::shared_ptr<Stream>> CreateStream();  // in the current context, registered
  Status DestroyStream(void *handle);
  // nullptr: the current context's default stream. Error: ACL_ERROR_RT_INVALID_HANDLE.
  StatusOr<std::shared_ptr<Stream>> FindStream(void *handle);

  // ---- kernel binaries ----
  // Loads a binary for the current context's device. Not registered: for internal owners
  // (e.g. a loaded model). RegisterBinary makes it an aclrtBinHandle.
  StatusOr<std::shared_ptr<KernelBinary>> LoadBinary(const void *data, size_t length);
  void *RegisterBinary(std::shared_ptr<KernelBinary> binary);
  Status UnloadBinary(void *handle);
  StatusOr<void *> GetFunction(void *bin_handle, const std::string &name);
  StatusOr<std::shared_ptr<const Kernel>> FindFunction(const void *func_handle);

  // Validates and queues a launch on `stream` (nullptr: default stream).
  Status LaunchKernel(const void *func_handle, uint32_t blocks, const void *args, size_t args_size, void *stream);
  Status LaunchKernel(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                      Stream &stream, const SocSpec &soc);

 private:
  Runtime();
  // Waits for every stream (registered or default) to drain.
  void SynchronizeAllStreams();

  struct DeviceSlot {
    std::shared_ptr<Device> device;
    std::shared_ptr<Context> default_context;
    int refs = 0;
  };
  // Opens device `id` (creating it with the configured SoC) and takes a reference. mutex_ held.
  StatusOr<DeviceSlot *> OpenDeviceLocked(int32_t id, const char *api);
  struct ContextRecord {
    std::shared_ptr<Context> context;
    bool is_default;
  };
  struct StreamRecord {
    std::shared_ptr<Stream> stream;
    std::weak_ptr<Context> context;
  };

  std::unique_ptr<WorkerPool> pool_;
  MemoryTable memory_;
  // The open device's process, for the memory table's host-range mapper (own lock: the mapper
  // runs under the memory table's lock).
  std::mutex process_mutex_;
  std::shared_ptr<DeviceProcess> active_process_;
  HostMemoryTable host_memory_;

  std::mutex mutex_;  // guards everything below
  std::map<int32_t, DeviceSlot> devices_;
  std::map<void *, ContextRecord> contexts_;
  std::map<void *, StreamRecord> streams_;
  std::map<void *, std::shared_ptr<KernelBinary>> binaries_;
  std::map<const void *, std::shared_ptr<const Kernel>> functions_;
};

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_INTERNAL_DEVICE_H_
