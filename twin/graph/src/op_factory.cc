#include "op_factory.h"

#include <map>
#include <mutex>
#include <utility>

#include "log.h"

namespace ge_twin {
namespace {
struct CreatorRegistry {
  std::mutex mutex;
  std::map<std::string, ge::OpCreatorV2> creators;
};

CreatorRegistry &Creators() {
  static CreatorRegistry *registry = new CreatorRegistry();  // never destroyed: used by static dtors of OPP libs
  return *registry;
}

}  // namespace

bool CreateRegisteredOperator(const std::string &type, const std::string &name, ge::Operator *op) {
  ge::OpCreatorV2 creator;
  {
    std::lock_guard<std::mutex> lock(Creators().mutex);
    auto it = Creators().creators.find(type);
    if (it == Creators().creators.end()) return false;
    creator = it->second;
  }
  *op = creator(ge::AscendString(name.c_str()));
  return true;
}

std::vector<std::string> RegisteredOperatorTypes() {
  std::lock_guard<std::mutex> lock(Creators().mutex);
  std::vector<std::string> types;
  for (const auto &entry : Creators().creators) types.push_back(entry.first);
  return types;
}

}  // namespace ge_twin

namespace ge {
Operator OperatorFactory::CreateOperator(const char *operator_name, const char *operator_type) {
  Operator op;
  if (operator_type == nullptr ||
      !ge_twin::CreateRegisteredOperator(operator_type, operator_name == nullptr ? "" : operator_name, &op)) {
    GE_TWIN_LOGE("OperatorFactory::CreateOperator: op type '%s' is not registered",
                 operator_type == nullptr ? "" : operator_type);
    return Operator();
  }
  return op;
}

graphStatus OperatorFactory::GetOpsTypeList(std::vector<AscendString> &all_ops) {
  all_ops.clear();
  for (const auto &type : ge_twin::RegisteredOperatorTypes()) all_ops.emplace_back(type.c_str());
  return GRAPH_SUCCESS;
}

bool OperatorFactory::IsExistOp(const char *operator_type) {
  if (operator_type == nullptr) return false;
  std::lock_guard<std::mutex> lock(ge_twin::Creators().mutex);
  return ge_twin::Creators().creators.count(operator_type) != 0;
}

OperatorCreatorRegister::OperatorCreatorRegister(const char *operator_type, OpCreatorV2 const &op_creator) {
  if (operator_type == nullptr || !op_creator) return;
  std::lock_guard<std::mutex> lock(ge_twin::Creators().mutex);
  bool inserted = ge_twin::Creators().creators.emplace(operator_type, op_creator).second;
  if (!inserted) GE_TWIN_LOGI("operator type '%s' is already registered; keeping the first", operator_type);
}
}  // namespace ge
