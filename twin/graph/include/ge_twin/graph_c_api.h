/*
 * C ABI of the graph library (libgraph.so) for Python (ctypes) and other non-C++ callers.
 *
 * Conventions
 *   - Requests and responses are serialized protobuf messages of the package ge.twin.capi, whose
 *     one schema is twin/graph/proto/graph_c_api.proto (installed as
 *     python/site-packages/twin/graph/proto/graph_c_api_pb2.py for Python; any protobuf runtime
 *     reads them). Attribute values and tensor descriptions are AIR's messages (air.proto).
 *   - Every function returns a ge::graphStatus value: 0 (GRAPH_SUCCESS), 50331649
 *     (GRAPH_PARAM_INVALID: bad request, unknown op, bad input) or 0xFFFFFFFF (GRAPH_FAILED: a
 *     library failed to load, an inference function failed).
 *   - A response is written to *out_data / *out_size: malloc'ed bytes the caller frees with
 *     GeTwinGraphFreeBuffer (an empty message may be 0 bytes, still a non-NULL pointer). On
 *     failure *out_data is NULL, *out_size 0, and *error_out holds one NUL-terminated UTF-8 line
 *     naming what failed and why (malloc'ed; free it with GeTwinGraphFreeString). On success
 *     *error_out is NULL. NULL may be passed for out_data/out_size together, and for error_out
 *     (the message is then only logged).
 *   - Thread-safe; the only state is the process-wide proto / IMPL_OP registries.
 *
 * Messages
 *   GeTwinGraphLoadOppLibraries -> LoadedLibraries
 *   GeTwinGraphListOpProtos     -> OpProtoList (every registered REG_OP prototype, sorted by type)
 *   GeTwinGraphInferOp          InferRequest -> InferResponse
 *   GeTwinGraphDescribeAir      -> AirDescription
 *   Inference runs the op's IMPL_OP InferShape then InferDataType. Without InferDataType the
 *   output dtype is taken from an input sharing its DATATYPE symbol (or a single-dtype type);
 *   otherwise the call fails with OP_WITHOUT_IR_DATATYPE_INFER_RULE (50331645).
 */
#ifndef GE_TWIN_GRAPH_C_API_H_
#define GE_TWIN_GRAPH_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GE_TWIN_GRAPH_C_API_VERSION 2u

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
 * The response is a LoadedLibraries message. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphLoadOppLibraries(const char *root_list, void **out_data, size_t *out_size,
                                                         char **error_out);

/* Every registered operator prototype (built-in and loaded): an OpProtoList message. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphListOpProtos(void **out_data, size_t *out_size, char **error_out);

/* Runs an op's registered IMPL_OP inference on the shapes/dtypes/attrs of an InferRequest
 * (request_size bytes at request); the response is an InferResponse. */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphInferOp(const void *request, size_t request_size, void **out_data,
                                                size_t *out_size, char **error_out);

/* Validates an AIR file as ge::Graph::LoadFromFile does and describes it: an AirDescription
 * (name, inputs, outputs, nodes in topological order with input edges, descs and attr types). */
GE_TWIN_GRAPH_C_API uint32_t GeTwinGraphDescribeAir(const char *path, void **out_data, size_t *out_size,
                                                    char **error_out);

GE_TWIN_GRAPH_C_API void GeTwinGraphFreeBuffer(void *data);
GE_TWIN_GRAPH_C_API void GeTwinGraphFreeString(char *s);

#ifdef __cplusplus
}
#endif

#endif /* GE_TWIN_GRAPH_C_API_H_ */
