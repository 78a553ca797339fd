// Internal symbols that one twin graph library calls in another (libgraph.so -> libgraph_base.so,
// libopp_registry.so -> libgraph_base.so). The libraries build with -fvisibility=hidden, so these
// need default visibility; they are not part of the public headers.
#ifndef GE_TWIN_GRAPH_SRC_EXPORT_H_
#define GE_TWIN_GRAPH_SRC_EXPORT_H_

#define GE_TWIN_INTERNAL_API __attribute__((visibility("default")))

#endif  // GE_TWIN_GRAPH_SRC_EXPORT_H_
