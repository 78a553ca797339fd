// A model loaded from a validated OM: kernels resolved, feature map and constants allocated
// once, every task's argument blob precomputed. Running a model only patches the input and
// output address slots and launches; a synchronous run allocates nothing.
#ifndef TWIN_RUNTIME_MODEL_SRC_LOADED_MODEL_H_
#define TWIN_RUNTIME_MODEL_SRC_LOADED_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "twin/runtime/model/src/model_types.h"
#include "twin/runtime/model/src/python_model.h"
#include "twin/runtime/model/src/runtime_adapter.h"

namespace asc_twin::model {

class LoadedModel : public std::enable_shared_from_this<LoadedModel> {
 public:
  // Validates the whole container, checks its target against the current device, loads the
  // kernel binaries from memory and allocates the feature map. `api` prefixes messages.
  static StatusOr<std::shared_ptr<LoadedModel>> Load(const void *data, size_t size, const char *api);
  // Load's container checks that need only the header (the first min(128, size) bytes) of a
  // file of `file_size` bytes, with Load's codes and messages: a file loader's check before it
  // reads the rest.
  static Status CheckFileHeader(const void *header, size_t header_bytes, uint64_t file_size, const char *api);
  ~LoadedModel();
  LoadedModel(const LoadedModel &) = delete;
  LoadedModel &operator=(const LoadedModel &) = delete;

  // The ACL error for an unload of a model loaded before aclFinalize (its runtime is gone; CANN
  // frees every model there), or OK. A model whose device was only reset unloads normally.
  Status CheckUnloadable(const char *api) const;
  const std::string &name() const { return name_; }
  const std::vector<TensorInfo> &inputs() const { return inputs_; }
  const std::vector<TensorInfo> &outputs() const { return outputs_; }

  // Runs every task in order on the calling thread; returns when all finished.
  Status Execute(const aclmdlDataset *input, aclmdlDataset *output);
  // Queues the whole model as one task on `stream` (nullptr: the default stream).
  Status ExecuteAsync(const aclmdlDataset *input, aclmdlDataset *output, void *stream);

 private:
  // Where a memcpy end or a patched slot points.
  struct Endpoint {
    enum Kind { kInput, kOutput, kFixed } kind = kFixed;
    uint32_t index = 0;        // input/output index
    uint8_t *fixed = nullptr;  // feature map or constants address
  };
  struct SlotPatch {
    uint32_t slot;
    Endpoint where;
  };
  struct Step {
    std::string description;                 // "task 0 (kernel add_custom of node add)"
    std::unique_ptr<PreparedLaunch> launch;  // kernel task; null for a memcpy
    std::vector<SlotPatch> patches;          // input/output slots only
    Endpoint src, dst;                       // memcpy task
    uint64_t copy_size = 0;
  };

  LoadedModel() = default;
  Status Build(const void *data, size_t size, const char *api);
  // The model's runtime and device memory are still alive (no aclFinalize / device reset since).
  Status CheckStillLoaded(const char *api) const;
  // Both datasets given, one buffer per model input and output; for a model with steps also each
  // buffer's address and size (filling `*_addrs`, which a Python-run model does not use).
  Status CheckDatasets(const aclmdlDataset *input, aclmdlDataset *output, const char *api,
                       std::vector<void *> *input_addrs, std::vector<void *> *output_addrs);
  static void *Resolve(const Endpoint &where, const std::vector<void *> &inputs, const std::vector<void *> &outputs);
  static Status RunSteps(std::vector<Step> &steps, const std::vector<void *> &inputs,
                         const std::vector<void *> &outputs, const char *api, const std::string &model);

  std::shared_ptr<DeviceAccess> device_;
  std::string name_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  void *feature_map_ = nullptr;
  size_t feature_map_size_ = 0;
  void *constants_ = nullptr;
  size_t constants_size_ = 0;
  std::vector<std::shared_ptr<BinaryRef>> binaries_;
  std::vector<Step> steps_;
  // Set for a model that runs through Python (OM version 2); it then has no steps of its own.
  std::unique_ptr<PythonModel> python_;

  std::mutex execute_mutex_;  // guards the members below and steps_' slots during Execute
  std::vector<void *> input_addrs_;
  std::vector<void *> output_addrs_;
};

}  // namespace asc_twin::model

#endif  // TWIN_RUNTIME_MODEL_SRC_LOADED_MODEL_H_
