// The AI core's local memories besides the UB: L1, L0A, L0B, L0C, BiasTable and Fixpipe
// buffer (CANN's Hardware positions). Each is per block, allocated on first use (a
// LocalMemAllocator or a static-tensor LocalTensor of that position) and freed when the block
// ends; its contents are whatever the last writer left, as the UB's. The twin models their
// capacity and addressing, not the cube unit: data moved into them is plain memory, so
// DataCopy GM <-> L1 (also with SetAtomicAdd & co) works as for the UB.
#ifndef ASC_TWIN_CORE_BUFFERS_H_
#define ASC_TWIN_CORE_BUFFERS_H_

#include <cstdint>
#include <cstdlib>

#include "asc_twin/trap.h"

namespace AscendC {
namespace twin {

// The local memories a block may allocate from, besides the UB (the env's ub_base).
enum class CoreBuffer : uint8_t { L1, L0A, L0B, L0C, BIAS, FIXBUF, COUNT };

inline const char* CoreBufferName(CoreBuffer which) {
  switch (which) {
    case CoreBuffer::L1: return "L1";
    case CoreBuffer::L0A: return "L0A";
    case CoreBuffer::L0B: return "L0B";
    case CoreBuffer::L0C: return "L0C";
    case CoreBuffer::BIAS: return "BIAS";
    case CoreBuffer::FIXBUF: return "FIXBUF";
    default: return "?";
  }
}

// Capacity in bytes for the NpuArch the kernel is built for (-D__NPU_ARCH__). L1/L0 sizes are
// the [AICoreSpec] values of twin/platform/<SoC>.ini for that arch (the env carries only the
// UB's); BiasTable 1 KiB and Fixpipe buffer 2 KiB are the twin's figures (not in the ini).
constexpr uint64_t CoreBufferBytes(CoreBuffer which) {
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 3510)
  constexpr uint64_t kL1 = 1048576, kL0C = 262144;
#elif defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3002)
  constexpr uint64_t kL1 = 1048576, kL0C = 131072;
#else  // 2201 (Atlas A2/A3) and the default
  constexpr uint64_t kL1 = 524288, kL0C = 131072;
#endif
  return which == CoreBuffer::L1    ? kL1
         : which == CoreBuffer::L0A ? 65536
         : which == CoreBuffer::L0B ? 65536
         : which == CoreBuffer::L0C ? kL0C
         : which == CoreBuffer::BIAS ? 1024
         : which == CoreBuffer::FIXBUF ? 2048
                                       : 0;
}

// One block's buffers; pointers null until first used.
struct CoreBuffers {
  uint8_t* base[static_cast<int>(CoreBuffer::COUNT)] = {};

  uint8_t* Get(CoreBuffer which) {
    uint8_t*& slot = base[static_cast<int>(which)];
    if (slot == nullptr) {
      slot = static_cast<uint8_t*>(std::aligned_alloc(4096, CoreBufferBytes(which)));
      if (slot == nullptr) {
        RaiseTrap("LocalMemAllocator: cannot allocate the block's %s buffer (%llu bytes) on the host",
                  CoreBufferName(which), static_cast<unsigned long long>(CoreBufferBytes(which)));
      }
    }
    return slot;
  }
  const uint8_t* Peek(CoreBuffer which) const { return base[static_cast<int>(which)]; }
  void Release() {
    for (uint8_t*& p : base) {
      std::free(p);
      p = nullptr;
    }
  }
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CORE_BUFFERS_H_
