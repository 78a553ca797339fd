/* ES (eager-style graph builder) C API of libeager_style_graph_builder_base.so, CANN's
 * esb_funcs.h. The C++ classes (es_graph_builder.h, es_tensor_holder.h) are inline wrappers over
 * these functions, and the Es<Op> functions gen_esb generates call the EsNode* functions, so user
 * objects and generated libraries cross into the base library only through C types (no
 * std::string / _GLIBCXX_USE_CXX11_ABI dependence).
 *
 * Ownership: a graph builder owns every tensor holder and holder array it returns; they stay
 * valid until EsDestroyGraphBuilder (EsBuildGraphAndReset invalidates them for further building).
 * Errors: functions return NULL / non-zero, log one line on stderr ("[ERROR] ES(<pid>): ...") and
 * keep it, per thread, for EsGetLastErrorMessage(). */
#ifndef INC_EXTERNAL_GE_ESB_FUNCS_H_
#define INC_EXTERNAL_GE_ESB_FUNCS_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ESB_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ESB_FUNC_VISIBILITY
#endif

typedef struct EsCGraphBuilder EsCGraphBuilder;
typedef struct EsCTensorHolder EsCTensorHolder;
typedef struct EsCNodeBuilder EsCNodeBuilder;
/* A built graph: a ge::Graph* to C++ callers (es_graph_builder.h wraps it in a unique_ptr). */
typedef struct EsCGraph EsCGraph;
/* ge::DataType / ge::Format values (graph/types.h). */
typedef int32_t EsCDataType;
typedef int32_t EsCFormat;

/* ---- graph builder ---- */
ESB_FUNC_VISIBILITY EsCGraphBuilder *EsCreateGraphBuilder(const char *name);
ESB_FUNC_VISIBILITY void EsDestroyGraphBuilder(EsCGraphBuilder *builder);
ESB_FUNC_VISIBILITY const char *EsGetGraphBuilderName(const EsCGraphBuilder *builder);
/* A Data node (attr index) named name (NULL: "input_<index>"), type "Data" unless input_type
 * names another input type (RefData, AippData, AnyData); dims NULL with dim_num 0 is a scalar. */
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateGraphInputWithDetails(EsCGraphBuilder *builder, int64_t index,
                                                                   const char *name, const char *input_type,
                                                                   EsCDataType data_type, EsCFormat format,
                                                                   const int64_t *dims, int64_t dim_num);
/* Data node "input_<index>", DT_FLOAT, FORMAT_ND, scalar shape. */
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateGraphInput(EsCGraphBuilder *builder, int64_t index);
/* Const nodes (attr "value", a ge::Tensor); dims NULL = a vector of num elements. */
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateConstInt64(EsCGraphBuilder *builder, const int64_t *value,
                                                        const int64_t *dims, int64_t dim_num, int64_t num);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateConstInt32(EsCGraphBuilder *builder, const int32_t *value,
                                                        const int64_t *dims, int64_t dim_num, int64_t num);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateConstFloat(EsCGraphBuilder *builder, const float *value,
                                                        const int64_t *dims, int64_t dim_num, int64_t num);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateScalarInt64(EsCGraphBuilder *builder, int64_t value);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateScalarInt32(EsCGraphBuilder *builder, int32_t value);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateScalarFloat(EsCGraphBuilder *builder, float value);
ESB_FUNC_VISIBILITY EsCTensorHolder *EsCreateVectorInt64(EsCGraphBuilder *builder, const int64_t *value, int64_t num);
/* Graph output output_index is tensor (indexes 0..n-1 must all be set before building). */
ESB_FUNC_VISIBILITY uint32_t EsSetGraphOutput(EsCTensorHolder *tensor, int64_t output_index);
/* The graph (a new ge::Graph*, the caller's to delete) of everything built so far; the builder is
 * then reset (empty, same name) and its holders must not be used for building any more. */
ESB_FUNC_VISIBILITY EsCGraph *EsBuildGraphAndReset(EsCGraphBuilder *builder);

/* ---- tensor holders ---- */
ESB_FUNC_VISIBILITY EsCGraphBuilder *EsGetOwnerBuilder(const EsCTensorHolder *tensor);
/* Name of the producing node and the flat index of the output it holds. */
ESB_FUNC_VISIBILITY const char *EsGetProducerName(const EsCTensorHolder *tensor);
ESB_FUNC_VISIBILITY int64_t EsGetOutputIndex(const EsCTensorHolder *tensor);
ESB_FUNC_VISIBILITY uint32_t EsSetDataType(EsCTensorHolder *tensor, EsCDataType data_type);
ESB_FUNC_VISIBILITY uint32_t EsSetFormat(EsCTensorHolder *tensor, EsCFormat format);
ESB_FUNC_VISIBILITY uint32_t EsSetShape(EsCTensorHolder *tensor, const int64_t *dims, int64_t dim_num);
ESB_FUNC_VISIBILITY uint32_t EsSetInt64AttrForNode(EsCTensorHolder *tensor, const char *name, int64_t value);
ESB_FUNC_VISIBILITY uint32_t EsSetStringAttrForNode(EsCTensorHolder *tensor, const char *name, const char *value);
ESB_FUNC_VISIBILITY uint32_t EsSetBoolAttrForNode(EsCTensorHolder *tensor, const char *name, bool value);

