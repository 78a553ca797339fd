/* ge::OperatorFactory: the process-wide registry of operator prototypes (filled by
 * OP_END_FACTORY_REG's static OperatorCreatorRegister when a proto library is loaded). */
#ifndef INC_EXTERNAL_GRAPH_OPERATOR_FACTORY_H_
#define INC_EXTERNAL_GRAPH_OPERATOR_FACTORY_H_

#include <functional>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/ge_error_codes.h"
#include "graph/operator.h"

namespace ge {
using OpCreatorV2 = std::function<Operator(const AscendString &)>;

class GE_FUNC_VISIBILITY OperatorFactory {
 public:
  // An op of that type named operator_name, or an empty Operator (IsEmpty()) if unregistered.
  static Operator CreateOperator(const char *operator_name, const char *operator_type);
  static graphStatus GetOpsTypeList(std::vector<AscendString> &all_ops);
  static bool IsExistOp(const char *operator_type);
};

class GE_FUNC_VISIBILITY OperatorCreatorRegister {
 public:
  // The first registration of a type wins; later ones are ignored (logged at info level).
  OperatorCreatorRegister(const char *operator_type, OpCreatorV2 const &op_creator);
  ~OperatorCreatorRegister() = default;
};
}  // namespace ge

#endif  // INC_EXTERNAL_GRAPH_OPERATOR_FACTORY_H_
