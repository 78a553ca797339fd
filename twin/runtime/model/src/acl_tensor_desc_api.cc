// aclTensorDesc, and the dataset tensor descs that give a dynamic model its shapes per run:
// plain host-side bookkeeping, usable before aclInit like the data buffers.
#include <new>
#include <string>

#include "twin/runtime/model/src/live_objects.h"
#include "twin/runtime/model/src/model_types.h"
#include "twin/runtime/model/src/runtime_adapter.h"

using asc_twin::model::LiveObjects;
using asc_twin::model::ReportError;
using asc_twin::model::Status;

namespace asc_twin::model {

size_t DataTypeBytes(int32_t data_type) {
  switch (data_type) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

}  // namespace asc_twin::model

namespace {

// Getters accept any non-null desc: a dataset's own descs (aclmdlGetDatasetTensorDesc) are not
// created by aclCreateTensorDesc, and CANN's getters do not check liveness either.
bool Live(const aclTensorDesc *desc) { return desc != nullptr; }

aclError Invalid(const std::string &message) { return ReportError(Status(ACL_ERROR_INVALID_PARAM, message)); }

size_t ElementCount(const aclTensorDesc &desc) {
  size_t count = 1;
  for (int64_t dim : desc.dims) {
    if (dim < 0) return 0;
    count *= static_cast<size_t>(dim);
  }
  return count;
}

}  // namespace

extern "C" {

aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims, aclFormat format) {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) return nullptr;
  aclTensorDesc *desc = new (std::nothrow) aclTensorDesc();
  if (desc == nullptr) return nullptr;
  desc->data_type = dataType;
  desc->format = format;
  desc->dims.assign(dims, dims + numDims);
  return LiveObjects<aclTensorDesc>::Get().Add(desc);
}

void aclDestroyTensorDesc(const aclTensorDesc *desc) {
  if (desc != nullptr) (void)LiveObjects<aclTensorDesc>::Get().Retire(desc);
}

aclDataType aclGetTensorDescType(const aclTensorDesc *desc) { return Live(desc) ? desc->data_type : ACL_DT_UNDEFINED; }

aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) { return Live(desc) ? desc->format : ACL_FORMAT_UNDEFINED; }

size_t aclGetTensorDescElementCount(const aclTensorDesc *desc) { return Live(desc) ? ElementCount(*desc) : 0; }

size_t aclGetTensorDescSize(const aclTensorDesc *desc) {
  return Live(desc) ? ElementCount(*desc) * asc_twin::model::DataTypeBytes(desc->data_type) : 0;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) { return Live(desc) ? desc->dims.size() : 0; }

aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) {
  if (!Live(desc)) return Invalid("aclGetTensorDescDimV2: desc is null");
  if (dimSize == nullptr) return Invalid("aclGetTensorDescDimV2: dimSize is null");
  if (index >= desc->dims.size()) {
    return Invalid("aclGetTensorDescDimV2: index " + std::to_string(index) + " is out of range (the desc has " +
                   std::to_string(desc->dims.size()) + " dims)");
  }
  *dimSize = desc->dims[index];
  return ACL_SUCCESS;
}

int64_t aclGetTensorDescDim(const aclTensorDesc *desc, size_t index) {
  int64_t dim = -1;
  return aclGetTensorDescDimV2(desc, index, &dim) == ACL_SUCCESS ? dim : -1;
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset *dataset, aclTensorDesc *tensorDesc, size_t index) {
  constexpr const char *kApi = "aclmdlSetDatasetTensorDesc";
  if (dataset == nullptr || !LiveObjects<aclmdlDataset>::Get().Contains(dataset)) {
    return Invalid(std::string(kApi) + ": dataset is null or not a live aclmdlDataset");
  }
  if (tensorDesc == nullptr) return Invalid(std::string(kApi) + ": tensorDesc is null");
  if (index >= dataset->buffers.size()) {
    return Invalid(std::string(kApi) + ": index " + std::to_string(index) + " is out of range (the dataset has " +
                   std::to_string(dataset->buffers.size()) + " buffers; add them with aclmdlAddDatasetBuffer first)");
  }
  if (tensorDesc->dims.size() > ACL_MAX_DIM_CNT) {
    return Invalid(std::string(kApi) + ": " + std::to_string(tensorDesc->dims.size()) + " dims exceed ACL_MAX_DIM_CNT");
  }
  dataset->StoreTensorDesc(index, *tensorDesc);
  return ACL_SUCCESS;
}

aclTensorDesc *aclmdlGetDatasetTensorDesc(const aclmdlDataset *dataset, size_t index) {
  if (dataset == nullptr || !LiveObjects<aclmdlDataset>::Get().Contains(dataset)) return nullptr;
  return index < dataset->tensor_descs.size() ? dataset->tensor_descs[index].get() : nullptr;
}

}  // extern "C"
