// libFuzzer target: the OM container reader (header, partition table, SHA-256 checksums,
// ModelDef decoding and cross-checks) on arbitrary bytes. Built with
// -fsanitize=fuzzer,address,undefined (BUILD.bazel); any crash, leak or UB report is a finding.
#include <cstddef>
#include <cstdint>

#include "twin/om/om_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  asc_twin::om::OmContainer container;
  asc_twin::om::ReadError error;
  asc_twin::om::ReadOm(data, size, &container, &error);
  return 0;
}
