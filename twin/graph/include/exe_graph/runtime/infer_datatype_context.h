/* gert::InferDataTypeContext: what an IMPL_OP(...).InferDataType(fn) function sees (same index
 * rules as InferShapeContext). */
#ifndef METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
#define METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_

#include <cstddef>

#include "exe_graph/runtime/infer_context_frame.h"
#include "graph/ge_error_codes.h"
#include "graph/types.h"

namespace gert {
class InferDataTypeContext {
 public:
  // Twin-only constructor; the frame must outlive the context.
  explicit InferDataTypeContext(InferContextFrame *frame) : frame_(frame), node_info_(frame) {}

  ge::DataType GetInputDataType(size_t index) const {
    return index < frame_->input_dtypes.size() ? frame_->input_dtypes[index] : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
  ge::DataType GetRequiredInputDataType(size_t ir_index) const { return GetDynamicInputDataType(ir_index, 0); }
  ge::DataType GetDynamicInputDataType(size_t ir_index, size_t relative_index) const {
    size_t index = 0;
    if (!twin::InstanceIndex(frame_->input_ir_ranges, ir_index, relative_index, &index)) return ge::DT_UNDEFINED;
    return frame_->input_dtypes[index];
  }
  ge::DataType GetOutputDataType(size_t index) const {
    return index < frame_->output_dtypes.size() ? frame_->output_dtypes[index] : ge::DT_UNDEFINED;
  }
  ge::graphStatus SetOutputDataType(size_t index, ge::DataType datatype) {
    if (index >= frame_->output_dtypes.size()) return ge::GRAPH_FAILED;
    frame_->output_dtypes[index] = datatype;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus SetDynamicOutputDataType(size_t ir_index, size_t relative_index, ge::DataType datatype) {
    size_t index = 0;
    if (!twin::InstanceIndex(frame_->output_ir_ranges, ir_index, relative_index, &index)) return ge::GRAPH_FAILED;
    frame_->output_dtypes[index] = datatype;
    return ge::GRAPH_SUCCESS;
  }
  const RuntimeAttrs *GetAttrs() const { return &frame_->attrs; }
  const ComputeNodeInfo *GetComputeNodeInfo() const { return &node_info_; }
  const char *GetNodeName() const { return frame_->node_name.c_str(); }
  const char *GetNodeType() const { return frame_->node_type.c_str(); }

 private:
  InferContextFrame *frame_;
  ComputeNodeInfo node_info_;
};
}  // namespace gert

#endif  // METADEF_CXX_INC_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
