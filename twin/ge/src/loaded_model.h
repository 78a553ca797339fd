// One OM loaded into libascendcl.so for ge::Session: device buffers and datasets made once and
// reused by every run, the caller's tensors checked against the model, outputs as ge::Tensor.
// Models with -1 dims run through dynamic_run.h. Internal to libge_runner.so (session.cc).
#ifndef TWIN_GE_SRC_LOADED_MODEL_H_
#define TWIN_GE_SRC_LOADED_MODEL_H_

#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "ge/ge_api.h"
#include "twin/ge/src/dynamic_run.h"
#include "twin/ge/src/ge_log.h"

namespace ge {
namespace model_run {

constexpr Status kParamInvalid = ACL_ERROR_GE_PARAM_INVALID;

using ge_twin::AclFailure;

inline std::string DescribeTensor(aclDataType dtype, const std::vector<int64_t> &dims, size_t size) {
  std::ostringstream out;
  out << "dtype " << static_cast<int>(dtype) << ", dims [";
  for (size_t i = 0; i < dims.size(); ++i) out << (i ? "," : "") << dims[i];
  out << "], " << size << " bytes";
  return out.str();
}

struct IoSpec {
  std::string name;
  size_t size = 0;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  std::vector<int64_t> dims;
  void *device = nullptr;
};

// One loaded model with device buffers and datasets made once and reused by every run.
class LoadedModel {
 public:
  ~LoadedModel() { Release(); }

  Status Load(const std::vector<uint8_t> &om, const std::string &what) {
    aclError ret = aclmdlLoadFromMem(om.data(), om.size(), &model_id_);
    if (ret != ACL_SUCCESS) return Fail(what, AclFailure("aclmdlLoadFromMem", ret));
    loaded_ = true;
    desc_ = aclmdlCreateDesc();
    if (desc_ == nullptr) return Fail(what, "aclmdlCreateDesc returned null");
    ret = aclmdlGetDesc(desc_, model_id_);
    if (ret != ACL_SUCCESS) return Fail(what, AclFailure("aclmdlGetDesc", ret));
    Status status = Describe(true, what);
    if (status == SUCCESS) status = Describe(false, what);
    return status;
  }

  // Checks the caller's tensors against the model; one line naming the first mismatch.
  Status CheckInputs(const std::vector<Tensor> &inputs, const std::string &what) const {
    if (inputs.size() != inputs_.size()) {
      ge_twin::LogError(what + ": " + std::to_string(inputs.size()) + " input tensors given, the graph takes " +
                        std::to_string(inputs_.size()));
      return kParamInvalid;
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const IoSpec &spec = inputs_[i];
      const TensorDesc desc = inputs[i].GetTensorDesc();
      const auto dtype = static_cast<aclDataType>(desc.GetDataType());  // ge::DataType == aclDataType values
      // a dynamic input takes any size its dims allow; the runtime checks them against the ranges
      const bool fits = dynamic_ ? FitsDims(desc.GetShape().GetDims(), spec.dims) : inputs[i].GetSize() == spec.size;
      if (dtype != spec.dtype || !fits) {
        ge_twin::LogError(what + ": input " + std::to_string(i) + " (" + spec.name + ") has " +
                          DescribeTensor(dtype, desc.GetShape().GetDims(), inputs[i].GetSize()) + "; the graph takes " +
                          DescribeTensor(spec.dtype, spec.dims, spec.size));
        return kParamInvalid;
      }
    }
    return SUCCESS;
  }

  Status Run(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs, aclrtStream stream,
             const std::string &what) {
    Status status = CheckInputs(inputs, what);
    if (status != SUCCESS) return status;
    if (dynamic_) return RunDynamic(inputs, outputs, stream, what);
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inputs_[i].size == 0) continue;
      const aclError ret = aclrtMemcpy(inputs_[i].device, inputs_[i].size, inputs[i].GetData(), inputs_[i].size,
                                       ACL_MEMCPY_HOST_TO_DEVICE);
      if (ret != ACL_SUCCESS) return Fail(what, AclFailure("aclrtMemcpy (input)", ret));
    }
    const std::string failure = ge_twin::ExecuteModel(model_id_, input_set_, output_set_, stream);
    if (!failure.empty()) return Fail(what, failure);
    std::vector<Tensor> results;
    for (const IoSpec &spec : outputs_) {
      std::vector<uint8_t> bytes(spec.size);
      if (spec.size != 0) {
        const aclError ret = aclrtMemcpy(bytes.data(), bytes.size(), spec.device, spec.size, ACL_MEMCPY_DEVICE_TO_HOST);
        if (ret != ACL_SUCCESS) return Fail(what, AclFailure("aclrtMemcpy (output)", ret));
      }
      results.push_back(OutputTensor(spec, spec.dims, std::move(bytes)));
    }
    outputs = std::move(results);
    return SUCCESS;
  }

  void Release() {
    if (input_set_ != nullptr) aclmdlDestroyDataset(input_set_);
    if (output_set_ != nullptr) aclmdlDestroyDataset(output_set_);
    for (aclDataBuffer *buffer : buffers_) aclDestroyDataBuffer(buffer);
    for (IoSpec *spec : AllSpecs()) {
      if (spec->device != nullptr) aclrtFree(spec->device);
      spec->device = nullptr;
    }
    if (desc_ != nullptr) aclmdlDestroyDesc(desc_);
    if (loaded_) aclmdlUnload(model_id_);
    input_set_ = output_set_ = nullptr;
    buffers_.clear();
    desc_ = nullptr;
    loaded_ = false;
  }

