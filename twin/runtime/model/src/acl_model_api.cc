// The ACL model API: load (file or memory), unload, describe, execute.
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "twin/common/file/regular_file.h"
#include "twin/om/om_format.h"
#include "twin/runtime/model/src/loaded_model.h"
#include "twin/runtime/model/src/model_registry.h"
#include "twin/runtime/model/src/live_objects.h"
#include "twin/runtime/model/src/model_types.h"
#include "twin/runtime/model/src/runtime_adapter.h"

using asc_twin::model::DeviceAccess;
using asc_twin::model::FindModel;
using asc_twin::model::InvalidModelId;
using asc_twin::model::LoadedModel;
using asc_twin::model::ReportError;
using asc_twin::model::Status;
using asc_twin::model::StatusOr;
using asc_twin::model::TensorInfo;

namespace {

aclError Fail(aclError code, const std::string &message, const char *file = __builtin_FILE(),
              int line = __builtin_LINE()) {
  return ReportError(Status(code, message), file, line);
}

aclError NullArgument(const char *api, const char *name) {
  return Fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + name + " is null");
}

aclError NotInitialized(const char *api) {
  return Fail(ACL_ERROR_UNINITIALIZE, std::string(api) + ": ACL is not initialized; call aclInit first");
}

aclError LoadAndRegister(const void *data, size_t size, uint32_t *model_id, const char *api) {
  StatusOr<std::shared_ptr<LoadedModel>> model = LoadedModel::Load(data, size, api);
  if (!model.ok()) return ReportError(model.status());
  *model_id = asc_twin::model::RegisterModel(model.value());
  return ACL_SUCCESS;
}

// Reads a model file: a regular file only (never blocking), refused from its header — magic,
// version, declared size against the file's — before the rest is read, so a 3 GiB file that is
// not an OM costs 128 bytes of reading.
Status ReadModelFile(const char *path, std::vector<uint8_t> *bytes) {
  const std::string what = std::string("aclmdlLoadFromFile: model file '") + path + "'";
  asc_twin::file::RegularFile file;
  std::string cause;
  if (!file.Open(path, &cause)) return Status(ACL_ERROR_INVALID_FILE, what + " " + cause);
  if (file.size() == 0) return Status(ACL_ERROR_INVALID_FILE_SIZE, what + " is empty");
  if (file.size() > SIZE_MAX / 2) return Status(ACL_ERROR_INVALID_FILE_SIZE, what + " is too large");
  const size_t head =
      file.size() < asc_twin::om::kHeaderSize ? static_cast<size_t>(file.size()) : asc_twin::om::kHeaderSize;
  if (!file.ReadAt(0, head, bytes, &cause)) return Status(ACL_ERROR_INVALID_FILE, what + " " + cause);
  Status header = LoadedModel::CheckFileHeader(bytes->data(), head, file.size(), "aclmdlLoadFromFile");
  if (!header.ok()) return header;
  if (!file.ReadAt(0, static_cast<size_t>(file.size()), bytes, &cause)) {
    return Status(ACL_ERROR_INVALID_FILE, what + " " + cause);
  }
  return Status::Ok();
}

const TensorInfo *DescTensor(const aclmdlDesc *desc, size_t index, bool input) {
  if (desc == nullptr || !desc->filled) return nullptr;
  const std::vector<TensorInfo> &tensors = input ? desc->inputs : desc->outputs;
  return index < tensors.size() ? &tensors[index] : nullptr;
}

aclError GetDims(const aclmdlDesc *desc, size_t index, aclmdlIODims *dims, bool input) {
  const char *api = input ? "aclmdlGetInputDims" : "aclmdlGetOutputDims";
  if (desc == nullptr) return NullArgument(api, "modelDesc");
  if (dims == nullptr) return NullArgument(api, "dims");
  const TensorInfo *tensor = DescTensor(desc, index, input);
  if (tensor == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(api) + ": index " + std::to_string(index) +
                                             " is out of range (or the desc was never filled by aclmdlGetDesc)");
  }
  if (tensor->dims.size() > ACL_MAX_DIM_CNT) {
    return Fail(ACL_ERROR_STORAGE_OVER_LIMIT,
                std::string(api) + ": " + std::to_string(tensor->dims.size()) + " dims exceed ACL_MAX_DIM_CNT");
  }
  std::memset(dims->name, 0, sizeof(dims->name));
  std::strncpy(dims->name, tensor->name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = tensor->dims.size();
  for (size_t i = 0; i < tensor->dims.size(); ++i) dims->dims[i] = tensor->dims[i];
  return ACL_SUCCESS;
}

