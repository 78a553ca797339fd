// One Session run of a model whose inputs have -1 dims (an OM that runs through Python): the
// buffers are sized per run, the input shapes go in as dataset tensor descs, the runtime
// allocates the outputs and reports their shapes.
#ifndef TWIN_GE_SRC_DYNAMIC_RUN_H_
#define TWIN_GE_SRC_DYNAMIC_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

namespace ge_twin {

struct HostInput {
  const void *data = nullptr;
  size_t size = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  std::vector<int64_t> dims;
};

struct HostOutput {
  std::vector<int64_t> dims;
  std::vector<uint8_t> bytes;
};

// "<call> failed with ACL error <ret>[: <aclGetRecentErrMsg()>]": how a Session names an ACL failure.
std::string AclFailure(const char *call, aclError ret);

// One execute of `model_id`: aclmdlExecute, or with a stream aclmdlExecuteAsync and a synchronize.
// Returns "" or AclFailure's line for the call that failed.
std::string ExecuteModel(uint32_t model_id, aclmdlDataset *input_set, aclmdlDataset *output_set, aclrtStream stream);

// True if a tensor's dims leave any size to the run (-1, or [-2]: unknown rank).
bool HasDynamicDims(const std::vector<int64_t> &dims);

// Runs `model_id` once (synchronously, or queued on `stream` and synchronized); the datasets hold
// one buffer per input/output and are left as they were. Returns "" or one line naming the
// failing call with its ACL code and message.
std::string RunDynamic(uint32_t model_id, aclmdlDataset *input_set, aclmdlDataset *output_set,
                       const std::vector<HostInput> &inputs, aclrtStream stream, std::vector<HostOutput> *outputs);

}  // namespace ge_twin

#endif  // TWIN_GE_SRC_DYNAMIC_RUN_H_
