/* gert::InferShapeContext: what an IMPL_OP(...).InferShape(fn) function sees. Input indexes
 * count present input instances (an absent optional input takes no index); output indexes count
 * output instances. */
#ifndef METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
#define METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_

#include <cstddef>

#include "exe_graph/runtime/infer_context_frame.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"

namespace gert {
class InferShapeContext {
 public:
  // Twin-only constructor; the frame must outlive the context.
  explicit InferShapeContext(InferContextFrame *frame) : frame_(frame), node_info_(frame) {}

  const Shape *GetInputShape(size_t index) const {
    return index < frame_->input_shapes.size() ? &frame_->input_shapes[index] : nullptr;
  }
  const Shape *GetOptionalInputShape(size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const Shape *GetRequiredInputShape(size_t ir_index) const { return GetDynamicInputShape(ir_index, 0); }
  const Shape *GetDynamicInputShape(size_t ir_index, size_t relative_index) const {
    size_t index = 0;
    if (!twin::InstanceIndex(frame_->input_ir_ranges, ir_index, relative_index, &index)) return nullptr;
    return &frame_->input_shapes[index];
  }
  Shape *GetOutputShape(size_t index) {
    return index < frame_->output_shapes.size() ? &frame_->output_shapes[index] : nullptr;
  }
  Shape *GetDynamicOutputShape(size_t ir_index, size_t relative_index) {
    size_t index = 0;
    if (!twin::InstanceIndex(frame_->output_ir_ranges, ir_index, relative_index, &index)) return nullptr;
    return &frame_->output_shapes[index];
  }
  const RuntimeAttrs *GetAttrs() const { return &frame_->attrs; }
  const ComputeNodeInfo *GetComputeNodeInfo() const { return &node_info_; }
  const char *GetNodeName() const { return frame_->node_name.c_str(); }
  const char *GetNodeType() const { return frame_->node_type.c_str(); }
  size_t GetComputeNodeInputNum() const { return frame_->input_shapes.size(); }
  size_t GetComputeNodeOutputNum() const { return frame_->output_shapes.size(); }

 private:
  InferContextFrame *frame_;
  ComputeNodeInfo node_info_;
};
}  // namespace gert

#endif  // METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
