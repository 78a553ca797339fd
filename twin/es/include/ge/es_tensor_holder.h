/* ge::es::EsTensorHolder: one output of a node under construction (CANN's es_tensor_holder.h).
 * Header-only over esb_funcs.h, so it is independent of the user's _GLIBCXX_USE_CXX11_ABI. */
#ifndef INC_EXTERNAL_GE_ES_TENSOR_HOLDER_H_
#define INC_EXTERNAL_GE_ES_TENSOR_HOLDER_H_

#include <cstdint>
#include <vector>

#include "esb_funcs.h"
#include "graph/types.h"

namespace ge {
namespace es {
class EsGraphBuilder;

class EsTensorHolder {
 public:
  EsTensorHolder() = default;
  EsTensorHolder(EsCTensorHolder *holder) : holder_(holder) {}  // NOLINT: generated code converts implicitly

  bool IsValid() const { return holder_ != nullptr; }
  EsCTensorHolder *GetCTensorHolder() const { return holder_; }
  const char *GetProducerName() const { return holder_ == nullptr ? "" : EsGetProducerName(holder_); }
  int64_t GetOutputIndex() const { return holder_ == nullptr ? -1 : EsGetOutputIndex(holder_); }

  // Chainable, as CANN's: y.SetShape({n}).SetFormat(FORMAT_ND).SetDataType(DT_FLOAT).
  EsTensorHolder &SetDataType(ge::DataType data_type) {
    EsSetDataType(holder_, static_cast<EsCDataType>(data_type));
    return *this;
  }
  EsTensorHolder &SetFormat(ge::Format format) {
    EsSetFormat(holder_, static_cast<EsCFormat>(format));
    return *this;
  }
  EsTensorHolder &SetShape(const std::vector<int64_t> &dims) {
    EsSetShape(holder_, dims.data(), static_cast<int64_t>(dims.size()));
    return *this;
  }
  EsTensorHolder &SetAttrForNode(const char *name, int64_t value) {
    EsSetInt64AttrForNode(holder_, name, value);
    return *this;
  }
  EsTensorHolder &SetAttrForNode(const char *name, const char *value) {
    EsSetStringAttrForNode(holder_, name, value);
    return *this;
  }
  EsTensorHolder &SetAttrForNode(const char *name, bool value) {
    EsSetBoolAttrForNode(holder_, name, value);
    return *this;
  }

 private:
  EsCTensorHolder *holder_ = nullptr;
};

// Helpers of generated code: holder lists to C arrays and back.
inline std::vector<EsCTensorHolder *> TensorsToEsCTensorHolders(const std::vector<EsTensorHolder> &tensors) {
  std::vector<EsCTensorHolder *> out;
  out.reserve(tensors.size());
  for (const auto &t : tensors) out.push_back(t.GetCTensorHolder());
  return out;
}

inline std::vector<EsTensorHolder> EsCTensorHoldersToTensors(EsCTensorHolder *const *holders, int64_t num) {
  std::vector<EsTensorHolder> out;
  for (int64_t i = 0; holders != nullptr && i < num; ++i) out.emplace_back(holders[i]);
  return out;
}
}  // namespace es
}  // namespace ge

#endif  // INC_EXTERNAL_GE_ES_TENSOR_HOLDER_H_