aclError GetIndexByName(const aclmdlDesc *desc, const char *name, size_t *index, bool input) {
  const char *api = input ? "aclmdlGetInputIndexByName" : "aclmdlGetOutputIndexByName";
  if (desc == nullptr) return NullArgument(api, "modelDesc");
  if (name == nullptr) return NullArgument(api, "name");
  if (index == nullptr) return NullArgument(api, "index");
  const std::vector<TensorInfo> &tensors = input ? desc->inputs : desc->outputs;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (tensors[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  }
  return Fail(ACL_ERROR_INVALID_PARAM,
              std::string(api) + ": the model has no " + (input ? "input" : "output") + " named '" + name + "'");
}

}  // namespace

extern "C" {

aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  constexpr const char *kApi = "aclmdlLoadFromFile";
  if (modelPath == nullptr) return NullArgument(kApi, "modelPath");
  if (modelId == nullptr) return NullArgument(kApi, "modelId");
  if (!DeviceAccess::Initialized()) return NotInitialized(kApi);
  std::vector<uint8_t> bytes;
  Status read = ReadModelFile(modelPath, &bytes);
  if (!read.ok()) return ReportError(read);
  return LoadAndRegister(bytes.data(), bytes.size(), modelId, kApi);
}

aclError aclmdlLoadFromMem(const void *model, size_t modelSize, uint32_t *modelId) {
  constexpr const char *kApi = "aclmdlLoadFromMem";
  if (model == nullptr) return NullArgument(kApi, "model");
  if (modelId == nullptr) return NullArgument(kApi, "modelId");
  if (modelSize == 0) return Fail(ACL_ERROR_INVALID_PARAM, std::string(kApi) + ": modelSize is 0");
  if (!DeviceAccess::Initialized()) return NotInitialized(kApi);
  return LoadAndRegister(model, modelSize, modelId, kApi);
}

aclError aclmdlUnload(uint32_t modelId) {
  std::shared_ptr<LoadedModel> model = FindModel(modelId);
  if (model == nullptr || !asc_twin::model::UnregisterModel(modelId)) {
    return ReportError(InvalidModelId("aclmdlUnload", modelId));
  }
  // A model from before aclFinalize is gone with its runtime (CANN frees every model there):
  // its id is dropped, and the unload says it was no longer loaded.
  Status unloadable = model->CheckUnloadable("aclmdlUnload");
  if (!unloadable.ok()) return ReportError(unloadable);
  return ACL_SUCCESS;
}

// Datasets (and their buffers) must be live: a destroyed one is refused, not read.
static Status CheckDatasets(const char *api, const aclmdlDataset *input, const aclmdlDataset *output) {
  using asc_twin::model::LiveObjects;
  for (const aclmdlDataset *dataset : {input, output}) {
    if (dataset == nullptr) continue;  // the executor reports null datasets itself
    if (!LiveObjects<aclmdlDataset>::Get().Contains(dataset)) {
      return Status(dataset == input ? ACL_ERROR_MODEL_INPUT_NOT_MATCH : ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
                    std::string(api) + ": the " + (dataset == input ? "input" : "output") +
                        " dataset is not live (never created or already destroyed)");
    }
    for (const aclDataBuffer *buffer : dataset->buffers) {
      if (!LiveObjects<aclDataBuffer>::Get().Contains(buffer)) {
        return Status(dataset == input ? ACL_ERROR_MODEL_INPUT_NOT_MATCH : ACL_ERROR_MODEL_OUTPUT_NOT_MATCH,
                      std::string(api) + ": a buffer of the " + (dataset == input ? "input" : "output") +
                          " dataset was destroyed (aclDestroyDataBuffer) while still in it");
      }
    }
  }
  return Status::Ok();
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output) {
  std::shared_ptr<LoadedModel> model = FindModel(modelId);
  if (!model) return ReportError(InvalidModelId("aclmdlExecute", modelId));
  if (!DeviceAccess::Initialized()) return NotInitialized("aclmdlExecute");
  Status live = CheckDatasets("aclmdlExecute", input, output);
  if (!live.ok()) return ReportError(live);
  return ReportError(model->Execute(input, output));
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input, aclmdlDataset *output, aclrtStream stream) {
  std::shared_ptr<LoadedModel> model = FindModel(modelId);
  if (!model) return ReportError(InvalidModelId("aclmdlExecuteAsync", modelId));
  if (!DeviceAccess::Initialized()) return NotInitialized("aclmdlExecuteAsync");
  Status live = CheckDatasets("aclmdlExecuteAsync", input, output);
  if (!live.ok()) return ReportError(live);
  return ReportError(model->ExecuteAsync(input, output, stream));
}