/* ---- node building, called by generated Es<Op> code ----
 * EsNodeBegin, then every IR input and every IR output in IR order, then attrs, EsNodeEnd,
 * EsNodeGet*Output*, EsNodeRelease. If the op type is registered (its proto library is loaded),
 * the node is created from the prototype and the declared layout must match it; otherwise the
 * declared layout is the node's IR. */
/* owner: used when no input holder is given; otherwise the inputs' builder is the owner. */
ESB_FUNC_VISIBILITY EsCNodeBuilder *EsNodeBegin(const char *op_type, EsCGraphBuilder *owner);
/* A required input (NULL is an error), an optional one (NULL leaves it unconnected), a dynamic one. */
ESB_FUNC_VISIBILITY void EsNodeInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *tensor);
ESB_FUNC_VISIBILITY void EsNodeOptionalInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *tensor);
ESB_FUNC_VISIBILITY void EsNodeDynamicInput(EsCNodeBuilder *node, const char *ir_name, EsCTensorHolder *const *tensors,
                                            int64_t num);
ESB_FUNC_VISIBILITY void EsNodeOutput(EsCNodeBuilder *node, const char *ir_name);
ESB_FUNC_VISIBILITY void EsNodeDynamicOutput(EsCNodeBuilder *node, const char *ir_name, int64_t num);
ESB_FUNC_VISIBILITY void EsNodeAttrInt(EsCNodeBuilder *node, const char *name, int64_t value);
ESB_FUNC_VISIBILITY void EsNodeAttrFloat(EsCNodeBuilder *node, const char *name, float value);
ESB_FUNC_VISIBILITY void EsNodeAttrBool(EsCNodeBuilder *node, const char *name, bool value);
ESB_FUNC_VISIBILITY void EsNodeAttrString(EsCNodeBuilder *node, const char *name, const char *value);
ESB_FUNC_VISIBILITY void EsNodeAttrDataType(EsCNodeBuilder *node, const char *name, EsCDataType value);
/* value: a const ge::Tensor *; NULL leaves the IR default. */
ESB_FUNC_VISIBILITY void EsNodeAttrTensor(EsCNodeBuilder *node, const char *name, const void *value);
ESB_FUNC_VISIBILITY void EsNodeAttrListInt(EsCNodeBuilder *node, const char *name, const int64_t *value, int64_t num);
ESB_FUNC_VISIBILITY void EsNodeAttrListFloat(EsCNodeBuilder *node, const char *name, const float *value, int64_t num);
ESB_FUNC_VISIBILITY void EsNodeAttrListBool(EsCNodeBuilder *node, const char *name, const bool *value, int64_t num);
ESB_FUNC_VISIBILITY void EsNodeAttrListString(EsCNodeBuilder *node, const char *name, const char *const *value,
                                              int64_t num);
ESB_FUNC_VISIBILITY void EsNodeAttrListDataType(EsCNodeBuilder *node, const char *name, const EsCDataType *value,
                                                int64_t num);
/* value[i] has inner_num[i] elements. */
ESB_FUNC_VISIBILITY void EsNodeAttrListListInt(EsCNodeBuilder *node, const char *name, const int64_t *const *value,
                                               const int64_t *inner_num, int64_t num);
/* Creates the node. Returns 0, or non-zero after logging the first error of any EsNode* call on
 * it (unknown op, unknown input, holders of different builders, ...). */
ESB_FUNC_VISIBILITY uint32_t EsNodeEnd(EsCNodeBuilder *node);
/* After a successful EsNodeEnd: the holder of the ir_index-th IR output (a required one), or an
 * array (owned by the graph builder) of every instance of a dynamic one with *num set. */
ESB_FUNC_VISIBILITY EsCTensorHolder *EsNodeGetOutput(EsCNodeBuilder *node, int64_t ir_index);
ESB_FUNC_VISIBILITY EsCTensorHolder **EsNodeGetDynamicOutputs(EsCNodeBuilder *node, int64_t ir_index, int64_t *num);
/* Releases the node builder (after EsNodeEnd and reading outputs). */
ESB_FUNC_VISIBILITY void EsNodeRelease(EsCNodeBuilder *node);

/* The last error of this thread ("" if none). */
ESB_FUNC_VISIBILITY const char *EsGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_GE_ESB_FUNCS_H_ */
