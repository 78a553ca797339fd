// Builds an OM container in memory (see FORMAT.md). The graph compiler writes OMs from Python
// (om.py); this C++ writer serves C++ tools and tests and produces identical bytes.
#ifndef TWIN_OM_OM_WRITER_H_
#define TWIN_OM_OM_WRITER_H_

#include <string>
#include <vector>

#include "twin/om/om.pb.h"

namespace asc_twin::om {

// The header's SoC version, NpuArch and format version are taken from `model`. Partition order:
// MODEL_DEF, KERNEL_BINARY..., then CONSTANTS if `constants` is non-empty, then GRAPH if `graph`
// is non-empty (which also sets the REQUIRES_PYTHON flag). The result is not validated; ReadOm
// does that.
std::string SerializeOm(const ModelDef &model, const std::vector<std::string> &kernel_binaries,
                        const std::string &constants = std::string(), const std::string &graph = std::string());

// Recomputes the header SHA-256 of a container in place (for tests that edit the table).
void ResealHeader(std::string *container);

}  // namespace asc_twin::om

#endif  // TWIN_OM_OM_WRITER_H_
