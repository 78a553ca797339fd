// The opaque ACL types of the model API: data buffers, datasets and model descriptions.
#ifndef TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_
#define TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"

// Wraps caller-owned memory; never owns it.
struct aclDataBuffer {
  void *data = nullptr;
  size_t size = 0;
};

// A tensor's data type, format and dims (aclCreateTensorDesc).
struct aclTensorDesc {
  aclDataType data_type = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;
};

// Borrowed data buffers in order; the dataset owns neither the buffers nor their memory. It owns
// the tensor descs set on it (aclmdlSetDatasetTensorDesc copies; an output dataset gets the
// shapes a dynamic model produced), indexed like the buffers.
struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
  std::vector<std::unique_ptr<aclTensorDesc>> tensor_descs;

  // Sets the desc at `index`, in place when one is there: a pointer the caller got from
  // aclmdlGetDatasetTensorDesc stays valid (and shows the new dims) across runs and sets.
  void StoreTensorDesc(size_t index, const aclTensorDesc &desc) {
    if (tensor_descs.size() <= index) tensor_descs.resize(index + 1);
    if (tensor_descs[index]) {
      *tensor_descs[index] = desc;
    } else {
      tensor_descs[index] = std::make_unique<aclTensorDesc>(desc);
    }
  }
};

namespace asc_twin::model {

struct TensorInfo {
  std::string name;
  int32_t data_type = 0;      // ge::DataType == aclDataType for the shared values
  int32_t format = 2;         // ge::Format; FORMAT_ND by default
  std::vector<int64_t> dims;  // -1: dynamic (a model that runs through Python)
  uint64_t size = 0;          // 0 when a dim is dynamic
  std::vector<std::pair<int64_t, int64_t>>
      ranges;  // inputs of a Python-run model: [min, max] per dim, max -1 unbounded
};

// Bytes of one element of an ACL data type; 0 for one without a fixed size.
size_t DataTypeBytes(int32_t data_type);

}  // namespace asc_twin::model

// A snapshot of one loaded model's inputs and outputs (filled by aclmdlGetDesc).
struct aclmdlDesc {
  bool filled = false;
  uint32_t model_id = 0;
  std::vector<asc_twin::model::TensorInfo> inputs;
  std::vector<asc_twin::model::TensorInfo> outputs;
};

#endif  // TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_