 private:
  static bool FitsDims(const std::vector<int64_t> &given, const std::vector<int64_t> &model) {
    if (model.size() == 1 && model[0] == -2) return true;  // unknown rank
    if (given.size() != model.size()) return false;
    for (size_t k = 0; k < given.size(); ++k) {
      if (given[k] < 0 || (model[k] >= 0 && given[k] != model[k])) return false;
    }
    return true;
  }

  // A model with -1 dims (it runs through Python): shapes and buffers per run.
  Status RunDynamic(const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs, aclrtStream stream,
                    const std::string &what) {
    std::vector<ge_twin::HostInput> host(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      host[i].data = inputs[i].GetData();
      host[i].size = inputs[i].GetSize();
      host[i].dtype = inputs_[i].dtype;
      host[i].dims = inputs[i].GetTensorDesc().GetShape().GetDims();
    }
    std::vector<ge_twin::HostOutput> produced;
    const std::string failure = ge_twin::RunDynamic(model_id_, input_set_, output_set_, host, stream, &produced);
    if (!failure.empty()) return Fail(what, failure);
    std::vector<Tensor> results;
    for (size_t j = 0; j < produced.size(); ++j) {
      results.push_back(OutputTensor(outputs_[j], produced[j].dims, std::move(produced[j].bytes)));
    }
    outputs = std::move(results);
    return SUCCESS;
  }

  // An output as the caller gets it: the spec's name, format and type, with these dims and bytes.
  static Tensor OutputTensor(const IoSpec &spec, const std::vector<int64_t> &dims, std::vector<uint8_t> bytes) {
    TensorDesc desc(Shape(dims), static_cast<Format>(spec.format), static_cast<DataType>(spec.dtype));
    desc.SetName(spec.name.c_str());
    Tensor tensor(desc);
    tensor.SetData(std::move(bytes));  // the constructor taking bytes copies them; SetData(&&) moves
    return tensor;
  }

  Status Fail(const std::string &what, const std::string &line) {
    ge_twin::LogError(what + ": " + line);
    return FAILED;
  }

  std::vector<IoSpec *> AllSpecs() {
    std::vector<IoSpec *> all;
    all.reserve(inputs_.size() + outputs_.size());
    for (IoSpec &s : inputs_) all.push_back(&s);
    for (IoSpec &s : outputs_) all.push_back(&s);
    return all;
  }

  Status Describe(bool input, const std::string &what) {
    const size_t count = input ? aclmdlGetNumInputs(desc_) : aclmdlGetNumOutputs(desc_);
    std::vector<IoSpec> &specs = input ? inputs_ : outputs_;
    aclmdlDataset *&set = input ? input_set_ : output_set_;
    set = aclmdlCreateDataset();
    if (set == nullptr) return Fail(what, "aclmdlCreateDataset returned null");
    for (size_t i = 0; i < count; ++i) {
      IoSpec spec;
      const char *name = input ? aclmdlGetInputNameByIndex(desc_, i) : aclmdlGetOutputNameByIndex(desc_, i);
      spec.name = name != nullptr ? name : "";
      spec.size = input ? aclmdlGetInputSizeByIndex(desc_, i) : aclmdlGetOutputSizeByIndex(desc_, i);
      spec.dtype = input ? aclmdlGetInputDataType(desc_, i) : aclmdlGetOutputDataType(desc_, i);
      spec.format = input ? aclmdlGetInputFormat(desc_, i) : aclmdlGetOutputFormat(desc_, i);
      aclmdlIODims dims{};
      const aclError ret = input ? aclmdlGetInputDims(desc_, i, &dims) : aclmdlGetOutputDims(desc_, i, &dims);
      if (ret != ACL_SUCCESS) return Fail(what, AclFailure("aclmdlGet*Dims", ret));
      spec.dims.assign(dims.dims, dims.dims + dims.dimCount);
      dynamic_ = dynamic_ || ge_twin::HasDynamicDims(spec.dims);
      if (spec.size != 0) {
        const aclError mret = aclrtMalloc(&spec.device, spec.size, ACL_MEM_MALLOC_NORMAL_ONLY);
        if (mret != ACL_SUCCESS) return Fail(what, AclFailure("aclrtMalloc", mret));
      }
      specs.push_back(spec);
      aclDataBuffer *buffer = aclCreateDataBuffer(specs.back().device, spec.size);
      if (buffer == nullptr) return Fail(what, "aclCreateDataBuffer returned null");
      buffers_.push_back(buffer);
      const aclError aret = aclmdlAddDatasetBuffer(set, buffer);
      if (aret != ACL_SUCCESS) return Fail(what, AclFailure("aclmdlAddDatasetBuffer", aret));
    }
    return SUCCESS;
  }

  uint32_t model_id_ = 0;
  bool loaded_ = false;
  bool dynamic_ = false;  // a tensor has -1 dims: an OM that runs through Python, sized per run
  aclmdlDesc *desc_ = nullptr;
  std::vector<IoSpec> inputs_;
  std::vector<IoSpec> outputs_;
  aclmdlDataset *input_set_ = nullptr;
  aclmdlDataset *output_set_ = nullptr;
  std::vector<aclDataBuffer *> buffers_;
};

}  // namespace model_run
}  // namespace ge

#endif  // TWIN_GE_SRC_LOADED_MODEL_H_
