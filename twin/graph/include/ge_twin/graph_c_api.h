/*
 * C ABI of the graph library (libgraph.so) for Python (ctypes) and other non-C++ callers.
 *
 * Conventions
 *   - Every function returns a ge::graphStatus value: 0 (GRAPH_SUCCESS), 50331649
 *     (GRAPH_PARAM_INVALID: bad request, unknown op, bad input) or 0xFFFFFFFF (GRAPH_FAILED: a
 *     library failed to load, an inference function failed).
 *   - Out strings (`*json_out`, `*error_out`) are NUL-terminated UTF-8 allocated with malloc; the
 *     caller frees them with GeTwinGraphFreeString (NULL is fine). On success *error_out is set to
 *     NULL; on failure *json_out is set to NULL and *error_out holds one line naming what failed
 *     and why. Passing NULL for error_out is allowed (the message is then only logged).
 *   - Thread-safe; the only state is the process-wide proto / IMPL_OP registries.
 *
 * JSON shapes
 *   dtype: the ge::DataType name, e.g. "DT_FLOAT" (requests also accept the integer value).
 *   Non-finite floats (attr values in requests, defaults in listings) are the tokens NaN,
 *   Infinity and -Infinity, as Python's json module reads and writes them.
 *
 *   GeTwinGraphListOpProtos ->
 *   {"abi_version": 1,
 *    "ops": [                                         // sorted by op_type
 *      {"op_type": "PythonCompilableAddCustom",
 *       "inputs":  [{"name": "x1", "kind": "REQUIRED"|"OPTIONAL"|"DYNAMIC", "type": "T",
 *                    "dtypes": ["DT_FLOAT"] | null}],         // null: type not resolvable
 *       "outputs": [{"name": "y", "kind": "REQUIRED"|"DYNAMIC", "type": "T", "dtypes": [...]}],
 *       "attrs":   [{"name": "a", "type": "Int", "value_type": "VT_INT", "required": false,
 *                    "default": 0}],                          // "default" absent when required
 *       "datatypes": {"T": ["DT_FLOAT"]},                     // DATATYPE(...) symbols
 *       "has_infer_shape": true, "has_infer_datatype": true}]}
 *   Attr types are REG_OP's names: Int Float Bool String AscendString Type Tensor ListInt
 *   ListFloat ListBool ListString ListAscendString ListType ListListInt; value_type is the VT_*
 *   name Python's IR uses. A Type default is a dtype name; a Tensor default is
 *   {"shape": [...], "dtype": "...", "size": <bytes>}.
 *
 *   GeTwinGraphInferOp request ->
 *   {"op_type": "PythonCompilableAddCustom",
 *    "node_name": "add1",                                     // optional, defaults to op_type
 *    "inputs": [ <per IR input, in IR order>:
 *                {"shape": [2, 3], "dtype": "DT_FLOAT"}       // REQUIRED
 *                | null                                       // OPTIONAL and absent
 *                | [{"shape": ..., "dtype": ...}, ...] ],     // DYNAMIC instances
 *    "attrs": {"a": 1},                                       // optional; defaults fill the rest
 *    "dynamic_output_counts": {"y": 2}}                       // required per DYNAMIC output
 *   response ->
 *   {"op_type": "...", "outputs": [{"name": "y", "ir_name": "y", "ir_index": 0,
 *                                   "shape": [2, 3], "dtype": "DT_FLOAT"}]}   // flat instances
 *   Inference runs the op's IMPL_OP InferShape then InferDataType. Without InferDataType the
 *   output dtype is taken from an input sharing its DATATYPE symbol (or a single-dtype type);
 *   otherwise the call fails with OP_WITHOUT_IR_DATATYPE_INFER_RULE (50331645).
 */
#ifndef GE_TWIN_GRAPH_C_API_H_
#define GE_TWIN_GRAPH_C_API_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GE_TWIN_GRAPH_C_API_VERSION 1u

#if defined(__GNUC__)
#define GE_TWIN_GRAPH_C_API __attribute__((visibility("default")))
#else
#define GE_TWIN_GRAPH_C_API
#endif

/* GE_TWIN_GRAPH_C_API_VERSION of the loaded library. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphApiVersion(void);

/* Loads the OPP proto libraries of a ':'-separated root list exactly as CANN does for
 * ASCEND_CUSTOM_OPP_PATH: per root, <root>/libcust_opapi.so if present, then every *.so in
 * <root>/op_graph/lib/linux/<uname -m>/ (alphabetical); then, with lower priority, the OPP tree
 * at the current ASCEND_OPP_PATH (if set): <opp>/vendors/<name>/op_proto/lib/linux/<arch>/*.so in
 * the order of <opp>/vendors/config.ini's load_priority=a,b,c, <opp>/op_proto/custom/*.so and
 * <opp>/built-in/op_proto/lib/linux/<arch>/*.so (missing directories are skipped). Each library
 * is dlopen(RTLD_NOW | RTLD_GLOBAL)ed in that order.
 * root_list == NULL means the current value of ASCEND_CUSTOM_OPP_PATH. Entries that are files
 * (Python plugins) are skipped; an entry that does not exist is an error. A library built with
 * the other _GLIBCXX_USE_CXX11_ABI is refused before it is loaded, with the error
 * "<lib>: built with _GLIBCXX_USE_CXX11_ABI=<a>; CANN libraries use _GLIBCXX_USE_CXX11_ABI=<b>:
 * rebuild it with -D_GLIBCXX_USE_CXX11_ABI=<b>". Loading is idempotent.
 * *loaded_json_out (may be NULL) receives {"loaded": ["<path>", ...]}. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphLoadOppLibraries(const char *root_list, char **loaded_json_out,
                                                         char **error_out);

/* Every registered operator prototype (built-in and loaded), as JSON (see above). */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphListOpProtos(char **json_out, char **error_out);

/* Runs an op's registered IMPL_OP inference on the shapes/dtypes/attrs of request_json. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphInferOp(const char *request_json, char **json_out, char **error_out);

/* Validates an AIR file as ge::Graph::LoadFromFile does and describes it:
 * {"name": "g", "inputs": ["data_x"], "outputs": [{"node": "add", "index": 0}],
 *  "nodes": [{"name", "type", "inputs": [{"name", "src_node" (null if unconnected), "src_index",
 *             "desc": {"shape", "dtype", "format", "origin_shape", "origin_format"}}],
 *             "outputs": [{"name", "desc"}], "attr_types": {"index": "Int"}}]}   (topological order) */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphDescribeAir(const char *path, char **json_out, char **error_out);

GE_TWIN_GRAPH_C_API void GeTwinGraphFreeString(char *s);

#ifdef __cplusplus
}
#endif

#endif /* GE_TWIN_GRAPH_C_API_H_ */
