#include "twin/om/tests/binding_builders.h"

namespace asc_twin::om::testing {

Binding InputBinding(uint32_t index) {
  Binding binding;
  binding.set_input(index);
  return binding;
}

Binding OutputBinding(uint32_t index) {
  Binding binding;
  binding.set_output(index);
  return binding;
}

Binding FeatureMapBinding(uint64_t offset, uint64_t size) {
  Binding binding;
  binding.mutable_feature_map()->set_offset(offset);
  binding.mutable_feature_map()->set_size(size);
  return binding;
}

Binding ScalarBinding(uint64_t value) {
  Binding binding;
  binding.set_scalar(value);
  return binding;
}

}  // namespace asc_twin::om::testing
