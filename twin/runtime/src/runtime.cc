#include <cstdio>
#include <cstdlib>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/src/api_common.h"

namespace asc_twin::rt {
namespace {

std::mutex g_runtime_mutex;
std::shared_ptr<Runtime> g_runtime;  // the one process-wide instance (first use..aclFinalize)
bool g_init_called = false;          // aclInit was called since the last aclFinalize

thread_local std::weak_ptr<Context> t_current_context;

std::string Hex(const void *ptr) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", ptr);
  return text;
}

Status CheckDeviceId(const char *api, int32_t id) {
  if (id < 0 || static_cast<uint32_t>(id) >= kDeviceCount) {
    return Status(ACL_ERROR_RT_INVALID_DEVICEID, std::string(api) + ": device id " + std::to_string(id) +
                                                     " is out of range [0, " + std::to_string(kDeviceCount) + ")");
  }
  return Status::Ok();
}

StatusOr<const SocSpec *> ConfiguredSoc() {
  const std::string name = ConfiguredSocName();
  const SocSpec *soc = FindSoc(name);
  if (soc == nullptr) {
    return Status(ACL_ERROR_RT_SOC_VERSION,
                  std::string(kSocVersionEnv) + "=" + name + " is not a known SoC (known: " + KnownSocNames() + ")");
  }
  return soc;
}

}  // namespace

std::shared_ptr<Runtime> Runtime::Get() {
  std::lock_guard<std::mutex> lock(g_runtime_mutex);
  return g_runtime;
}

std::shared_ptr<Runtime> Runtime::GetOrInit() {
  if (InForkedChild()) {  // the parent's runtime is not this process's to use (memory_table.h)
    Report(ForkedChild("ACL"));
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(g_runtime_mutex);
  if (!g_runtime) g_runtime.reset(new Runtime());
  return g_runtime;
}

Status Runtime::Init() {
  std::lock_guard<std::mutex> lock(g_runtime_mutex);
  if (g_init_called) return Status(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: ACL is already initialized");
  g_init_called = true;
  if (!g_runtime) g_runtime.reset(new Runtime());
  return Status::Ok();
}

Status Runtime::Finalize() {
  std::shared_ptr<Runtime> runtime;
  {
    std::lock_guard<std::mutex> lock(g_runtime_mutex);
    if (!g_runtime)
      return Status(ACL_ERROR_REPEAT_FINALIZE, "aclFinalize: ACL is not initialized (or already finalized)");
    runtime.swap(g_runtime);
    g_init_called = false;
  }
  // Drain first: queued tasks may hold references to the runtime, which must not be released
  // last on a worker thread (the destructor joins the workers).
  runtime->SynchronizeAllStreams();
  // Destroyed here unless another thread is inside an API call; then it goes when that ends.
  return Status::Ok();
}

Runtime::Runtime() : pool_(new WorkerPool()) {
  memory_.SetHostMapper([this](void *addr, uint64_t size, uint64_t offset, bool map) {
    std::shared_ptr<DeviceProcess> process;
    {
      std::lock_guard<std::mutex> lock(process_mutex_);
      process = active_process_;
    }
    return process ? process->MapHost(addr, size, offset, map) : Status::Ok();
  });
}

void Runtime::SynchronizeAllStreams() {
  std::vector<std::shared_ptr<Stream>> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &entry : streams_) all.push_back(entry.second.stream);
    for (auto &entry : contexts_) all.push_back(entry.second.context->default_stream());
  }
  for (auto &stream : all) stream->Synchronize();
}

Runtime::~Runtime() {
  SynchronizeAllStreams();  // no block may still run on our memory
  functions_.clear();
  binaries_.clear();
  streams_.clear();
  contexts_.clear();
  devices_.clear();
  {
    std::lock_guard<std::mutex> lock(process_mutex_);
    if (active_process_) active_process_->Retire();
    active_process_.reset();
  }
  pool_.reset();  // joins workers; pending jobs only hold weak stream pointers
}

StatusOr<Runtime::DeviceSlot *> Runtime::OpenDeviceLocked(int32_t id, const char *api) {
  Status valid = CheckDeviceId(api, id);
  if (!valid.ok()) return valid;
  DeviceSlot &slot = devices_[id];
  if (!slot.device) {
    StatusOr<const SocSpec *> soc = ConfiguredSoc();
    if (!soc.ok()) {
      devices_.erase(id);
      return Status(soc.status().code(), std::string(api) + ": " + soc.status().message());
    }
    std::shared_ptr<GmArena> arena = memory_.arena();
    if (!arena) {
      devices_.erase(id);
      return Status(ACL_ERROR_RT_MEMORY_ALLOCATION, std::string(api) + ": cannot create the device memory arena");
    }
    auto process = std::make_shared<DeviceProcess>(arena, *soc.value());
    {
      std::lock_guard<std::mutex> lock(process_mutex_);
      active_process_ = process;
    }
    for (const MemoryTable::Registration &r : memory_.Registrations()) process->MapHost(r.addr, r.size, r.offset, true);
    slot.device = std::make_shared<Device>(id, *soc.value(), process);
    slot.default_context = std::make_shared<Context>(slot.device, std::make_shared<Stream>(pool_.get()));
    contexts_[slot.default_context.get()] = ContextRecord{slot.default_context, true};
  }
  ++slot.refs;
  return &slot;
}

