#include "twin/om/model_def_check.h"

namespace asc_twin::om {
namespace {

bool RangeFits(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

std::string TaskName(const ModelDef &model, int task_index) {
  const TaskDef &task = model.tasks(task_index);
  std::string name = "task " + std::to_string(task_index);
  if (task.has_kernel()) name += " (kernel " + task.kernel().kernel_name() + " of node " + task.kernel().node_name() + ")";
  if (task.has_memcpy()) name += " (memcpy)";
  return name;
}

// Checks one binding; `what` names it for the message.
bool CheckBinding(const OmContainer &container, const Binding &binding, const std::string &what, std::string *why) {
  const ModelDef &model = container.model_def;
  switch (binding.kind_case()) {
    case Binding::kInput:
      if (binding.input() >= static_cast<uint32_t>(model.inputs_size())) {
        *why = what + " refers to input " + std::to_string(binding.input()) + " but the model has " +
               std::to_string(model.inputs_size()) + " inputs";
        return false;
      }
      return true;
    case Binding::kOutput:
      if (binding.output() >= static_cast<uint32_t>(model.outputs_size())) {
        *why = what + " refers to output " + std::to_string(binding.output()) + " but the model has " +
               std::to_string(model.outputs_size()) + " outputs";
        return false;
      }
      return true;
    case Binding::kFeatureMap:
      if (!RangeFits(binding.feature_map().offset(), binding.feature_map().size(), model.feature_map_size())) {
        *why = what + " feature-map region [offset " + std::to_string(binding.feature_map().offset()) + ", size " +
               std::to_string(binding.feature_map().size()) + "] exceeds feature_map_size " +
               std::to_string(model.feature_map_size());
        return false;
      }
      return true;
    case Binding::kConstant:
      if (!RangeFits(binding.constant().offset(), binding.constant().size(), container.constants.size)) {
        *why = what + " constant region [offset " + std::to_string(binding.constant().offset()) + ", size " +
               std::to_string(binding.constant().size()) + "] exceeds the " +
               std::to_string(container.constants.size) + "-byte CONSTANTS partition";
        return false;
      }
      return true;
    case Binding::kScalar:
      return true;
    case Binding::KIND_NOT_SET:
      break;
  }
  *why = what + " has no binding kind";
  return false;
}

bool CheckTensors(const ModelDef &model, std::string *why) {
  for (int io = 0; io < 2; ++io) {
    const auto &tensors = io == 0 ? model.inputs() : model.outputs();
    const char *what = io == 0 ? "input " : "output ";
    for (int i = 0; i < tensors.size(); ++i) {
      for (int64_t dim : tensors[i].dims()) {
        if (dim < 0) {
          *why = std::string(what) + std::to_string(i) + " (" + tensors[i].name() + ") has dynamic dim " +
                 std::to_string(dim) + "; only static shapes are supported";
          return false;
        }
      }
    }
  }
  return true;
}

bool CheckKernelTask(const OmContainer &container, int index, std::string *why) {
  const ModelDef &model = container.model_def;
  const KernelTask &kernel = model.tasks(index).kernel();
  const std::string name = TaskName(model, index);
  if (kernel.kernel_binary_index() >= container.kernel_binaries.size()) {
    *why = name + " refers to kernel binary " + std::to_string(kernel.kernel_binary_index()) + " but the OM holds " +
           std::to_string(container.kernel_binaries.size());
    return false;
  }
  if (kernel.kernel_name().empty()) {
    *why = name + " has an empty kernel name";
    return false;
  }
  if (kernel.block_dim() == 0 || kernel.block_dim() > kMaxBlockDim) {
    *why = name + " block_dim " + std::to_string(kernel.block_dim()) + " is outside [1, " +
           std::to_string(kMaxBlockDim) + "]";
    return false;
  }
  if (kernel.args_size() > kMaxKernelArgs) {
    *why = name + " has " + std::to_string(kernel.args_size()) + " argument slots (at most " +
           std::to_string(kMaxKernelArgs) + ")";
    return false;
  }
  for (int a = 0; a < kernel.args_size(); ++a) {
    if (!CheckBinding(container, kernel.args(a), name + " argument " + std::to_string(a), why)) return false;
  }
  return true;
}

bool CheckMemcpyTask(const OmContainer &container, int index, std::string *why) {
  const ModelDef &model = container.model_def;
  const MemcpyTask &copy = model.tasks(index).memcpy();
  const std::string name = TaskName(model, index);
  if (!CheckBinding(container, copy.src(), name + " source", why)) return false;
  if (!CheckBinding(container, copy.dst(), name + " destination", why)) return false;
  if (copy.src().has_scalar() || copy.dst().has_scalar()) {
    *why = name + " copies from or to a scalar; both ends must be memory";
    return false;
  }
  if (copy.dst().has_input() || copy.dst().has_constant()) {
    *why = name + " writes to a model input or a constant; the destination must be an output or the feature map";
    return false;
  }
  if (copy.size() == 0 || copy.size() > BindingSize(model, copy.src()) || copy.size() > BindingSize(model, copy.dst())) {
    *why = name + " size " + std::to_string(copy.size()) + " is 0 or exceeds its source (" +
           std::to_string(BindingSize(model, copy.src())) + " bytes) or destination (" +
           std::to_string(BindingSize(model, copy.dst())) + " bytes)";
    return false;
  }
  return true;
}

}  // namespace

uint64_t BindingSize(const ModelDef &model, const Binding &binding) {
  switch (binding.kind_case()) {
    case Binding::kInput:
      return binding.input() < static_cast<uint32_t>(model.inputs_size()) ? model.inputs(binding.input()).size() : 0;
    case Binding::kOutput:
      return binding.output() < static_cast<uint32_t>(model.outputs_size()) ? model.outputs(binding.output()).size()
                                                                             : 0;
    case Binding::kFeatureMap:
      return binding.feature_map().size();
    case Binding::kConstant:
      return binding.constant().size();
    default:
      return 0;
  }
}

bool CheckModelDef(const OmContainer &container, ReadErrorKind *kind, std::string *why) {
  const ModelDef &model = container.model_def;
  *kind = ReadErrorKind::kModelDefMismatch;
  if (model.format_version() != container.format_version) {
    *why = "ModelDef format_version " + std::to_string(model.format_version()) + " differs from the header's " +
           std::to_string(container.format_version);
    return false;
  }
  if (model.soc_version() != container.soc_version || model.npu_arch() != container.npu_arch) {
    *why = "ModelDef target " + model.soc_version() + " (NpuArch " + std::to_string(model.npu_arch()) +
           ") differs from the header's " + container.soc_version + " (NpuArch " +
           std::to_string(container.npu_arch) + ")";
    return false;
  }
  *kind = ReadErrorKind::kBadModelField;
  if (!CheckTensors(model, why)) return false;
  for (int t = 0; t < model.tasks_size(); ++t) {
    const TaskDef &task = model.tasks(t);
    if (task.has_kernel()) {
      if (!CheckKernelTask(container, t, why)) return false;
    } else if (task.has_memcpy()) {
      if (!CheckMemcpyTask(container, t, why)) return false;
    } else {
      *why = "task " + std::to_string(t) + " is neither a kernel nor a memcpy task";
      return false;
    }
  }
  return true;
}

}  // namespace asc_twin::om
