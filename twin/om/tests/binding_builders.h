// Bindings for hand-built ModelDefs in tests: the arguments of kernel tasks and the ends of
// copy tasks (om.proto's Binding oneof), one builder a kind.
#ifndef TWIN_OM_TESTS_BINDING_BUILDERS_H_
#define TWIN_OM_TESTS_BINDING_BUILDERS_H_

#include <cstdint>

#include "twin/om/om.pb.h"

namespace asc_twin::om::testing {

Binding InputBinding(uint32_t index);
Binding OutputBinding(uint32_t index);
Binding FeatureMapBinding(uint64_t offset, uint64_t size);
Binding ScalarBinding(uint64_t value);

}  // namespace asc_twin::om::testing

#endif  // TWIN_OM_TESTS_BINDING_BUILDERS_H_
