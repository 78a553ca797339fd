#include "twin/runtime/model/src/runtime_adapter.h"

#include <utility>

#include "twin/runtime/internal/device.h"
#include "twin/runtime/internal/error_log.h"
#include "twin/runtime/internal/launch.h"

namespace asc_twin::model {
namespace {

class RtKernel : public KernelRef {
 public:
  explicit RtKernel(std::shared_ptr<const rt::Kernel> kernel) : kernel_(std::move(kernel)) {}
  uint32_t args_size() const override { return kernel_->args_size; }
  const std::shared_ptr<const rt::Kernel> &kernel() const { return kernel_; }

 private:
  std::shared_ptr<const rt::Kernel> kernel_;
};

class RtBinary : public BinaryRef {
 public:
  explicit RtBinary(std::shared_ptr<rt::KernelBinary> binary) : binary_(std::move(binary)) {}
  StatusOr<std::shared_ptr<KernelRef>> FindKernel(const std::string &kernel_name) override {
    StatusOr<std::shared_ptr<const rt::Kernel>> kernel = binary_->FindKernel(kernel_name);
    if (!kernel.ok()) return kernel.status();
    return std::shared_ptr<KernelRef>(std::make_shared<RtKernel>(kernel.value()));
  }

 private:
  std::shared_ptr<rt::KernelBinary> binary_;
};

class RtLaunch : public PreparedLaunch {
 public:
  RtLaunch(rt::LaunchRequest request, std::shared_ptr<rt::Runtime> runtime)
      : request_(std::move(request)), runtime_(std::move(runtime)) {}
  uint64_t *slots() override { return request_.args.data(); }
  std::unique_ptr<PreparedLaunch> Clone() const override { return std::make_unique<RtLaunch>(request_, runtime_); }
  Status Run() override { return rt::RunLaunch(request_, runtime_->pool()); }

 private:
  rt::LaunchRequest request_;
  std::shared_ptr<rt::Runtime> runtime_;
};

class RtStream : public StreamRef {
 public:
  explicit RtStream(std::shared_ptr<rt::Stream> stream) : stream_(std::move(stream)) {}
  void Enqueue(std::function<Status()> task) override { stream_->Enqueue(std::move(task)); }
  Status Synchronize() override { return stream_->Synchronize(); }

 private:
  std::shared_ptr<rt::Stream> stream_;
};

class RtDevice : public DeviceAccess {
 public:
  RtDevice(std::shared_ptr<rt::Runtime> runtime, std::shared_ptr<rt::Context> context)
      : runtime_(std::move(runtime)),
        context_(std::move(context)),
        soc_version_(context_->device().soc().soc_version) {}

  int32_t device_id() const override { return context_->device().id(); }
  const std::string &soc_version() const override { return soc_version_; }
  uint32_t npu_arch() const override { return context_->device().soc().npu_arch; }

  StatusOr<std::shared_ptr<BinaryRef>> LoadBinary(const void *binary, size_t length) override {
    StatusOr<std::shared_ptr<rt::KernelBinary>> loaded =
        rt::KernelBinary::Load(binary, length, context_->device().process());
    if (!loaded.ok()) return loaded.status();
    return std::shared_ptr<BinaryRef>(std::make_shared<RtBinary>(loaded.value()));
  }

  StatusOr<std::unique_ptr<PreparedLaunch>> PrepareLaunch(const std::shared_ptr<KernelRef> &kernel, uint32_t blocks,
                                                          size_t slot_count) override {
    const auto &rt_kernel = static_cast<const RtKernel &>(*kernel).kernel();
    std::vector<uint64_t> zeros(slot_count + 1, 0);  // +1: a blob is never null
    const size_t args_size = slot_count * 8;
    Status valid = rt::ValidateLaunch(*rt_kernel, blocks, zeros.data(), args_size);
    if (!valid.ok()) return valid;
    rt::LaunchRequest request =
        rt::MakeLaunch(rt_kernel, blocks, zeros.data(), args_size, context_->device().soc(), runtime_->memory());
    return std::unique_ptr<PreparedLaunch>(std::make_unique<RtLaunch>(std::move(request), runtime_));
  }

  StatusOr<void *> Malloc(size_t size) override { return runtime_->memory().Allocate(size, device_id()); }
  bool RuntimeIsCurrent() const override { return rt::Runtime::Get() == runtime_; }
  void Free(void *ptr, size_t size) override {
    uintptr_t base = 0;
    size_t live_size = 0;
    if (runtime_->memory().Lookup(ptr, &base, &live_size) && base == reinterpret_cast<uintptr_t>(ptr) &&
        live_size == size) {
      (void)runtime_->memory().Free(ptr);
    }
  }
  bool IsDeviceMemory(const void *ptr, size_t size) const override { return runtime_->memory().Contains(ptr, size); }
  std::shared_ptr<const void> Hold(const void *ptr) override { return runtime_->memory().Hold(ptr); }

  StatusOr<std::shared_ptr<StreamRef>> FindStream(void *handle) override {
    StatusOr<std::shared_ptr<rt::Stream>> stream = runtime_->FindStream(handle);
    if (!stream.ok()) return stream.status();
    return std::shared_ptr<StreamRef>(std::make_shared<RtStream>(stream.value()));
  }

 private:
  std::shared_ptr<rt::Runtime> runtime_;
  std::shared_ptr<rt::Context> context_;
  std::string soc_version_;
};

}  // namespace

aclError ReportError(const Status &status, const char *file, int line) { return rt::Report(status, file, line); }

bool DeviceAccess::Initialized() { return rt::Runtime::GetOrInit() != nullptr; }

StatusOr<std::shared_ptr<DeviceAccess>> DeviceAccess::ForCurrentContext() {
  std::shared_ptr<rt::Runtime> runtime = rt::Runtime::GetOrInit();
  if (!runtime) return Status(ACL_ERROR_UNINITIALIZE, "ACL is not initialized; call aclInit first");
  StatusOr<std::shared_ptr<rt::Context>> context = runtime->CurrentContext();
  if (!context.ok()) return context.status();
  return std::shared_ptr<DeviceAccess>(std::make_shared<RtDevice>(runtime, context.value()));
}

}  // namespace asc_twin::model
