/* ge::Graph: a named set of operators with ordered inputs (Data ops) and outputs, saved to and
 * loaded from AIR (twin/graph/proto/air.proto). */
#ifndef INC_EXTERNAL_GRAPH_GRAPH_H_
#define INC_EXTERNAL_GRAPH_GRAPH_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/operator.h"

namespace ge {
class GraphImpl;

class GE_FUNC_VISIBILITY Graph {
 public:
  Graph();
  explicit Graph(const char *name);
  ATTRIBUTED_DEPRECATED(Graph(const char *))
  explicit Graph(const std::string &name);
  ~Graph() = default;

  Graph &SetInputs(const std::vector<Operator> &inputs);
  // Every output of every listed op, in order.
  Graph &SetOutputs(const std::vector<Operator> &outputs);
  Graph &SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &output_indexs);
  Graph &SetOutputs(const std::vector<std::pair<Operator, AscendString>> &outputs);
  Graph &SetOutputs(const std::vector<std::pair<ge::Operator, std::string>> &outputs);

  // Adds an op that is not reachable from the outputs (e.g. a side-effect op).
  graphStatus AddOp(const ge::Operator &op);
  graphStatus FindOpByName(const char *name, ge::Operator &op) const;
  graphStatus FindOpByType(const char *type, std::vector<ge::Operator> &ops) const;
  // Names of every op in the graph in topological order (producers first).
  graphStatus GetAllOpName(std::vector<AscendString> &op_name) const;

  graphStatus GetName(AscendString &name) const;
  std::string GetName() const;
  bool IsValid() const;

  // Writes AIR atomically (temp file + rename); returns GRAPH_FAILED with one logged line on error.
  graphStatus SaveToFile(const char *file_name) const;
  graphStatus SaveToFile(const std::string &file_name) const { return SaveToFile(file_name.c_str()); }
  // Replaces this graph's content with the AIR file's; on error the graph is left unchanged.
  graphStatus LoadFromFile(const char *file_name);
  graphStatus LoadFromFile(const std::string &file_name) { return LoadFromFile(file_name.c_str()); }

 private:
  std::shared_ptr<GraphImpl> impl_;
};
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_GRAPH_H_
