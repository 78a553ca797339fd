// The AI core's local memories as a block sees them: UB, L1, L0A, L0B, L0C, BiasTable and
// Fixpipe buffer (CANN's Hardware positions). The runtime allocates each block's memories,
// sized by the SoC's ini ([AICoreSpec] ub_size, l1_size, l0_a_size, l0_b_size, l0_c_size,
// bt_size, fb_size), and hands them over in AscTwinBlockEnv.mem; a memory the core type lacks
// has size 0 (an AIV has no L1, an AIC no UB). Contents are whatever the last writer left. The
// twin models capacity and addressing, not the cube unit: data moved into them is plain memory.
#ifndef ASC_TWIN_CORE_BUFFERS_H_
#define ASC_TWIN_CORE_BUFFERS_H_

#include <cstdint>

#include "asc_twin/aicore_abi.h"

namespace AscendC {
namespace twin {

// Index into LocalMems (== ASC_TWIN_MEM_*).
enum class CoreBuffer : uint8_t { UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, COUNT };
static_assert(static_cast<uint32_t>(CoreBuffer::FIXBUF) == ASC_TWIN_MEM_FB &&
                  static_cast<uint32_t>(CoreBuffer::COUNT) == ASC_TWIN_MEM_COUNT,
              "CoreBuffer follows ASC_TWIN_MEM_*");

inline const char* CoreBufferName(CoreBuffer which) {
  switch (which) {
    case CoreBuffer::UB:
      return "UB";
    case CoreBuffer::L1:
      return "L1";
    case CoreBuffer::L0A:
      return "L0A";
    case CoreBuffer::L0B:
      return "L0B";
    case CoreBuffer::L0C:
      return "L0C";
    case CoreBuffer::BIAS:
      return "BIAS";
    case CoreBuffer::FIXBUF:
      return "FIXBUF";
    default:
      return "?";
  }
}

// One block's memories, copied from the env when the block starts.
struct LocalMems {
  uint8_t* base[ASC_TWIN_MEM_COUNT] = {};
  uint64_t size[ASC_TWIN_MEM_COUNT] = {};
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CORE_BUFFERS_H_
