// The Matmul tiling's error line: one line in the log (module ASCENDC, error level, CANN's plog
// rules), and -1, the value every failing matmul_tiling call returns.
#ifndef ASC_TWIN_TILING_SRC_MATMUL_TILING_LOG_H_
#define ASC_TWIN_TILING_SRC_MATMUL_TILING_LOG_H_

#include <cstdint>

namespace asc_twin_tiling {

int32_t MatmulTilingError(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace asc_twin_tiling

#endif  // ASC_TWIN_TILING_SRC_MATMUL_TILING_LOG_H_
