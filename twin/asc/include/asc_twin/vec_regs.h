// Per-block vector control registers of the twin: the mask mode and mask (MASK),
// the compare mask (CMPMASK) and the reduce special registers. On the NPU these are
// per core; here they live in the thread_local BlockState (block_state.h), so they are
// reset when a block ends (ClearBlock), also after a trap.
#ifndef ASC_TWIN_VEC_REGS_H_
#define ASC_TWIN_VEC_REGS_H_

#include <cstdint>

#include "asc_twin/cube_regs.h"

namespace AscendC {
namespace twin {

struct VecRegs {
  bool counterMode = false;                 // SetMaskCount() / SetMaskNorm()
  uint64_t maskHigh = ~0ull;                // Normal mode: lane bits 64..127; Counter mode: unused
  uint64_t maskLow = ~0ull;                 // Normal mode: lane bits 0..63; Counter mode: element count
  uint64_t cmpMask[2] = {0, 0};             // CMPMASK: Compare without dst, SetCmpMask, Select mode 0
  uint64_t reduceValueBits = 0;             // GetReduceRepeatMaxMinSpr / GetReduceMaxMinCount: value (raw bits)
  uint64_t reduceIndex = 0;                 //   ... and its index
  uint64_t accValueBits = 0;                // GetReduceRepeatSumSpr / GetAccVal: raw bits of the sum
  uint16_t mrgSortCount[4] = {0, 0, 0, 0};  // GetMrgSortResult: pairs taken from each list
  uint8_t atomicOp = 0;                     // SetAtomicAdd/Max/Min (1/2/3) or SetAtomicNone (0): UB -> GM moves
  bool deqScaleSet = false;                 // DEQSCALE written by SetDeqScale(half)
  uint16_t deqScaleBits = 0;                //   ... the half scale's bits
  bool padValueSet = false;                 // MOV_PAD_VAL written (SetPadValue, or DataCopyPad with isPad)
  uint64_t padValueBits = 0;                //   ... its raw bits (the low sizeof(T) bytes are the pad element)
  CubeRegs cube;                            // the cube unit's registers (cube_regs.h)
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_VEC_REGS_H_
