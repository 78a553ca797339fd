// utils/std/utility.h (CANN's layout): AscendC::Std's forward, move, swap and integer sequences.
// As in type_traits.h, where CANN's utility means what the standard's does it is the standard's,
// so code mixing AscendC::Std and std sees one set of types.
#ifndef ASC_TWIN_UTILS_STD_UTILITY_H_
#define ASC_TWIN_UTILS_STD_UTILITY_H_

#include <cstddef>
#include <utility>

namespace AscendC {
namespace Std {

using std::declval;
using std::forward;
using std::index_sequence;
using std::index_sequence_for;
using std::integer_sequence;
using std::make_index_sequence;
using std::make_integer_sequence;
using std::move;
using std::swap;

}  // namespace Std
}  // namespace AscendC

#endif  // ASC_TWIN_UTILS_STD_UTILITY_H_
