// libge_runner.so: GEInitialize / GEFinalize / GEGetErrorMsg and ge::Session (CANN's ge/ge_api.h).
// A graph is compiled once, through the same child-process compiler as aclgrphBuildModel (so the
// OM is atc's), then loaded with aclmdlLoadFromMem and executed in this process by libascendcl.so.
#include "ge/ge_api.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <sstream>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/ge/src/build_options.h"
#include "twin/ge/src/child_compile.h"
#include "twin/ge/src/dynamic_run.h"
#include "twin/ge/src/ge_log.h"

namespace ge {
namespace {

constexpr Status kNotInitialized = ACL_ERROR_GE_EXEC_NOT_INIT;
constexpr Status kParamInvalid = ACL_ERROR_GE_PARAM_INVALID;

using ge_twin::AclFailure;

// Process-wide GE state. Runs hold it shared; GEInitialize/GEFinalize hold it exclusively, so
// the runtime is never finalized under a running graph.
struct GeState {
  std::shared_mutex mutex;
  bool initialized = false;
  bool acl_initialized_here = false;
  int32_t device_id = 0;
  aclrtContext context = nullptr;
  std::map<std::string, std::string> options;
  std::set<SessionImpl *> sessions;
};

GeState &State() {
  static GeState *state = new GeState();  // never destroyed: sessions may outlive static destructors
  return *state;
}

std::atomic<uint64_t> g_next_session_id{1};

std::string DescribeTensor(aclDataType dtype, const std::vector<int64_t> &dims, size_t size) {
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
    if ((ret = aclmdlGetDesc(desc_, model_id_)) != ACL_SUCCESS) return Fail(what, AclFailure("aclmdlGetDesc", ret));
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
                          DescribeTensor(dtype, desc.GetShape().GetDims(), inputs[i].GetSize()) +
                          "; the graph takes " + DescribeTensor(spec.dtype, spec.dims, spec.size));
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
    return Tensor(desc, std::move(bytes));
  }

  Status Fail(const std::string &what, const std::string &line) {
    ge_twin::LogError(what + ": " + line);
    return FAILED;
  }

  std::vector<IoSpec *> AllSpecs() {
    std::vector<IoSpec *> all;
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

std::string OptionOr(const std::map<std::string, std::string> &options, const std::string &key,
                     const std::string &fallback) {
  const auto it = options.find(key);
  return it == options.end() || it->second.empty() ? fallback : it->second;
}

Status Initialize(const std::map<std::string, std::string> &options) {
  static const char *kApi = "GEInitialize";
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  if (state.initialized) return SUCCESS;  // CANN: a second GEInitialize is a no-op
  const std::string device_text = OptionOr(options, OPTION_EXEC_DEVICE_ID, "0");
  char *end = nullptr;
  const long device = std::strtol(device_text.c_str(), &end, 10);
  if (end == device_text.c_str() || *end != '\0' || device < 0 || device > INT32_MAX) {
    ge_twin::LogError(std::string(kApi) + ": option " + OPTION_EXEC_DEVICE_ID + "=\"" + device_text +
                      "\" is not a device id (a non-negative integer)");
    return kParamInvalid;
  }
  const std::string soc = OptionOr(options, SOC_VERSION, "");
  if (!soc.empty() && ge_twin::CheckSocVersion(kApi, soc) != GRAPH_SUCCESS) return kParamInvalid;
  aclError ret = aclInit(nullptr);
  const bool inited_here = ret == ACL_SUCCESS;
  if (ret != ACL_SUCCESS && ret != ACL_ERROR_REPEAT_INITIALIZE) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclInit", ret));
    return FAILED;
  }
  if ((ret = aclrtSetDevice(static_cast<int32_t>(device))) != ACL_SUCCESS) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclrtSetDevice", ret));
    if (inited_here) aclFinalize();
    return FAILED;
  }
  aclrtContext context = nullptr;
  if ((ret = aclrtGetCurrentContext(&context)) != ACL_SUCCESS) {
    ge_twin::LogError(std::string(kApi) + ": " + AclFailure("aclrtGetCurrentContext", ret));
    aclrtResetDevice(static_cast<int32_t>(device));
    if (inited_here) aclFinalize();
    return FAILED;
  }
  state.initialized = true;
  state.acl_initialized_here = inited_here;
  state.device_id = static_cast<int32_t>(device);
  state.context = context;
  state.options = options;
  return SUCCESS;
}

}  // namespace

class SessionImpl {
 public:
  struct GraphEntry {
    Graph graph;
    std::map<std::string, std::string> options;
    std::unique_ptr<LoadedModel> model;
  };

  explicit SessionImpl(std::map<std::string, std::string> options)
      : id_(g_next_session_id.fetch_add(1)), options_(std::move(options)) {}

