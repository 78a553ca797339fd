#ifndef GE_TWIN_GRAPH_SRC_AIR_DESCRIBE_H_
#define GE_TWIN_GRAPH_SRC_AIR_DESCRIBE_H_

#include <string>

#include "json.h"

namespace ge_twin {
// Validates AIR bytes like LoadFromFile and describes the graph; "" or a one-line error.
std::string DescribeAir(const std::string &bytes, const std::string &source, json::Value *out);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_AIR_DESCRIBE_H_
