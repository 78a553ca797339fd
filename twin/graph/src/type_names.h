// ge::DataType <-> "DT_FLOAT" names, and resolution of REG_OP type arguments to dtype sets.
#ifndef GE_TWIN_GRAPH_SRC_TYPE_NAMES_H_
#define GE_TWIN_GRAPH_SRC_TYPE_NAMES_H_

#include <string>
#include <utility>
#include <vector>

#include "graph/types.h"

namespace ge_twin {
// "DT_FLOAT" etc.; "" for a value that is not a DataType.
const char *DataTypeName(ge::DataType dt);
bool DataTypeFromName(const std::string &name, ge::DataType *dt);

// The dtypes a REG_OP type argument allows: a DATATYPE symbol ("T", quotes tolerated), an inline
// "TensorType({DT_FLOAT, ...})" or "TensorType::ALL()"-style named set. False if unresolvable.
bool ResolveTypeArgument(const std::string &type_argument,
                         const std::vector<std::pair<std::string, std::vector<ge::DataType>>> &symbols,
                         std::vector<ge::DataType> *dtypes);
// The DATATYPE symbol a type argument names, or "" if it is an inline TensorType.
std::string TypeSymbol(const std::string &type_argument,
                       const std::vector<std::pair<std::string, std::vector<ge::DataType>>> &symbols);
}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_TYPE_NAMES_H_
