// libge_runner.so: ge::Session (CANN's ge/ge_api.h). A graph is compiled once, through the same
// child-process compiler as aclgrphBuildModel (so the OM is atc's), then loaded and executed in
// this process by libascendcl.so (loaded_model.h). Sessions run under the process-wide GE state
// that GEInitialize sets up (ge_api.cc, ge_state.h).
#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "ge/ge_api.h"
#include "twin/ge/src/build_options.h"
#include "twin/ge/src/child_compile.h"
#include "twin/ge/src/dynamic_run.h"
#include "twin/ge/src/ge_log.h"
#include "twin/ge/src/ge_state.h"
#include "twin/ge/src/loaded_model.h"

namespace ge {
namespace {

using ge_twin::AclFailure;
using ge_twin::GeState;
using ge_twin::kNotInitialized;
using ge_twin::OptionOr;
using ge_twin::State;
using model_run::kParamInvalid;
using model_run::LoadedModel;

std::atomic<uint64_t> g_next_session_id{1};

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
    status = Prepare(api, graph_id, &entry);
    if (status != SUCCESS) return status;
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

Session::Session(const std::map<AscendString, AscendString> &options) : impl_(NewSession(ge_twin::ToStdMap(options))) {}

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
    tensors.emplace_back(desc,
                         bytes == nullptr ? std::vector<uint8_t>(length) : std::vector<uint8_t>(bytes, bytes + length));
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

namespace ge_twin {

void ReleaseSessionModels(ge::SessionImpl *session) { session->ReleaseModels(); }

}  // namespace ge_twin
