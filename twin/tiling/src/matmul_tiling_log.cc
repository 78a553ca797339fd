#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include "matmul_tiling_log.h"

#include <cstdarg>
#include <cstdio>

#include "twin/common/log/log.h"

namespace asc_twin_tiling {

int32_t MatmulTilingError(const char* format, ...) {
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  ASCEND_TWIN_LOGE("ASCENDC", "[MatmulTiling] %s", line);
  return -1;
}

}  // namespace asc_twin_tiling
