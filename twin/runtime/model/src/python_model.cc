#include "twin/runtime/model/src/python_model.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

namespace asc_twin::model {
namespace {

constexpr const char *kBridgeModule = "ge._runtime.python_model";

std::string DimsText(const std::vector<int64_t> &dims) {
  std::string text = "[";
  for (size_t k = 0; k < dims.size(); ++k) text += (k ? "," : "") + std::to_string(dims[k]);
  return text + "]";
}

std::string RangesText(const std::vector<std::pair<int64_t, int64_t>> &ranges) {
  std::string text = "[";
  for (size_t k = 0; k < ranges.size(); ++k) {
    text += (k ? "," : "") + std::to_string(ranges[k].first);
    if (ranges[k].second != ranges[k].first) {
      text += "~" + (ranges[k].second < 0 ? std::string("inf") : std::to_string(ranges[k].second));
    }
  }
  return text + "]";
}

// True if `path` names this process's executable (the runtime linked in statically).
bool IsExecutable(const std::string &path) {
  char resolved[PATH_MAX], exe[PATH_MAX];
  if (realpath(path.c_str(), resolved) == nullptr || realpath("/proc/self/exe", exe) == nullptr) return false;
  return std::strcmp(resolved, exe) == 0;
}

void PutI64(std::string *out, int64_t value) { out->append(reinterpret_cast<const char *>(&value), sizeof(value)); }

// Reads the int64 at `*at` of `packed`; false past the end.
bool GetI64(const std::string &packed, size_t *at, int64_t *value) {
  if (*at + sizeof(int64_t) > packed.size()) return false;
  std::memcpy(value, packed.data() + *at, sizeof(int64_t));
  *at += sizeof(int64_t);
  return true;
}

std::string TensorName(const char *what, size_t index, const TensorInfo &tensor) {
  return std::string(what) + " " + std::to_string(index) + " (" + tensor.name + ")";
}

}  // namespace

StatusOr<std::unique_ptr<PythonModel>> PythonModel::Load(const std::string &bytes, const om::OmContainer &container,
                                                         std::vector<TensorInfo> inputs,
                                                         std::vector<TensorInfo> outputs, const std::string &prefix) {
  const std::string model = "model " + container.model_def.name();
  // pyACL inside the interpreter binds libascendcl by file: it must be this very library.
  const std::string library = EmbeddedPython::RuntimeLibraryPath();
  if (library.empty() || IsExecutable(library)) {
    return Status(ACL_ERROR_FEATURE_UNSUPPORTED,
                  prefix + model +
                      " runs through Python, which needs the ACL runtime as the shared library "
                      "libascendcl.so (link with -lascendcl); this program has it linked in statically");
  }
  Status python = EmbeddedPython::Ensure(prefix.substr(0, prefix.size() - 2).c_str());
  if (!python.ok()) return Status(python.code(), python.message() + " (" + model + " needs it to run)");
  std::unique_ptr<PythonModel> result(new PythonModel());
  result->name_ = container.model_def.name();
  result->inputs_ = std::move(inputs);
  result->outputs_ = std::move(outputs);
  GilLock gil;
  StatusOr<PyRef> bridge = EmbeddedPython::Import(kBridgeModule, ACL_ERROR_FEATURE_UNSUPPORTED);
  if (!bridge.ok()) {
    return Status(bridge.status().code(),
                  prefix + model + " needs the Python environment: " + bridge.status().message());
  }
  StatusOr<PyRef> loaded = EmbeddedPython::Call(bridge.value(), "load", &bytes, &library, ACL_ERROR_GE_FAILURE);
  if (!loaded.ok()) return Status(loaded.status().code(), prefix + loaded.status().message());
  result->model_ = std::move(loaded.value());
  return result;
}

PythonModel::~PythonModel() {
  if (!model_) return;
  GilLock gil;
  (void)EmbeddedPython::Call(model_, "close", nullptr, nullptr, ACL_ERROR_GE_FAILURE);
  model_ = PyRef();
}

Status PythonModel::InputShape(const aclmdlDataset &input, size_t index, std::vector<int64_t> *dims) const {
  const TensorInfo &tensor = inputs_[index];
  const aclTensorDesc *desc = index < input.tensor_descs.size() ? input.tensor_descs[index].get() : nullptr;
  if (desc == nullptr) {
    for (int64_t dim : tensor.dims) {
      if (dim < 0) {
        return Status(ACL_ERROR_MODEL_INPUT_NOT_MATCH, TensorName("input", index, tensor) + " has dynamic dims " +
                                                           DimsText(tensor.dims) +
                                                           "; give this run's shape with aclmdlSetDatasetTensorDesc");
      }
    }
    *dims = tensor.dims;
    return Status::Ok();
  }
  *dims = desc->dims;
  bool fits = dims->size() == tensor.ranges.size();
  for (size_t k = 0; fits && k < dims->size(); ++k) {
    const auto &range = tensor.ranges[k];
    fits = (*dims)[k] >= range.first && (range.second < 0 || (*dims)[k] <= range.second);
  }
  if (!fits) {
    return Status(ACL_ERROR_MODEL_INPUT_NOT_MATCH, TensorName("input", index, tensor) + " shape " + DimsText(*dims) +
                                                       " is outside the model's range " + RangesText(tensor.ranges));
  }
  return Status::Ok();
}

Status PythonModel::Execute(const aclmdlDataset &input, aclmdlDataset *output, DeviceAccess &device,
                            const std::string &prefix) {
  const std::string head = prefix + "model " + name_ + ": ";
  std::string packed;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    std::vector<int64_t> dims;
    Status shape = InputShape(input, i, &dims);
    if (!shape.ok()) return Status(shape.code(), head + shape.message());
    size_t bytes = DataTypeBytes(inputs_[i].data_type);
    const aclDataBuffer *buffer = input.buffers[i];
    const std::string name = TensorName("input", i, inputs_[i]);
    if (bytes == 0) {
      return Status(ACL_ERROR_MODEL_INPUT_NOT_MATCH, head + name + " has data type " +
                                                         std::to_string(inputs_[i].data_type) +
                                                         ", whose element size the runtime does not know");
    }
    for (int64_t dim : dims) bytes *= static_cast<size_t>(dim);
    if (buffer->data == nullptr)
      return Status(ACL_ERROR_MODEL_INPUT_NOT_MATCH, head + name + " buffer address is null");
    if (buffer->size < bytes || (bytes > 0 && !device.IsDeviceMemory(buffer->data, bytes))) {
      return Status(ACL_ERROR_MODEL_INPUT_NOT_MATCH,
                    head + name + " shape " + DimsText(dims) + " needs " + std::to_string(bytes) +
                        " bytes of device memory; the buffer holds " + std::to_string(buffer->size) +
                        (buffer->size < bytes ? "" : " but is not device memory (allocate it with aclrtMalloc)"));
    }
    PutI64(&packed, static_cast<int64_t>(reinterpret_cast<uintptr_t>(buffer->data)));
    PutI64(&packed, static_cast<int64_t>(bytes));
    PutI64(&packed, static_cast<int64_t>(dims.size()));
    for (int64_t dim : dims) PutI64(&packed, dim);
  }
  std::string results;
  {
    GilLock gil;
    StatusOr<PyRef> returned = EmbeddedPython::Call(model_, "execute", &packed, nullptr, ACL_ERROR_GE_FAILURE);
    if (!returned.ok()) return Status(returned.status().code(), prefix + returned.status().message());
    StatusOr<std::string> data = EmbeddedPython::Bytes(returned.value(), ACL_ERROR_GE_FAILURE);
    if (!data.ok()) return Status(data.status().code(), head + data.status().message());
    results = std::move(data.value());
  }
  size_t at = 0;
  int64_t count = 0;
  if (!GetI64(results, &at, &count) || count != static_cast<int64_t>(outputs_.size())) {
    return Status(ACL_ERROR_GE_FAILURE, head + "the Python executor returned a malformed result");
  }
  for (size_t j = 0; j < outputs_.size(); ++j) {
    int64_t addr = 0, bytes = 0, rank = 0;
    if (!GetI64(results, &at, &addr) || !GetI64(results, &at, &bytes) || !GetI64(results, &at, &rank) || bytes < 0 ||
        rank < 0 || rank > ACL_MAX_DIM_CNT) {
      return Status(ACL_ERROR_GE_FAILURE, head + "the Python executor returned a malformed result");
    }
    aclTensorDesc desc;
    desc.data_type = static_cast<aclDataType>(outputs_[j].data_type);
    desc.format = static_cast<aclFormat>(outputs_[j].format);
    desc.dims.resize(static_cast<size_t>(rank));
    for (int64_t &dim : desc.dims) {
      if (!GetI64(results, &at, &dim))
        return Status(ACL_ERROR_GE_FAILURE, head + "the Python executor returned a malformed result");
    }
    aclDataBuffer *buffer = output->buffers[j];
    const std::string name = TensorName("output", j, outputs_[j]);
    if (buffer->data == nullptr && buffer->size == 0) {
      // CANN: an empty output buffer asks the runtime to allocate it; the caller frees it.
      StatusOr<void *> memory = device.Malloc(static_cast<size_t>(bytes > 0 ? bytes : 1));
      if (!memory.ok())
        return Status(
            memory.status().code(),
            std::string(head).append("cannot allocate ").append(name).append(": ").append(memory.status().message()));
      buffer->data = memory.value();
      buffer->size = static_cast<size_t>(bytes);
    }
    if (buffer->data == nullptr || buffer->size < static_cast<size_t>(bytes) ||
        (bytes > 0 && !device.IsDeviceMemory(buffer->data, static_cast<size_t>(bytes)))) {
      return Status(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
                    head + name + " of shape " + DimsText(desc.dims) + " needs " + std::to_string(bytes) +
                        " bytes of device memory; the buffer holds " + std::to_string(buffer->size) +
                        (buffer->data == nullptr ? " at a null address" : ""));
    }
    if (bytes > 0) std::memmove(buffer->data, reinterpret_cast<const void *>(static_cast<uintptr_t>(addr)), bytes);
    output->StoreTensorDesc(j, desc);
  }
  return Status::Ok();
}

}  // namespace asc_twin::model
