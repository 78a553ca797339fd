// Attribute values and tensor descriptions <-> AIR's messages (air.proto). AIR files and the C
// ABI (graph_c_api.proto) both carry these messages, so both convert through these functions.
#ifndef GE_TWIN_GRAPH_SRC_AIR_VALUES_H_
#define GE_TWIN_GRAPH_SRC_AIR_VALUES_H_

#include <cstdint>
#include <string>

#include "graph/tensor.h"
#include "operator_impl.h"
#include "twin/graph/proto/air.pb.h"

namespace ge {
void EncodeDesc(const TensorDesc &desc, ::ge::twin::air::TensorDesc *out);
void EncodeAttr(const AttrValue &value, ::ge::twin::air::AttrValue *out);

// "" or "<where>: <what> <value> is out of range [0, <limit>)".
std::string CheckEnumValue(int32_t value, int32_t limit, const char *what, const std::string &where);
// Both return "" or a one-line error starting with `where`; *out is untouched on error.
std::string DecodeDesc(const ::ge::twin::air::TensorDesc &in, const std::string &where, TensorDesc *out);
std::string DecodeAttr(const ::ge::twin::air::AttrValue &in, const std::string &where, AttrValue *out);
}  // namespace ge

#endif  // GE_TWIN_GRAPH_SRC_AIR_VALUES_H_
