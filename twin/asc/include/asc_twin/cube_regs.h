// Per-block control registers of the cube unit and its data movers, as far as the twin models
// them: the HF32 switches of Mmad (SetHF32Mode/SetHF32TransMode), the Load3D feature-map
// registers (SetFmatrix, SetLoadDataPaddingValue, SetLoadDataBoundary, SetLoadDataRepeat) and
// the Fixpipe registers the older Fixpipe forms read (SetFixpipeNz2ndFlag,
// SetFixpipePreQuantFlag, SetFixPipeConfig's per-channel table in the Fixpipe buffer). They live in VecRegs
// (vec_regs.h), so they are reset when a block ends.
#ifndef ASC_TWIN_CUBE_REGS_H_
#define ASC_TWIN_CUBE_REGS_H_

#include <cstdint>

namespace AscendC {
namespace twin {

struct CubeRegs {
  bool hf32 = false;             // SetHF32Mode: fp32 inputs rounded to HF32 before Mmad
  bool hf32NearestZero = false;  // SetHF32TransMode: NEAREST_ZERO (else NEAREST_EVEN)
  // Load3D fmatrix, left and right (FmatrixMode): l1H, l1W, padList (left, right, top, bottom).
  uint16_t fmatrixH[2] = {0, 0};
  uint16_t fmatrixW[2] = {0, 0};
  uint8_t fmatrixPad[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
  bool fmatrixSet[2] = {false, false};
  uint64_t load3dPadBits = 0;       // SetLoadDataPaddingValue (raw bits of the element)
  uint32_t load3dBoundary = 0;      // SetLoadDataBoundary (bytes from L1's start; 0: none)
  uint16_t load3dRepeatStride = 0;  // SetLoadDataRepeat
  uint8_t load3dRepeatTime = 1;
  uint8_t load3dRepeatMode = 0;
  uint16_t nz2ndNum = 1;  // SetFixpipeNz2ndFlag
  uint16_t nz2ndSrcStride = 0;
  uint32_t nz2ndDstStride = 0;
  uint64_t preQuant = 0;  // SetFixpipePreQuantFlag
  // SetFixPipeConfig: the per-channel quantisation table (one uint64_t per column) in the
  // Fixpipe buffer (C2PIPE2GM), or null; fixpipeTablePos names the last tensor's position.
  const uint64_t* fixpipeTable = nullptr;
  uint32_t fixpipeTableLen = 0;
  uint8_t fixpipeTablePos = 0xFF;
};

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_CUBE_REGS_H_
