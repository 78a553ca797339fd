// The reduce patterns of reduce.h: one letter per dimension of the source, R reduced, A kept
// (AR: reduce the last axis of a 2-D source; RA: the first).
#ifndef ASC_TWIN_ADV_API_REDUCE_REDUCE_COMMON_H_
#define ASC_TWIN_ADV_API_REDUCE_REDUCE_COMMON_H_

#include <cstdint>

namespace AscendC {
namespace Pattern {
namespace Reduce {

#define ASC_TWIN_REDUCE_PATTERN(Name)           \
  struct Name {                                 \
    static constexpr const char* kAxes = #Name; \
  };
ASC_TWIN_REDUCE_PATTERN(R)
ASC_TWIN_REDUCE_PATTERN(AR)
ASC_TWIN_REDUCE_PATTERN(RA)
ASC_TWIN_REDUCE_PATTERN(ARA)
ASC_TWIN_REDUCE_PATTERN(ARAR)
ASC_TWIN_REDUCE_PATTERN(ARARA)
ASC_TWIN_REDUCE_PATTERN(ARARAR)
ASC_TWIN_REDUCE_PATTERN(ARARARA)
ASC_TWIN_REDUCE_PATTERN(ARARARAR)
ASC_TWIN_REDUCE_PATTERN(ARARARARA)
ASC_TWIN_REDUCE_PATTERN(RAR)
ASC_TWIN_REDUCE_PATTERN(RARA)
ASC_TWIN_REDUCE_PATTERN(RARAR)
ASC_TWIN_REDUCE_PATTERN(RARARA)
ASC_TWIN_REDUCE_PATTERN(RARARAR)
ASC_TWIN_REDUCE_PATTERN(RARARARA)
#undef ASC_TWIN_REDUCE_PATTERN

}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_REDUCE_REDUCE_COMMON_H_
