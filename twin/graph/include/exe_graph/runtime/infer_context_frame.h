/* Twin-only: the data behind gert::InferShapeContext / InferDataTypeContext for one node.
 * Inputs and outputs are flat instance lists; *_ir_ranges map an IR index to its instances. */
#ifndef GE_TWIN_EXE_GRAPH_RUNTIME_INFER_CONTEXT_FRAME_H_
#define GE_TWIN_EXE_GRAPH_RUNTIME_INFER_CONTEXT_FRAME_H_

#include <cstddef>
#include <string>
#include <vector>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {
struct IrInstanceRange {
  size_t start = 0;
  size_t count = 0;
};

struct InferContextFrame {
  std::string node_name;
  std::string node_type;
  std::vector<IrInstanceRange> input_ir_ranges;
  std::vector<Shape> input_shapes;
  std::vector<ge::DataType> input_dtypes;
  std::vector<IrInstanceRange> output_ir_ranges;
  std::vector<Shape> output_shapes;
  std::vector<ge::DataType> output_dtypes;
  RuntimeAttrs attrs;
};

/* Node identity as seen by inference functions (CANN's ComputeNodeInfo subset). */
class ComputeNodeInfo {
 public:
  explicit ComputeNodeInfo(const InferContextFrame *frame) : frame_(frame) {}
  const char *GetNodeName() const { return frame_->node_name.c_str(); }
  const char *GetNodeType() const { return frame_->node_type.c_str(); }
  size_t GetIrInputsNum() const { return frame_->input_ir_ranges.size(); }
  size_t GetInputsNum() const { return frame_->input_shapes.size(); }
  size_t GetOutputsNum() const { return frame_->output_shapes.size(); }

 private:
  const InferContextFrame *frame_;
};

namespace twin {
inline bool InstanceIndex(const std::vector<IrInstanceRange> &ranges, size_t ir_index, size_t relative, size_t *index) {
  if (ir_index >= ranges.size() || relative >= ranges[ir_index].count) return false;
  *index = ranges[ir_index].start + relative;
  return true;
}
}  // namespace twin
}  // namespace gert

#endif  // GE_TWIN_EXE_GRAPH_RUNTIME_INFER_CONTEXT_FRAME_H_
