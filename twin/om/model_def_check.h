// Checks a parsed ModelDef against its container: header agreement and every index, range and
// name the executor will rely on, so that loading never trusts an unchecked number.
#ifndef TWIN_OM_MODEL_DEF_CHECK_H_
#define TWIN_OM_MODEL_DEF_CHECK_H_

#include <string>

#include "twin/om/om_reader.h"

namespace asc_twin::om {

constexpr uint32_t kMaxBlockDim = 65535;
constexpr int kMaxKernelArgs = 1024;

// Bytes a binding refers to (input/output tensor size, feature-map or constant region size); 0
// for a scalar or an unset binding.
uint64_t BindingSize(const ModelDef &model, const Binding &binding);

bool CheckModelDef(const OmContainer &container, ReadErrorKind *kind, std::string *why);

// The GRAPH partition of a Python-run model is one AIR model (format version 1) whose inputs
// are the ModelDef's inputs, by name and order, and whose output count is the ModelDef's.
bool CheckGraph(const OmContainer &container, std::string *why);

}  // namespace asc_twin::om

#endif  // TWIN_OM_MODEL_DEF_CHECK_H_
