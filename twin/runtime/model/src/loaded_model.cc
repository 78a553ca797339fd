#include "twin/runtime/model/src/loaded_model.h"

#include <cstring>
#include <utility>

#include "twin/om/om_reader.h"

namespace asc_twin::model {
namespace {

aclError CodeFor(om::ReadErrorKind kind) {
  switch (kind) {
    case om::ReadErrorKind::kTruncated:
    case om::ReadErrorKind::kTrailingBytes:
      return ACL_ERROR_MODEL_SIZE_INVALID;
    case om::ReadErrorKind::kBadModelDef:
      return ACL_ERROR_DESERIALIZE_MODEL;
    default:
      return ACL_ERROR_PARSE_MODEL;
  }
}

std::string TaskDescription(const om::TaskDef &task, int index) {
  std::string text = "task " + std::to_string(index);
  if (task.has_kernel()) {
    text += " (kernel " + task.kernel().kernel_name() + " of node " + task.kernel().node_name() + ")";
  } else {
    text += " (memcpy)";
  }
  return text;
}

TensorInfo ToTensorInfo(const om::TensorDef &def) {
  TensorInfo info;
  info.name = def.name();
  info.data_type = def.data_type();
  info.format = def.format();
  info.dims.assign(def.dims().begin(), def.dims().end());
  info.size = def.size();
  for (const om::DimRange &range : def.dim_ranges()) info.ranges.emplace_back(range.min(), range.max());
  return info;
}

// A failure of the runtime while loading: keep its code unless it only says "bad argument",
// which for a model means a bad model.
Status LoadFailure(const Status &status, const std::string &prefix) {
  const aclError code = status.code() == ACL_ERROR_INVALID_PARAM ? ACL_ERROR_PARSE_MODEL : status.code();
  return Status(code, prefix + status.message());
}

}  // namespace

Status LoadedModel::CheckFileHeader(const void *header, size_t header_bytes, uint64_t file_size, const char *api) {
  om::ReadError error;
  if (!om::CheckOmHeader(header, header_bytes, file_size, &error)) {
    return Status(CodeFor(error.kind), std::string(api) + ": " + error.message);
  }
  return Status::Ok();
}

StatusOr<std::shared_ptr<LoadedModel>> LoadedModel::Load(const void *data, size_t size, const char *api) {
  std::shared_ptr<LoadedModel> model(new LoadedModel());
  Status status = model->Build(data, size, api);
  if (!status.ok()) return status;
  return model;
}

LoadedModel::~LoadedModel() {
  python_.reset();
  steps_.clear();
  binaries_.clear();
  if (feature_map_ != nullptr) device_->Free(feature_map_, feature_map_size_);
  if (constants_ != nullptr) device_->Free(constants_, constants_size_);
}

Status LoadedModel::Build(const void *data, size_t size, const char *api) {
  const std::string prefix = std::string(api) + ": ";
  om::OmContainer container;
  om::ReadError error;
  if (!om::ReadOm(data, size, &container, &error)) return Status(CodeFor(error.kind), prefix + error.message);
  const om::ModelDef &def = container.model_def;

  StatusOr<std::shared_ptr<DeviceAccess>> device = DeviceAccess::ForCurrentContext();
  if (!device.ok()) return Status(device.status().code(), prefix + device.status().message());
  device_ = device.value();
  // Kernel binaries are built per NpuArch (CANN: "same product"), so the arch decides; a
  // different SoC of the same arch runs the model.
  if (container.npu_arch != device_->npu_arch()) {
    return Status(ACL_ERROR_RT_SOC_VERSION, prefix + "model " + def.name() + " was built for " + container.soc_version +
                                                " (NpuArch " + std::to_string(container.npu_arch) + ") but device " +
                                                std::to_string(device_->device_id()) + " is " + device_->soc_version() +
                                                " (NpuArch " + std::to_string(device_->npu_arch()) + ")");
  }

  name_ = def.name();
  for (const om::TensorDef &t : def.inputs()) inputs_.push_back(ToTensorInfo(t));
  for (const om::TensorDef &t : def.outputs()) outputs_.push_back(ToTensorInfo(t));
  input_addrs_.assign(inputs_.size(), nullptr);
  output_addrs_.assign(outputs_.size(), nullptr);
  if (container.requires_python()) {
    // GE: such a model cannot run without the Python environment; only it loads the interpreter.
    StatusOr<std::unique_ptr<PythonModel>> python =
        PythonModel::Load(std::string(static_cast<const char *>(data), size), container, inputs_, outputs_, prefix);
    if (!python.ok()) return python.status();
    python_ = std::move(python.value());
    return Status::Ok();
  }

  for (size_t i = 0; i < container.kernel_binaries.size(); ++i) {
    const om::ByteSpan &bytes = container.kernel_binaries[i];
    StatusOr<std::shared_ptr<BinaryRef>> binary = device_->LoadBinary(bytes.data, bytes.size);
    if (!binary.ok()) return LoadFailure(binary.status(), prefix + "kernel binary " + std::to_string(i) + ": ");
    binaries_.push_back(binary.value());
  }
  if (def.feature_map_size() > 0) {
    StatusOr<void *> memory = device_->Malloc(def.feature_map_size());
    if (!memory.ok()) {
      return Status(memory.status().code(), prefix + "cannot allocate the " + std::to_string(def.feature_map_size()) +
                                                "-byte feature map: " + memory.status().message());
    }
    feature_map_ = memory.value();
    feature_map_size_ = def.feature_map_size();
  }
  if (container.constants.size > 0) {
    StatusOr<void *> memory = device_->Malloc(container.constants.size);
    if (!memory.ok()) {
      return Status(memory.status().code(), prefix + "cannot allocate " + std::to_string(container.constants.size) +
                                                " bytes of constants: " + memory.status().message());
    }
    constants_ = memory.value();
    constants_size_ = container.constants.size;
    std::memcpy(constants_, container.constants.data, container.constants.size);
  }

  // Endpoints of bindings; the ranges were checked by the reader.
  auto endpoint = [this](const om::Binding &binding) {
    Endpoint where;
    if (binding.has_input()) {
      where.kind = Endpoint::kInput;
      where.index = binding.input();
    } else if (binding.has_output()) {
      where.kind = Endpoint::kOutput;
      where.index = binding.output();
    } else if (binding.has_feature_map()) {
      where.fixed = static_cast<uint8_t *>(feature_map_) + binding.feature_map().offset();
    } else if (binding.has_constant()) {
      where.fixed = static_cast<uint8_t *>(constants_) + binding.constant().offset();
    }
    return where;
  };

  for (int t = 0; t < def.tasks_size(); ++t) {
    const om::TaskDef &task = def.tasks(t);
    Step step;
    step.description = TaskDescription(task, t);
    const std::string task_prefix = prefix + "model " + name_ + " " + step.description + ": ";
    if (task.has_memcpy()) {
      step.src = endpoint(task.memcpy().src());
      step.dst = endpoint(task.memcpy().dst());
      step.copy_size = task.memcpy().size();
      steps_.push_back(std::move(step));
      continue;
    }
    const om::KernelTask &kernel_task = task.kernel();
    StatusOr<std::shared_ptr<KernelRef>> kernel =
        binaries_[kernel_task.kernel_binary_index()]->FindKernel(kernel_task.kernel_name());
    if (!kernel.ok()) return LoadFailure(kernel.status(), task_prefix);
    StatusOr<std::unique_ptr<PreparedLaunch>> launch =
        device_->PrepareLaunch(kernel.value(), kernel_task.block_dim(), kernel_task.args_size());
    if (!launch.ok()) return LoadFailure(launch.status(), task_prefix);
    step.launch = std::move(launch.value());
    uint64_t *slots = step.launch->slots();
    for (int a = 0; a < kernel_task.args_size(); ++a) {
      const om::Binding &binding = kernel_task.args(a);
      if (binding.has_scalar()) {
        slots[a] = binding.scalar();
        continue;
      }
      const Endpoint where = endpoint(binding);
      if (where.kind == Endpoint::kFixed) {
        slots[a] = reinterpret_cast<uintptr_t>(where.fixed);
      } else {
        step.patches.push_back(SlotPatch{static_cast<uint32_t>(a), where});
      }
    }
    steps_.push_back(std::move(step));
  }
  return Status::Ok();
}

Status LoadedModel::CheckUnloadable(const char *api) const {
  if (device_->RuntimeIsCurrent()) return Status::Ok();
  return Status(ACL_ERROR_INVALID_MODEL_ID, std::string(api) + ": model " + name_ +
                                                " was loaded before aclFinalize, which unloaded it; its id is no "
                                                "longer valid");
}

Status LoadedModel::CheckStillLoaded(const char *api) const {
  if (!device_->RuntimeIsCurrent()) {
    return Status(ACL_ERROR_INVALID_MODEL_ID, std::string(api) + ": model " + name_ +
                                                  " was loaded before aclFinalize; models do not survive it, load "
                                                  "it again");
  }
  if ((feature_map_ != nullptr && !device_->IsDeviceMemory(feature_map_, feature_map_size_)) ||
      (constants_ != nullptr && !device_->IsDeviceMemory(constants_, constants_size_))) {
    return Status(ACL_ERROR_INVALID_MODEL_ID, std::string(api) + ": model " + name_ +
                                                  " lost its device memory (aclrtResetDevice released it); load "
                                                  "it again");
  }
  return Status::Ok();
}

Status LoadedModel::CheckDatasets(const aclmdlDataset *input, aclmdlDataset *output, const char *api,
                                  std::vector<void *> *input_addrs, std::vector<void *> *output_addrs) {
  // Messages are built only on failure: this runs on every aclmdlExecute.
  auto prefix = [&] { return std::string(api) + ": model " + name_ + ": "; };
  if (input == nullptr) return Status(ACL_ERROR_INVALID_PARAM, prefix() + "input dataset is null");
  if (output == nullptr) return Status(ACL_ERROR_INVALID_PARAM, prefix() + "output dataset is null");
  for (int io = 0; io < 2; ++io) {
    const bool is_input = io == 0;
    const aclmdlDataset &dataset = is_input ? *input : *output;
    const std::vector<TensorInfo> &tensors = is_input ? inputs_ : outputs_;
    const aclError mismatch = is_input ? ACL_ERROR_MODEL_INPUT_NOT_MATCH : ACL_ERROR_MODEL_OUTPUT_NOT_MATCH;
    const char *what = is_input ? "input" : "output";
    if (dataset.buffers.size() != tensors.size()) {
      return Status(mismatch, prefix() + std::string(what) + " dataset has " + std::to_string(dataset.buffers.size()) +
                                  " buffers but the model has " + std::to_string(tensors.size()) + " " + what + "s");
    }
    if (python_) continue;  // its buffers are checked against each run's shapes (PythonModel::Execute)
    std::vector<void *> &addrs = is_input ? *input_addrs : *output_addrs;
    for (size_t i = 0; i < tensors.size(); ++i) {
      aclDataBuffer *buffer = dataset.buffers[i];
      auto name = [&] { return std::string(what) + " " + std::to_string(i) + " (" + tensors[i].name + ")"; };
      if (!is_input && buffer->data == nullptr && buffer->size == 0) {
        // CANN: an empty output buffer asks the runtime to allocate it; the caller frees it.
        StatusOr<void *> memory = device_->Malloc(tensors[i].size);
        if (!memory.ok()) {
          return Status(memory.status().code(),
                        prefix() + "cannot allocate " + name() + ": " + memory.status().message());
        }
        buffer->data = memory.value();
        buffer->size = tensors[i].size;
      }
      if (buffer->data == nullptr) return Status(mismatch, prefix() + name() + " buffer address is null");
      if (buffer->size < tensors[i].size) {
        return Status(mismatch, prefix() + name() + " buffer holds " + std::to_string(buffer->size) +
                                    " bytes but the model needs " + std::to_string(tensors[i].size));
      }
      if (tensors[i].size > 0 && !device_->IsDeviceMemory(buffer->data, tensors[i].size)) {
        return Status(mismatch, prefix() + name() + " buffer is not device memory of " +
                                    std::to_string(tensors[i].size) + " bytes (allocate it with aclrtMalloc)");
      }
      addrs[i] = buffer->data;
    }
  }
  return Status::Ok();
}

void *LoadedModel::Resolve(const Endpoint &where, const std::vector<void *> &inputs,
                           const std::vector<void *> &outputs) {
  switch (where.kind) {
    case Endpoint::kInput:
      return inputs[where.index];
    case Endpoint::kOutput:
      return outputs[where.index];
    case Endpoint::kFixed:
      break;
  }
  return where.fixed;
}

Status LoadedModel::RunSteps(std::vector<Step> &steps, const std::vector<void *> &inputs,
                             const std::vector<void *> &outputs, const char *api, const std::string &model) {
  for (Step &step : steps) {
    if (!step.launch) {
      void *dst = Resolve(step.dst, inputs, outputs);
      const void *src = Resolve(step.src, inputs, outputs);
      if (dst != src) std::memmove(dst, src, step.copy_size);
      continue;
    }
    uint64_t *slots = step.launch->slots();
    for (const SlotPatch &patch : step.patches) {
      slots[patch.slot] = reinterpret_cast<uintptr_t>(Resolve(patch.where, inputs, outputs));
    }
    Status status = step.launch->Run();
    if (!status.ok()) {  // the message is built on failure only: nothing per run
      return Status(status.code(),
                    std::string(api) + ": model " + model + " " + step.description + ": " + status.message());
    }
  }
  return Status::Ok();
}

Status LoadedModel::Execute(const aclmdlDataset *input, aclmdlDataset *output) {
  std::lock_guard<std::mutex> lock(execute_mutex_);
  Status status = CheckStillLoaded("aclmdlExecute");
  if (!status.ok()) return status;
  status = CheckDatasets(input, output, "aclmdlExecute", &input_addrs_, &output_addrs_);
  if (!status.ok()) return status;
  if (python_) return python_->Execute(*input, output, *device_, "aclmdlExecute: ");
  return RunSteps(steps_, input_addrs_, output_addrs_, "aclmdlExecute", name_);
}

Status LoadedModel::ExecuteAsync(const aclmdlDataset *input, aclmdlDataset *output, void *stream) {
  Status loaded = CheckStillLoaded("aclmdlExecuteAsync");
  if (!loaded.ok()) return loaded;
  StatusOr<std::shared_ptr<StreamRef>> target = device_->FindStream(stream);
  if (!target.ok()) return Status(target.status().code(), "aclmdlExecuteAsync: " + target.status().message());
  if (python_) {
    // The Python executor runs on the calling thread (its ACL calls need this thread's context):
    // what is queued on `stream` before it runs first, then the run completes before returning.
    Status queued = target.value()->Synchronize();
    if (!queued.ok())
      return Status(queued.code(), "aclmdlExecuteAsync: work queued before the run failed: " + queued.message());
    std::lock_guard<std::mutex> lock(execute_mutex_);
    Status given = CheckDatasets(input, output, "aclmdlExecuteAsync", nullptr, nullptr);
    if (!given.ok()) return given;
    return python_->Execute(*input, output, *device_, "aclmdlExecuteAsync: ");
  }
  // Each queued run owns its blobs and addresses: the caller may run again before it syncs. It
  // holds the datasets' device buffers, so a buffer freed before the synchronize stays mapped
  // until the run's host-side copies are done (aclrtFree does not synchronize; twin/runtime/README.md).
  struct Run {
    std::shared_ptr<DeviceAccess> device;  // outlives the holds (members go in reverse order)
    std::vector<Step> steps;
    std::vector<void *> inputs, outputs;
    std::vector<std::shared_ptr<const void>> holds;
  };
  auto run = std::make_shared<Run>();
  run->device = device_;
  run->inputs.assign(inputs_.size(), nullptr);
  run->outputs.assign(outputs_.size(), nullptr);
  Status status = CheckDatasets(input, output, "aclmdlExecuteAsync", &run->inputs, &run->outputs);
  if (!status.ok()) return status;
  for (const auto *side : {&run->inputs, &run->outputs}) {
    for (void *buffer : *side) {
      if (buffer != nullptr) run->holds.push_back(device_->Hold(buffer));
    }
  }
  {
    std::lock_guard<std::mutex> lock(execute_mutex_);  // Execute patches steps_' slots
    for (const Step &step : steps_) {
      Step copy;
      copy.description = step.description;
      if (step.launch) copy.launch = step.launch->Clone();
      copy.patches = step.patches;
      copy.src = step.src;
      copy.dst = step.dst;
      copy.copy_size = step.copy_size;
      run->steps.push_back(std::move(copy));
    }
  }
  // The model (its feature map and constants) outlives the queued run even if unloaded first.
  std::shared_ptr<LoadedModel> self = shared_from_this();
  target.value()->Enqueue(
      [run, self]() { return RunSteps(run->steps, run->inputs, run->outputs, "aclmdlExecuteAsync", self->name_); });
  return Status::Ok();
}

}  // namespace asc_twin::model