Status Runtime::SetDevice(int32_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  StatusOr<DeviceSlot *> slot = OpenDeviceLocked(id, "aclrtSetDevice");
  if (!slot.ok()) return slot.status();
  t_current_context = slot.value()->default_context;
  return Status::Ok();
}

Status Runtime::ResetDevice(int32_t id) {
  Status valid = CheckDeviceId("aclrtResetDevice", id);
  if (!valid.ok()) return valid;
  std::vector<std::shared_ptr<Stream>> doomed;
  std::shared_ptr<DeviceProcess> retired;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto slot = devices_.find(id);
    if (slot == devices_.end() || slot->second.refs == 0) {
      return Status(ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice: device " + std::to_string(id) +
                                                       " is not set (aclrtSetDevice was not called or already reset)");
    }
    if (--slot->second.refs > 0) return Status::Ok();
    // Last reference: take every context and stream of the device out of the registries.
    for (auto it = streams_.begin(); it != streams_.end();) {
      auto context = it->second.context.lock();
      if (!context || context->device().id() == id) {
        doomed.push_back(it->second.stream);
        it = streams_.erase(it);
      } else {
        ++it;
      }
    }
    for (auto it = contexts_.begin(); it != contexts_.end();) {
      if (it->second.context->device().id() == id) {
        doomed.push_back(it->second.context->default_stream());
        it = contexts_.erase(it);
      } else {
        ++it;
      }
    }
    retired = slot->second.device->process();
    devices_.erase(slot);
  }
  for (auto &stream : doomed) stream->Synchronize();  // "waits for the tasks to complete"
  doomed.clear();
  memory_.FreeAllOf(id);
  {
    std::lock_guard<std::mutex> lock(process_mutex_);
    if (active_process_ == retired) active_process_.reset();
  }
  // Binaries and models loaded on it keep the process object but can no longer launch.
  if (retired) retired->Retire();
  return Status::Ok();
}

StatusOr<std::shared_ptr<Context>> Runtime::CreateContext(int32_t device_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  // A context holds a reference on its device, released by DestroyContext.
  StatusOr<DeviceSlot *> slot = OpenDeviceLocked(device_id, "aclrtCreateContext");
  if (!slot.ok()) return slot.status();
  auto context = std::make_shared<Context>(slot.value()->device, std::make_shared<Stream>(pool_.get()));
  contexts_[context.get()] = ContextRecord{context, false};
  t_current_context = context;
  return context;
}

Status Runtime::DestroyContext(void *handle) {
  if (handle == nullptr) return Status(ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext: context is null");
  std::vector<std::shared_ptr<Stream>> doomed;
  int32_t device_id = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = contexts_.find(handle);
    if (it == contexts_.end()) {
      return Status(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyContext: " + Hex(handle) + " is not a live context");
    }
    if (it->second.is_default) {
      return Status(ACL_ERROR_RT_PARAM_INVALID,
                    "aclrtDestroyContext: " + Hex(handle) + " is a device's default context; use aclrtResetDevice");
    }
    device_id = it->second.context->device().id();
    for (auto s = streams_.begin(); s != streams_.end();) {
      if (s->second.context.lock() == it->second.context) {
        doomed.push_back(s->second.stream);
        s = streams_.erase(s);
      } else {
        ++s;
      }
    }
    doomed.push_back(it->second.context->default_stream());
    contexts_.erase(it);
  }
  for (auto &stream : doomed) stream->Synchronize();
  return ResetDevice(device_id);
}

Status Runtime::SetCurrentContext(void *handle) {
  if (handle == nullptr) return Status(ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext: context is null");
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = contexts_.find(handle);
  if (it == contexts_.end()) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE, "aclrtSetCurrentContext: " + Hex(handle) + " is not a live context");
  }
  t_current_context = it->second.context;
  return Status::Ok();
}

StatusOr<std::shared_ptr<Context>> Runtime::CurrentContext() {
  std::shared_ptr<Context> context = t_current_context.lock();
  if (!context) {
    return Status(ACL_ERROR_RT_CONTEXT_NULL,
                  "no current context on this thread: call aclrtSetDevice (or aclrtSetCurrentContext) first");
  }
  return context;
}

Status Runtime::SynchronizeDevice() {
  StatusOr<std::shared_ptr<Context>> current = CurrentContext();
  if (!current.ok()) return current.status();
  const int32_t id = current.value()->device().id();
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &entry : contexts_) {
      if (entry.second.context->device().id() == id) streams.push_back(entry.second.context->default_stream());
    }
    for (auto &entry : streams_) {
      auto context = entry.second.context.lock();
      if (context && context->device().id() == id) streams.push_back(entry.second.stream);
    }
  }
  Status first;
  for (auto &stream : streams) {
    Status status = stream->Synchronize();
    if (!status.ok() && first.ok()) first = status;
  }
  return first;
}

