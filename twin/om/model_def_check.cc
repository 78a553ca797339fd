#include "twin/om/model_def_check.h"

#include <cstdint>
#include <cstdio>

#include "twin/graph/proto/air.pb.h"

namespace asc_twin::om {
namespace {

// What the GRAPH partition must hold (twin/graph/proto/air.proto's writer rules).
constexpr const char *kAirMagic = "ge.twin.air";
constexpr uint32_t kAirFormatVersion = 1;
constexpr uint32_t kAirEndMarker = 0x52494121u;

bool RangeFits(uint64_t offset, uint64_t size, uint64_t limit) { return offset <= limit && size <= limit - offset; }

std::string TaskName(const ModelDef &model, int task_index) {
  const TaskDef &task = model.tasks(task_index);
  std::string name = "task " + std::to_string(task_index);
  if (task.has_kernel())
    name += " (kernel " + task.kernel().kernel_name() + " of node " + task.kernel().node_name() + ")";
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
               std::to_string(binding.constant().size()) + "] exceeds the " + std::to_string(container.constants.size) +
               "-byte CONSTANTS partition";
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

std::string TensorName(const char *what, int index, const TensorDef &tensor) {
  return std::string(what) + " " + std::to_string(index) + " (" + tensor.name() + ")";
}

std::string DimsText(const TensorDef &tensor) {
  std::string text = "[";
  for (int k = 0; k < tensor.dims_size(); ++k) text += (k ? "," : "") + std::to_string(tensor.dims(k));
  return text + "]";
}

bool CheckTensors(const ModelDef &model, std::string *why) {
  for (int io = 0; io < 2; ++io) {
    const auto &tensors = io == 0 ? model.inputs() : model.outputs();
    const char *what = io == 0 ? "input" : "output";
    for (int i = 0; i < tensors.size(); ++i) {
      for (int64_t dim : tensors[i].dims()) {
        if (dim < 0) {
          *why = TensorName(what, i, tensors[i]) + " has dynamic dim " + std::to_string(dim) +
                 "; only a model that runs through Python (format version 2) may have one";
          return false;
        }
      }
      if (tensors[i].dim_ranges_size() > 0) {
        *why = TensorName(what, i, tensors[i]) +
               " has dim ranges; only inputs of a model that runs through Python (format version 2) may have them";
        return false;
      }
    }
  }
  return true;
}

// A Python-run model's tensor: dims are sizes or -1 (or [-2], unknown rank); a dynamic tensor
// has size 0; each input dim has a range, {d, d} for a static dim d.
bool CheckPythonTensor(const TensorDef &tensor, const std::string &name, bool is_input, std::string *why) {
  const bool unknown_rank = tensor.dims_size() == 1 && tensor.dims(0) == -2;
  bool dynamic = unknown_rank;
  for (int64_t dim : tensor.dims()) {
    if (dim < -1 && !unknown_rank) {
      *why = name + " has dim " + std::to_string(dim) + "; dims are sizes, -1 (dynamic) or [-2] (unknown rank)";
      return false;
    }
    dynamic = dynamic || dim == -1;
  }
  if (dynamic && tensor.size() != 0) {
    *why =
        name + " has dynamic dims " + DimsText(tensor) + " but size " + std::to_string(tensor.size()) + " (must be 0)";
    return false;
  }
  if (!is_input) {
    if (tensor.dim_ranges_size() > 0) {
      *why = name + " has dim ranges; only inputs have them";
      return false;
    }
    return true;
  }
  if (unknown_rank || tensor.dim_ranges_size() != tensor.dims_size()) {
    *why = name + " has " + std::to_string(tensor.dim_ranges_size()) + " dim ranges for dims " + DimsText(tensor) +
           " (one per dim)";
    return false;
  }
  for (int k = 0; k < tensor.dims_size(); ++k) {
    const int64_t dim = tensor.dims(k);
    const DimRange &range = tensor.dim_ranges(k);
    const std::string range_text = "[" + std::to_string(range.min()) + ", " + std::to_string(range.max()) + "]";
    if (dim >= 0 && (range.min() != dim || range.max() != dim)) {
      *why = std::string(name)
                 .append(" dim ")
                 .append(std::to_string(k))
                 .append(" is ")
                 .append(std::to_string(dim))
                 .append(" but its range is ")
                 .append(range_text);
      return false;
    }
    if (dim < 0 && (range.min() < 0 || (range.max() != -1 && range.max() < range.min()))) {
      *why = std::string(name)
                 .append(" dim ")
                 .append(std::to_string(k))
                 .append(" has range ")
                 .append(range_text)
                 .append(" (need 0 <= min <= max, or max -1)");
      return false;
    }
  }
  return true;
}

// A model that runs through Python: its graph (GRAPH partition) does the work, so it has no
// tasks, kernel binaries, constants or feature map of its own.
bool CheckPythonModel(const OmContainer &container, std::string *why) {
  const ModelDef &model = container.model_def;
  if (model.tasks_size() > 0 || !container.kernel_binaries.empty() || container.constants.size > 0 ||
      model.feature_map_size() > 0) {
    *why = "a model that runs through Python has " + std::to_string(model.tasks_size()) + " tasks, " +
           std::to_string(container.kernel_binaries.size()) + " kernel binaries, " +
           std::to_string(container.constants.size) + " constant bytes and feature_map_size " +
           std::to_string(model.feature_map_size()) + " (all must be 0: its graph runs them)";
    return false;
  }
  for (int i = 0; i < model.inputs_size(); ++i) {
    if (!CheckPythonTensor(model.inputs(i), TensorName("input", i, model.inputs(i)), true, why)) return false;
  }
  for (int i = 0; i < model.outputs_size(); ++i) {
    if (!CheckPythonTensor(model.outputs(i), TensorName("output", i, model.outputs(i)), false, why)) return false;
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
  if (copy.size() == 0 || copy.size() > BindingSize(model, copy.src()) ||
      copy.size() > BindingSize(model, copy.dst())) {
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
           ") differs from the header's " + container.soc_version + " (NpuArch " + std::to_string(container.npu_arch) +
           ")";
    return false;
  }
  *kind = ReadErrorKind::kBadModelField;
  if (container.requires_python()) return CheckPythonModel(container, why);
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

bool CheckGraph(const OmContainer &container, std::string *why) {
  ge::twin::air::Model air;
  if (container.graph.size > static_cast<size_t>(INT32_MAX) ||
      !air.ParseFromArray(container.graph.data, static_cast<int>(container.graph.size))) {
    *why = "the GRAPH partition does not parse as an AIR model (" + std::to_string(container.graph.size) + " bytes)";
    return false;
  }
  if (air.magic() != kAirMagic || air.format_version() < 1 || air.format_version() > kAirFormatVersion ||
      air.end_marker() != kAirEndMarker) {
    char marker[16];
    std::snprintf(marker, sizeof(marker), "0x%08X", air.end_marker());
    *why = "the GRAPH partition is not an AIR model of format version 1 (magic '" + air.magic() + "', version " +
           std::to_string(air.format_version()) + ", end marker " + marker + ")";
    return false;
  }
  const ModelDef &model = container.model_def;
  if (air.graph().input_nodes_size() != model.inputs_size() || air.graph().outputs_size() != model.outputs_size()) {
    *why = "the GRAPH partition's graph has " + std::to_string(air.graph().input_nodes_size()) + " inputs and " +
           std::to_string(air.graph().outputs_size()) + " outputs, the model " + std::to_string(model.inputs_size()) +
           " and " + std::to_string(model.outputs_size());
    return false;
  }
  for (int i = 0; i < model.inputs_size(); ++i) {
    if (air.graph().input_nodes(i) != model.inputs(i).name()) {
      *why = "the GRAPH partition's input " + std::to_string(i) + " is '" + air.graph().input_nodes(i) +
             "', the model's '" + model.inputs(i).name() + "'";
      return false;
    }
  }
  return true;
}

}  // namespace asc_twin::om
