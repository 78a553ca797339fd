// The opaque ACL types of the model API: data buffers, datasets and model descriptions.
#ifndef TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_
#define TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_mdl.h"

// Wraps caller-owned memory; never owns it.
struct aclDataBuffer {
  void *data = nullptr;
  size_t size = 0;
};

// Borrowed data buffers in order; the dataset owns neither the buffers nor their memory.
struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
};

namespace asc_twin::model {

struct TensorInfo {
  std::string name;
  int32_t data_type = 0;  // ge::DataType == aclDataType for the shared values
  int32_t format = 2;     // ge::Format; FORMAT_ND by default
  std::vector<int64_t> dims;
  uint64_t size = 0;
};

}  // namespace asc_twin::model

// A snapshot of one loaded model's inputs and outputs (filled by aclmdlGetDesc).
struct aclmdlDesc {
  bool filled = false;
  uint32_t model_id = 0;
  std::vector<asc_twin::model::TensorInfo> inputs;
  std::vector<asc_twin::model::TensorInfo> outputs;
};

#endif  // TWIN_RUNTIME_MODEL_SRC_MODEL_TYPES_H_
