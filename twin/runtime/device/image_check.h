// Complete validation of a device image (ELF shared object) before anything maps it: the
// checks the loader would otherwise trust. Runs in the device process (and in the fuzz target).
#ifndef TWIN_RUNTIME_DEVICE_IMAGE_CHECK_H_
#define TWIN_RUNTIME_DEVICE_IMAGE_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

// Program headers (bounds, alignment, ascending PT_LOADs, no W+X segment, no PT_INTERP, no
// executable stack), the dynamic section (bounds, DT_NULL-terminated, string table in bounds,
// DT_NEEDED only from the allow-list and never a path, no DT_INIT/DT_FINI/(PRE)INIT_ARRAY/
// FINI_ARRAY, no TEXTREL, no RPATH/RUNPATH, no AUDIT/FILTER), and every kernel's entry and info
// symbol defined in .dynsym. Error: ACL_ERROR_INVALID_PARAM, "invalid kernel binary: ...".
Status CheckDeviceImage(const uint8_t *data, size_t length, const std::vector<std::string> &kernels);

// The libraries a kernel image may need: the C and C++ runtimes of the host.
const std::vector<std::string> &AllowedNeededLibraries();

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_DEVICE_IMAGE_CHECK_H_
