#include "twin/ge/src/dynamic_run.h"

namespace ge_twin {
namespace {

// What one run allocates, released whatever happens.
struct RunMemory {
  std::vector<void *> device;
  std::vector<aclTensorDesc *> descs;
  ~RunMemory() {
    for (void *ptr : device) aclrtFree(ptr);
    for (aclTensorDesc *desc : descs) aclDestroyTensorDesc(desc);
  }
};

}  // namespace

std::string AclFailure(const char *call, aclError ret) {
  const char *recent = aclGetRecentErrMsg();
  return std::string(call) + " failed with ACL error " + std::to_string(ret) +
         (recent != nullptr && *recent != '\0' ? std::string(": ") + recent : std::string());
}

std::string ExecuteModel(uint32_t model_id, aclmdlDataset *input_set, aclmdlDataset *output_set, aclrtStream stream) {
  if (stream == nullptr) {
    const aclError ret = aclmdlExecute(model_id, input_set, output_set);
    return ret == ACL_SUCCESS ? "" : AclFailure("aclmdlExecute", ret);
  }
  aclError ret = aclmdlExecuteAsync(model_id, input_set, output_set, stream);
  if (ret != ACL_SUCCESS) return AclFailure("aclmdlExecuteAsync", ret);
  ret = aclrtSynchronizeStream(stream);
  return ret == ACL_SUCCESS ? "" : AclFailure("aclrtSynchronizeStream", ret);
}

bool HasDynamicDims(const std::vector<int64_t> &dims) {
  for (int64_t dim : dims) {
    if (dim < 0) return true;
  }
  return false;
}

std::string RunDynamic(uint32_t model_id, aclmdlDataset *input_set, aclmdlDataset *output_set,
                       const std::vector<HostInput> &inputs, aclrtStream stream, std::vector<HostOutput> *outputs) {
  RunMemory memory;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const HostInput &input = inputs[i];
    void *ptr = nullptr;
    aclError ret = aclrtMalloc(&ptr, input.size > 0 ? input.size : 1, ACL_MEM_MALLOC_NORMAL_ONLY);
    if (ret != ACL_SUCCESS) return AclFailure("aclrtMalloc (input)", ret);
    memory.device.push_back(ptr);
    if (input.size > 0) {
      ret = aclrtMemcpy(ptr, input.size, input.data, input.size, ACL_MEMCPY_HOST_TO_DEVICE);
      if (ret != ACL_SUCCESS) return AclFailure("aclrtMemcpy (input)", ret);
    }
    ret = aclUpdateDataBuffer(aclmdlGetDatasetBuffer(input_set, i), ptr, input.size);
    if (ret != ACL_SUCCESS) return AclFailure("aclUpdateDataBuffer", ret);
    aclTensorDesc *desc =
        aclCreateTensorDesc(input.dtype, static_cast<int>(input.dims.size()), input.dims.data(), ACL_FORMAT_ND);
    if (desc == nullptr) return "aclCreateTensorDesc returned null";
    memory.descs.push_back(desc);
    ret = aclmdlSetDatasetTensorDesc(input_set, desc, i);
    if (ret != ACL_SUCCESS) return AclFailure("aclmdlSetDatasetTensorDesc", ret);
  }
  const size_t output_count = aclmdlGetDatasetNumBuffers(output_set);
  for (size_t j = 0; j < output_count; ++j) {  // (nullptr, 0): the runtime allocates it
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(output_set, j), nullptr, 0);
  }
  std::string failure = ExecuteModel(model_id, input_set, output_set, stream);
  std::vector<HostOutput> results(output_count);
  for (size_t j = 0; j < output_count; ++j) {
    aclDataBuffer *buffer = aclmdlGetDatasetBuffer(output_set, j);
    void *ptr = aclGetDataBufferAddr(buffer);
    const size_t size = aclGetDataBufferSizeV2(buffer);
    if (ptr != nullptr) memory.device.push_back(ptr);  // the caller frees what the runtime allocated
    aclUpdateDataBuffer(buffer, nullptr, 0);
    if (!failure.empty()) continue;
    const aclTensorDesc *desc = aclmdlGetDatasetTensorDesc(output_set, j);
    if (desc == nullptr) {
      failure = "output " + std::to_string(j) + " has no shape after the run (aclmdlGetDatasetTensorDesc)";
      continue;
    }
    for (size_t k = 0; k < aclGetTensorDescNumDims(desc); ++k) {
      int64_t dim = 0;
      aclGetTensorDescDimV2(desc, k, &dim);
      results[j].dims.push_back(dim);
    }
    results[j].bytes.resize(size);
    const aclError ret =
        size == 0 ? ACL_SUCCESS : aclrtMemcpy(results[j].bytes.data(), size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST);
    if (ret != ACL_SUCCESS) failure = AclFailure("aclrtMemcpy (output)", ret);
  }
  for (size_t i = 0; i < inputs.size(); ++i) aclUpdateDataBuffer(aclmdlGetDatasetBuffer(input_set, i), nullptr, 0);
  if (failure.empty()) *outputs = std::move(results);
  return failure;
}

}  // namespace ge_twin
