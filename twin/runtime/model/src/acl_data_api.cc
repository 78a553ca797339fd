// aclDataBuffer and aclmdlDataset: plain host-side bookkeeping, usable before aclInit (as in
// CANN, where they are implemented in C without the runtime).
#include <cstdio>
#include <new>
#include <string>

#include "twin/runtime/model/src/live_objects.h"
#include "twin/runtime/model/src/model_types.h"
#include "twin/runtime/model/src/runtime_adapter.h"

using asc_twin::model::LiveObjects;
using asc_twin::model::ReportError;
using asc_twin::model::Status;

namespace {

aclError NullArgument(const char *api, const char *name) {
  return ReportError(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + name + " is null"));
}

aclError NotLive(const char *api, const char *what, const void *handle) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", handle);
  return ReportError(Status(ACL_ERROR_INVALID_PARAM, std::string(api) + ": " + text + " is not a live " + what +
                                                         " (never created or already destroyed)"));
}

}  // namespace

extern "C" {

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  return LiveObjects<aclDataBuffer>::Get().Add(new (std::nothrow) aclDataBuffer{data, size});
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  if (dataBuffer == nullptr) return NullArgument("aclDestroyDataBuffer", "dataBuffer");
  if (!LiveObjects<aclDataBuffer>::Get().Retire(dataBuffer)) {
    return NotLive("aclDestroyDataBuffer", "aclDataBuffer", dataBuffer);
  }
  return ACL_SUCCESS;
}

aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size) {
  if (dataBuffer == nullptr) return NullArgument("aclUpdateDataBuffer", "dataBuffer");
  if (!LiveObjects<aclDataBuffer>::Get().Contains(dataBuffer)) {
    return NotLive("aclUpdateDataBuffer", "aclDataBuffer", dataBuffer);
  }
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}

uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer) {
  return dataBuffer == nullptr ? 0 : static_cast<uint32_t>(dataBuffer->size);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) { return dataBuffer == nullptr ? 0 : dataBuffer->size; }

aclmdlDataset *aclmdlCreateDataset() {
  return LiveObjects<aclmdlDataset>::Get().Add(new (std::nothrow) aclmdlDataset());
}

aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  if (dataset == nullptr) return NullArgument("aclmdlDestroyDataset", "dataset");
  if (!LiveObjects<aclmdlDataset>::Get().Retire(dataset))
    return NotLive("aclmdlDestroyDataset", "aclmdlDataset", dataset);
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset, aclDataBuffer *dataBuffer) {
  if (dataset == nullptr) return NullArgument("aclmdlAddDatasetBuffer", "dataset");
  if (dataBuffer == nullptr) return NullArgument("aclmdlAddDatasetBuffer", "dataBuffer");
  if (!LiveObjects<aclmdlDataset>::Get().Contains(dataset))
    return NotLive("aclmdlAddDatasetBuffer", "aclmdlDataset", dataset);
  if (!LiveObjects<aclDataBuffer>::Get().Contains(dataBuffer)) {
    return NotLive("aclmdlAddDatasetBuffer", "aclDataBuffer", dataBuffer);
  }
  dataset->buffers.push_back(dataBuffer);
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  return dataset == nullptr ? 0 : dataset->buffers.size();
}

aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset, size_t index) {
  if (dataset == nullptr || index >= dataset->buffers.size()) return nullptr;
  return dataset->buffers[index];
}

}  // extern "C"