  uint64_t id() const { return id_; }

  // Caller holds State().mutex (shared or exclusive).
  Status Ready(const std::string &api) const {
    if (!State().initialized) {
      ge_twin::LogError(api + ": GEInitialize has not been called (or GEFinalize was called since)");
      return kNotInitialized;
    }
    const aclError ret = aclrtSetCurrentContext(State().context);  // runs may come from any thread
    if (ret != ACL_SUCCESS) {
      ge_twin::LogError(api + ": " + AclFailure("aclrtSetCurrentContext", ret));
      return FAILED;
    }
    return SUCCESS;
  }

  Status AddGraph(uint32_t graph_id, const Graph &graph, const std::map<std::string, std::string> &options) {
    std::shared_lock<std::shared_mutex> ge_lock(State().mutex);
    const std::string api = "Session::AddGraph";
    if (!State().initialized) {
      ge_twin::LogError(api + ": GEInitialize has not been called (or GEFinalize was called since)");
      return kNotInitialized;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (graphs_.count(graph_id) != 0) {
      ge_twin::LogError(api + ": graph id " + std::to_string(graph_id) + " is already added to this session");
      return kParamInvalid;
    }
    GraphEntry entry{graph, options, nullptr};
    graphs_.emplace(graph_id, std::move(entry));
    return SUCCESS;
  }

  Status RemoveGraph(uint32_t graph_id) {
    std::shared_lock<std::shared_mutex> ge_lock(State().mutex);
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = graphs_.find(graph_id);
    if (it == graphs_.end()) {
      ge_twin::LogError("Session::RemoveGraph: graph id " + std::to_string(graph_id) + " is not in this session");
      return kParamInvalid;
    }
    if (it->second.model != nullptr && State().initialized) {
      aclrtSetCurrentContext(State().context);
      it->second.model->Release();
    }
    graphs_.erase(it);
    return SUCCESS;
  }

  // Compiles and loads the graph if it is not yet; *entry is the graph's entry.
  Status Prepare(const std::string &api, uint32_t graph_id, GraphEntry **entry) {
    const auto it = graphs_.find(graph_id);
    if (it == graphs_.end()) {
      ge_twin::LogError(api + ": graph id " + std::to_string(graph_id) + " is not in this session (AddGraph it first)");
      return kParamInvalid;
    }
    *entry = &it->second;
    if (it->second.model != nullptr) return SUCCESS;
    ge_twin::CompileRequest request;
    request.api = api;
    // Graph options win over session options, which win over GEInitialize's; without any,
    // the graph is compiled for the device's SoC.
    const char *device_soc = aclrtGetSocName();
    request.soc_version =
        OptionOr(it->second.options, SOC_VERSION,
                 OptionOr(options_, SOC_VERSION,
                          OptionOr(State().options, SOC_VERSION, device_soc != nullptr ? device_soc : "")));
    std::vector<uint8_t> om;
    const graphStatus status = ge_twin::CompileInChild(it->second.graph, request, &om);
    if (status != GRAPH_SUCCESS) return status == GRAPH_PARAM_INVALID ? kParamInvalid : FAILED;
    auto model = std::make_unique<LoadedModel>();
    const Status load = model->Load(om, api + ": graph " + std::to_string(graph_id));
    if (load != SUCCESS) return load;
    it->second.model = std::move(model);
    return SUCCESS;
  }

  // Holds GE (shared) and this session while `use` runs on the compiled, loaded model.
  template <typename Use>
  Status WithModel(const char *api_name, uint32_t graph_id, Use use) {
    std::shared_lock<std::shared_mutex> ge_lock(State().mutex);
    const std::string api = api_name;
    Status status = Ready(api);
    if (status != SUCCESS) return status;
    std::lock_guard<std::mutex> lock(mutex_);
    GraphEntry *entry = nullptr;
    if ((status = Prepare(api, graph_id, &entry)) != SUCCESS) return status;
    return use(*entry->model, api + ": graph " + std::to_string(graph_id));
  }

  Status Run(const char *api_name, uint32_t graph_id, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs,
             aclrtStream stream) {
    return WithModel(api_name, graph_id, [&](LoadedModel &model, const std::string &what) {
      return model.Run(inputs, outputs, stream, what);
    });
  }

  // Compiles and loads now; with inputs, also checks them against the model.
  Status Build(const char *api_name, uint32_t graph_id, const std::vector<Tensor> *inputs) {
    return WithModel(api_name, graph_id, [&](LoadedModel &model, const std::string &what) {
      return inputs == nullptr ? SUCCESS : model.CheckInputs(*inputs, what);
    });
  }

  bool NeedsBuild(uint32_t graph_id) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = graphs_.find(graph_id);
    return it == graphs_.end() || it->second.model == nullptr;
  }