StatusOr<std::shared_ptr<Stream>> Runtime::CreateStream() {
  StatusOr<std::shared_ptr<Context>> current = CurrentContext();
  if (!current.ok()) return current.status();
  auto stream = std::make_shared<Stream>(pool_.get());
  std::lock_guard<std::mutex> lock(mutex_);
  streams_[stream.get()] = StreamRecord{stream, current.value()};
  return stream;
}

Status Runtime::DestroyStream(void *handle) {
  if (handle == nullptr) return Status(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: stream is null");
  std::shared_ptr<Stream> stream;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = streams_.find(handle);
    if (it == streams_.end()) {
      return Status(ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream: " + Hex(handle) +
                                                     " is not a live stream (never created or already destroyed)");
    }
    stream = it->second.stream;
    streams_.erase(it);
  }
  stream->Synchronize();  // pending work finishes first; its status is dropped with the stream
  return Status::Ok();
}

StatusOr<std::shared_ptr<Stream>> Runtime::FindStream(void *handle) {
  if (handle == nullptr) {
    StatusOr<std::shared_ptr<Context>> current = CurrentContext();
    if (!current.ok()) return current.status();
    return current.value()->default_stream();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = streams_.find(handle);
  if (it == streams_.end() || it->second.context.expired()) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE,
                  "stream " + Hex(handle) + " is not a live stream (never created or already destroyed)");
  }
  return it->second.stream;
}

StatusOr<std::shared_ptr<KernelBinary>> Runtime::LoadBinary(const void *data, size_t length) {
  StatusOr<std::shared_ptr<Context>> current = CurrentContext();
  if (!current.ok()) return current.status();
  return KernelBinary::Load(data, length, current.value()->device().process());
}

void *Runtime::RegisterBinary(std::shared_ptr<KernelBinary> binary) {
  void *handle = binary.get();
  std::lock_guard<std::mutex> lock(mutex_);
  binaries_[handle] = std::move(binary);
  return handle;
}

Status Runtime::UnloadBinary(void *handle) {
  if (handle == nullptr) return Status(ACL_ERROR_INVALID_PARAM, "aclrtBinaryUnLoad: binHandle is null");
  std::shared_ptr<KernelBinary> binary;  // released after the lock; queued launches keep it loaded
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = binaries_.find(handle);
  if (it == binaries_.end()) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE,
                  "aclrtBinaryUnLoad: " + Hex(handle) + " is not a loaded binary (never loaded or already unloaded)");
  }
  binary = it->second;
  binaries_.erase(it);
  for (auto f = functions_.begin(); f != functions_.end();) {
    f = f->second->binary == binary.get() ? functions_.erase(f) : std::next(f);
  }
  return Status::Ok();
}

StatusOr<void *> Runtime::GetFunction(void *bin_handle, const std::string &name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = binaries_.find(bin_handle);
  if (it == binaries_.end()) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE, "aclrtBinaryGetFunction: " + Hex(bin_handle) +
                                                   " is not a loaded binary (never loaded or already unloaded)");
  }
  StatusOr<std::shared_ptr<const Kernel>> kernel = it->second->FindKernel(name);
  if (!kernel.ok()) return Status(kernel.status().code(), "aclrtBinaryGetFunction: " + kernel.status().message());
  const void *key = kernel.value().get();
  functions_[key] = kernel.value();
  return const_cast<void *>(key);
}

StatusOr<std::shared_ptr<const Kernel>> Runtime::FindFunction(const void *func_handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = functions_.find(func_handle);
  if (it == functions_.end()) {
    return Status(ACL_ERROR_RT_INVALID_HANDLE, "function handle " + Hex(func_handle) +
                                                   " is not live (not from aclrtBinaryGetFunction, or unloaded)");
  }
  return it->second;
}

Status Runtime::LaunchKernel(const void *func_handle, uint32_t blocks, const void *args, size_t args_size,
                             void *stream_handle) {
  StatusOr<std::shared_ptr<Context>> current = CurrentContext();
  if (!current.ok()) return current.status();
  StatusOr<std::shared_ptr<const Kernel>> kernel = FindFunction(func_handle);
  if (!kernel.ok()) return kernel.status();
  StatusOr<std::shared_ptr<Stream>> stream = FindStream(stream_handle);
  if (!stream.ok()) return stream.status();
  return LaunchKernel(kernel.value(), blocks, args, args_size, *stream.value(), current.value()->device().soc());
}

Status Runtime::LaunchKernel(std::shared_ptr<const Kernel> kernel, uint32_t blocks, const void *args, size_t args_size,
                             Stream &stream, const SocSpec &soc) {
  Status valid = ValidateLaunch(*kernel, blocks, args, args_size);
  if (!valid.ok()) return valid;
  stream.EnqueueLaunch(MakeLaunch(std::move(kernel), blocks, args, args_size, soc, memory_));
  return Status::Ok();
}

}  // namespace asc_twin::rt
