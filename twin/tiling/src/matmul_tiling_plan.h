// The split of one core's matmul into the cube's blocks: base blocks that fit L0A/L0B/L0C (M and
// N multiples of 16, K a multiple of the 32-byte fractal), K steps that fit L1 double-buffered.
// A pure function, so the rules are tested without a platform (matmul_tiling_plan_test).
#ifndef ASC_TWIN_TILING_SRC_MATMUL_TILING_PLAN_H_
#define ASC_TWIN_TILING_SRC_MATMUL_TILING_PLAN_H_

#include <cstdint>
#include <string>

namespace asc_twin_tiling {

struct CubeBlockRequest {
  int32_t m = 0, n = 0, k = 0;     // one core's problem (elements)
  int32_t aBytes = 2, bBytes = 2;  // element sizes of A and B
  int32_t biasBytes = 4;           // element size of the bias (when hasBias)
  bool hasBias = false;
  int32_t fixBaseM = -1, fixBaseN = -1, fixBaseK = -1;  // SetFixSplit (-1: choose)
  int32_t maxBaseM = -1, maxBaseN = -1, maxBaseK = -1;  // SetSplitRange (-1: no limit)
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, bt = 0;   // memory sizes in bytes
  bool traverseN = false;                               // MatrixTraverse::FIRSTN
};

struct CubeBlockPlan {
  int32_t baseM = 0, baseN = 0, baseK = 0;
  int32_t stepM = 1, stepN = 1, stepKa = 1, stepKb = 1;
  int32_t depthA1 = 1, depthB1 = 1;
  int32_t dbL0A = 1, dbL0B = 1, dbL0C = 1;
  int32_t iterateOrder = 0;  // 0: ORDER_M, 1: ORDER_N
  int32_t l1Bytes = 0;       // L1 used: A1 + B1 buffers + bias
  int32_t l0cBytes = 0;      // L0C used
};

// The fractal's K length in elements for an element size (32 bytes: fp16 16, int8 32, fp32 8).
int32_t CubeK0(int32_t elementBytes);

// False with *why (one sentence naming the value and the limit) when no split fits.
bool PlanCubeBlocks(const CubeBlockRequest& request, CubeBlockPlan* plan, std::string* why);

}  // namespace asc_twin_tiling

#endif  // ASC_TWIN_TILING_SRC_MATMUL_TILING_PLAN_H_