  // GEFinalize: the runtime goes away, so every loaded model is released (graphs stay added).
  void ReleaseModels() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto &kv : graphs_) kv.second.model.reset();
  }

 private:
  const uint64_t id_;
  const std::map<std::string, std::string> options_;
  std::mutex mutex_;
  std::map<uint32_t, GraphEntry> graphs_;
};

Status GEInitialize(const std::map<std::string, std::string> &options) { return Initialize(options); }

Status GEInitialize(const std::map<AscendString, AscendString> &options) {
  return Initialize(ge_twin::ToStdMap(options));
}

Status GEFinalize() {
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  if (!state.initialized) return SUCCESS;
  aclrtSetCurrentContext(state.context);
  for (SessionImpl *session : state.sessions) session->ReleaseModels();
  aclrtResetDevice(state.device_id);
  if (state.acl_initialized_here) aclFinalize();
  state.initialized = false;
  state.acl_initialized_here = false;
  state.context = nullptr;
  state.options.clear();
  return SUCCESS;
}

std::string GEGetErrorMsg() { return ge_twin::LastErrorMessage(); }
AscendString GEGetErrorMsgV2() { return AscendString(ge_twin::LastErrorMessage().c_str()); }
std::string GEGetWarningMsg() { return ge_twin::LastWarningMessage(); }
AscendString GEGetWarningMsgV2() { return AscendString(ge_twin::LastWarningMessage().c_str()); }

namespace {
std::shared_ptr<SessionImpl> NewSession(std::map<std::string, std::string> options) {
  auto impl = std::make_shared<SessionImpl>(std::move(options));
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  if (!state.initialized) {
    ge_twin::LogError("Session: GEInitialize has not been called; this session's calls will fail");
  }
  state.sessions.insert(impl.get());
  return impl;
}
}  // namespace

Session::Session(const std::map<std::string, std::string> &options) : impl_(NewSession(options)) {}

Session::Session(const std::map<AscendString, AscendString> &options)
    : impl_(NewSession(ge_twin::ToStdMap(options))) {}

Session::~Session() {
  GeState &state = State();
  std::unique_lock<std::shared_mutex> lock(state.mutex);
  state.sessions.erase(impl_.get());
  if (state.initialized) aclrtSetCurrentContext(state.context);
  impl_->ReleaseModels();
}

Status Session::AddGraph(uint32_t graph_id, const Graph &graph) { return impl_->AddGraph(graph_id, graph, {}); }

Status Session::AddGraph(uint32_t graph_id, const Graph &graph, const std::map<std::string, std::string> &options) {
  return impl_->AddGraph(graph_id, graph, options);
}

Status Session::AddGraph(uint32_t graph_id, const Graph &graph, const std::map<AscendString, AscendString> &options) {
  return impl_->AddGraph(graph_id, graph, ge_twin::ToStdMap(options));
}

Status Session::RemoveGraph(uint32_t graph_id) { return impl_->RemoveGraph(graph_id); }

Status Session::RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs) {
  return impl_->Run("Session::RunGraph", graph_id, inputs, outputs, nullptr);
}

Status Session::RunGraphWithStreamAsync(uint32_t graph_id, void *stream, const std::vector<Tensor> &inputs,
                                        std::vector<Tensor> &outputs) {
  if (stream == nullptr) {
    ge_twin::LogError("Session::RunGraphWithStreamAsync: stream is null (create one with aclrtCreateStream)");
    return kParamInvalid;
  }
  return impl_->Run("Session::RunGraphWithStreamAsync", graph_id, inputs, outputs, stream);
}

Status Session::BuildGraph(uint32_t graph_id, const std::vector<InputTensorInfo> &inputs) {
  std::vector<Tensor> tensors;
  for (const InputTensorInfo &info : inputs) {
    TensorDesc desc(Shape(info.dims), FORMAT_ND, static_cast<DataType>(info.data_type));
    const auto *bytes = static_cast<const uint8_t *>(info.data);
    const size_t length = info.length > 0 ? static_cast<size_t>(info.length) : 0;
    tensors.emplace_back(desc, bytes == nullptr ? std::vector<uint8_t>(length) : std::vector<uint8_t>(bytes, bytes + length));
  }
  return impl_->Build("Session::BuildGraph", graph_id, &tensors);
}

Status Session::BuildGraph(uint32_t graph_id, const std::vector<ge::Tensor> &inputs) {
  return impl_->Build("Session::BuildGraph", graph_id, &inputs);
}

Status Session::CompileGraph(uint32_t graph_id) { return impl_->Build("Session::CompileGraph", graph_id, nullptr); }

bool Session::IsGraphNeedRebuild(uint32_t graph_id) { return impl_->NeedsBuild(graph_id); }

uint64_t Session::GetSessionId() const { return impl_->id(); }

}  // namespace ge
