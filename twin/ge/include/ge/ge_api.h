/* ge/ge_api.h: GE initialization and the graph Session (libge_runner.so). Names and signatures
 * are CANN's; see twin/ge/README.md for what the twin implements. */
#ifndef INC_EXTERNAL_GE_GE_API_H_
#define INC_EXTERNAL_GE_GE_API_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/ge_api_error_codes.h"
#include "ge/ge_api_types.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace ge {
// Initialize GE (options such as ge.exec.deviceId, ge.graphRunMode, ge.socVersion).
ATTRIBUTED_DEPRECATED(GE_FUNC_VISIBILITY Status GEInitialize(const std::map<AscendString, AscendString> &))
GE_FUNC_VISIBILITY Status GEInitialize(const std::map<std::string, std::string> &options);
GE_FUNC_VISIBILITY Status GEInitialize(const std::map<AscendString, AscendString> &options);

// Finalize GE, release all resources (models loaded by live sessions included).
GE_FUNC_VISIBILITY Status GEFinalize();

GE_FUNC_VISIBILITY std::string GEGetErrorMsg();
GE_FUNC_VISIBILITY ge::AscendString GEGetErrorMsgV2();
GE_FUNC_VISIBILITY std::string GEGetWarningMsg();
GE_FUNC_VISIBILITY ge::AscendString GEGetWarningMsgV2();

class SessionImpl;

class GE_FUNC_VISIBILITY Session {
 public:
  ATTRIBUTED_DEPRECATED(Session(const std::map<AscendString, AscendString> &))
  explicit Session(const std::map<std::string, std::string> &options);
  explicit Session(const std::map<AscendString, AscendString> &options);
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  Status AddGraph(uint32_t graph_id, const Graph &graph);
  ATTRIBUTED_DEPRECATED(Status AddGraph(uint32_t, const Graph &, const std::map<AscendString, AscendString> &))
  Status AddGraph(uint32_t graph_id, const Graph &graph, const std::map<std::string, std::string> &options);
  Status AddGraph(uint32_t graph_id, const Graph &graph, const std::map<AscendString, AscendString> &options);
  // AddGraph keeps a handle to the caller's graph, as CANN does: changes made before the graph is
  // compiled (first RunGraph/BuildGraph/CompileGraph) are seen.

  Status RemoveGraph(uint32_t graph_id);

  // Compiles the graph on first use (the same OM aclgrphBuildModel gives), then runs it.
  Status RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs, std::vector<Tensor> &outputs);
  // Runs on the caller's aclrtStream; returns after the stream has been synchronized.
  Status RunGraphWithStreamAsync(uint32_t graph_id, void *stream, const std::vector<Tensor> &inputs,
                                 std::vector<Tensor> &outputs);

  // Compile (and load) now instead of at the first RunGraph; inputs are checked against the model.
  Status BuildGraph(uint32_t graph_id, const std::vector<InputTensorInfo> &inputs);
  Status BuildGraph(uint32_t graph_id, const std::vector<ge::Tensor> &inputs);
  Status CompileGraph(uint32_t graph_id);

  bool IsGraphNeedRebuild(uint32_t graph_id);
  uint64_t GetSessionId() const;

 private:
  std::shared_ptr<SessionImpl> impl_;
};
}  // namespace ge

#endif  // INC_EXTERNAL_GE_GE_API_H_