aclmdlDesc *aclmdlCreateDesc() {
  return asc_twin::model::LiveObjects<aclmdlDesc>::Get().Add(new (std::nothrow) aclmdlDesc());
}

aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  if (modelDesc == nullptr) return NullArgument("aclmdlDestroyDesc", "modelDesc");
  if (!asc_twin::model::LiveObjects<aclmdlDesc>::Get().Retire(modelDesc)) {
    return ReportError(Status(ACL_ERROR_INVALID_PARAM,
                              "aclmdlDestroyDesc: the aclmdlDesc is not live (never created or already destroyed)"));
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) {
  if (modelDesc == nullptr) return NullArgument("aclmdlGetDesc", "modelDesc");
  if (!asc_twin::model::LiveObjects<aclmdlDesc>::Get().Contains(modelDesc)) {
    return ReportError(Status(ACL_ERROR_INVALID_PARAM,
                              "aclmdlGetDesc: the aclmdlDesc is not live (never created or already destroyed)"));
  }
  std::shared_ptr<LoadedModel> model = FindModel(modelId);
  if (!model) return ReportError(InvalidModelId("aclmdlGetDesc", modelId));
  modelDesc->model_id = modelId;
  modelDesc->inputs = model->inputs();
  modelDesc->outputs = model->outputs();
  modelDesc->filled = true;
  return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc) { return modelDesc == nullptr ? 0 : modelDesc->inputs.size(); }
size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc) { return modelDesc == nullptr ? 0 : modelDesc->outputs.size(); }

size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, true);
  return tensor == nullptr ? 0 : tensor->size;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, false);
  return tensor == nullptr ? 0 : tensor->size;
}

const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, true);
  return tensor == nullptr ? "" : tensor->name.c_str();
}

const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, false);
  return tensor == nullptr ? "" : tensor->name.c_str();
}

aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  return GetDims(modelDesc, index, dims, true);
}

aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index, aclmdlIODims *dims) {
  return GetDims(modelDesc, index, dims, false);
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, true);
  return tensor == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(tensor->data_type);
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, false);
  return tensor == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(tensor->data_type);
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, true);
  return tensor == nullptr ? ACL_FORMAT_UNDEFINED : static_cast<aclFormat>(tensor->format);
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index) {
  const TensorInfo *tensor = DescTensor(modelDesc, index, false);
  return tensor == nullptr ? ACL_FORMAT_UNDEFINED : static_cast<aclFormat>(tensor->format);
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc *modelDesc, size_t index, aclmdlIODimsRange *dimsRange) {
  constexpr const char *kApi = "aclmdlGetInputDimsRange";
  if (modelDesc == nullptr) return NullArgument(kApi, "modelDesc");
  if (dimsRange == nullptr) return NullArgument(kApi, "dimsRange");
  const TensorInfo *tensor = DescTensor(modelDesc, index, true);
  if (tensor == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(kApi) + ": index " + std::to_string(index) +
                                             " is out of range (or the desc was never filled by aclmdlGetDesc)");
  }
  if (tensor->dims.size() > ACL_MAX_DIM_CNT) {
    return Fail(ACL_ERROR_STORAGE_OVER_LIMIT,
                std::string(kApi) + ": " + std::to_string(tensor->dims.size()) + " dims exceed ACL_MAX_DIM_CNT");
  }
  dimsRange->rangeCount = tensor->dims.size();
  for (size_t k = 0; k < tensor->dims.size(); ++k) {
    const bool ranged = k < tensor->ranges.size();
    dimsRange->range[k][0] = ranged ? tensor->ranges[k].first : tensor->dims[k];
    dimsRange->range[k][1] = ranged ? tensor->ranges[k].second : tensor->dims[k];
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  return GetIndexByName(modelDesc, name, index, true);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc, const char *name, size_t *index) {
  return GetIndexByName(modelDesc, name, index, false);
}

}  // extern "C"
