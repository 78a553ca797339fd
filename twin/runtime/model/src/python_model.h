// The executor side of an OM that runs through Python (format version 2, header flag
// REQUIRES_PYTHON): the model's graph is handed to ge._runtime.python_model inside an embedded
// (or the already running) interpreter, which runs it with GE's stepped executor on the caller's
// device buffers. This file checks each run's shapes against the model's ranges, feeds the
// caller's buffers in and copies the outputs (with their shapes) back out.
#ifndef TWIN_RUNTIME_MODEL_SRC_PYTHON_MODEL_H_
#define TWIN_RUNTIME_MODEL_SRC_PYTHON_MODEL_H_

#include <memory>
#include <string>
#include <vector>

#include "twin/om/om_reader.h"
#include "twin/runtime/model/src/embedded_python.h"
#include "twin/runtime/model/src/model_types.h"
#include "twin/runtime/model/src/runtime_adapter.h"

namespace asc_twin::model {

class PythonModel {
 public:
  // `bytes` is the whole (validated) container; `prefix` ("aclmdlLoadFromFile: ") starts messages.
  static StatusOr<std::unique_ptr<PythonModel>> Load(const std::string &bytes, const om::OmContainer &container,
                                                     std::vector<TensorInfo> inputs, std::vector<TensorInfo> outputs,
                                                     const std::string &prefix);
  ~PythonModel();
  PythonModel(const PythonModel &) = delete;
  PythonModel &operator=(const PythonModel &) = delete;

  // One synchronous run: input shapes from the input dataset's tensor descs (or the model's
  // static dims), outputs copied into the output buffers (allocated when given as (nullptr, 0))
  // and their shapes set as the output dataset's tensor descs. The caller has checked the
  // datasets hold one buffer per input and output (LoadedModel::CheckDatasets); `output` is not null.
  Status Execute(const aclmdlDataset &input, aclmdlDataset *output, DeviceAccess &device, const std::string &prefix);

 private:
  PythonModel() = default;
  Status InputShape(const aclmdlDataset &input, size_t index, std::vector<int64_t> *dims) const;

  std::string name_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  PyRef model_;  // a ge._runtime.python_model.PythonModel
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_PYTHON_MODEL_H_
