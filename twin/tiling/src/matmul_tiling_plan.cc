#define ASC_TWIN_TILING_LIBRARY_BUILD  // optiling::TCubeTiling only as a name: see matmul_tilingdata.h
#include "matmul_tiling_plan.h"

#include <algorithm>

namespace asc_twin_tiling {
namespace {

constexpr int32_t kFractal = 16;  // M and N of a fractal (cube_m_size / cube_n_size)
constexpr int32_t kAccBytes = 4;  // L0C holds fp32 / int32
constexpr int32_t kDefaultMaxBaseM = 128;
constexpr int32_t kDefaultMaxBaseN = 256;
constexpr int32_t kDefaultMaxBaseK = 256;

int64_t AlignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }
int64_t AlignDown(int64_t v, int64_t a) { return v / a * a; }

// CANN's alignment of a K step (its UpdateStepK): unless the step covers all of K, the bytes of a
// step's K row of A are brought down to a multiple of 512 (above 512) or 256 (above 256), where
// one base block's K row divides that: 5 steps of 64 halves (640 B) become 4 (512 B).
int64_t AlignStepK(int64_t step, int64_t baseK, int64_t aBytes, int64_t singleK) {
  if (step * baseK >= singleK) return step;
  const int64_t row = baseK * aBytes;
  for (const int64_t unit : {int64_t{512}, int64_t{256}}) {
    if (step * row <= unit) continue;
    if (step * row % unit != 0 && unit % row == 0) {
      while (step * row % unit != 0 && step > 1) --step;
    }
    break;
  }
  return step;
}

std::string Num(int64_t v) { return std::to_string(v); }

// A fixed base value must be a positive multiple of `unit`.
bool CheckFixed(const char* name, int32_t value, int32_t unit, std::string* why) {
  if (value <= 0 || value % unit != 0) {
    *why = std::string(name) + " " + Num(value) + " set by SetFixSplit is not a positive multiple of " + Num(unit);
    return false;
  }
  return true;
}

}  // namespace

int32_t CubeK0(int32_t elementBytes) { return elementBytes >= 1 ? 32 / std::min(elementBytes, 4) : 32; }

bool PlanCubeBlocks(const CubeBlockRequest& r, CubeBlockPlan* plan, std::string* why) {
  if (r.m <= 0 || r.n <= 0 || r.k <= 0) {
    *why = "the shape M=" + Num(r.m) + " N=" + Num(r.n) + " K=" + Num(r.k) + " has a dim that is not positive";
    return false;
  }
  const int32_t k0 = CubeK0(r.aBytes);
  const int64_t alignedM = AlignUp(r.m, kFractal), alignedN = AlignUp(r.n, kFractal), alignedK = AlignUp(r.k, k0);
  CubeBlockPlan p;
  p.iterateOrder = r.traverseN ? 1 : 0;

  // M and N: fixed, else the largest fractal multiple up to the limit (never past the problem).
  if (r.fixBaseM > 0) {
    if (!CheckFixed("baseM", r.fixBaseM, kFractal, why)) return false;
    p.baseM = r.fixBaseM;
  } else {
    const int64_t cap = r.maxBaseM > 0 ? AlignDown(r.maxBaseM, kFractal) : kDefaultMaxBaseM;
    p.baseM = static_cast<int32_t>(std::max<int64_t>(kFractal, std::min(alignedM, cap)));
  }
  if (r.fixBaseN > 0) {
    if (!CheckFixed("baseN", r.fixBaseN, kFractal, why)) return false;
    p.baseN = r.fixBaseN;
  } else {
    int64_t cap = r.maxBaseN > 0 ? AlignDown(r.maxBaseN, kFractal) : kDefaultMaxBaseN;
    if (r.hasBias && r.bt > 0) cap = std::min<int64_t>(cap, AlignDown(r.bt / kAccBytes, kFractal));
    // L0C must hold one baseM x baseN accumulator
    cap = std::min<int64_t>(cap, AlignDown(static_cast<int64_t>(r.l0c) / (int64_t{p.baseM} * kAccBytes), kFractal));
    p.baseN = static_cast<int32_t>(std::min(alignedN, cap));
  }
  const int64_t accBytes = int64_t{p.baseM} * p.baseN * kAccBytes;
  if (p.baseN < kFractal || accBytes > static_cast<int64_t>(r.l0c)) {
    *why = "a " + Num(p.baseM) + "x" + Num(std::max(p.baseN, kFractal)) + " fp32 base block does not fit L0C (" +
           Num(static_cast<int64_t>(r.l0c)) + " bytes)";
    return false;
  }
  if (r.hasBias && r.bt > 0 && int64_t{p.baseN} * kAccBytes > static_cast<int64_t>(r.bt)) {
    *why = "baseN " + Num(p.baseN) + " of fp32 bias does not fit the BiasTable (" + Num(static_cast<int64_t>(r.bt)) +
           " bytes)";
    return false;
  }
  p.dbL0C = 2 * accBytes <= static_cast<int64_t>(r.l0c) ? 2 : 1;

  // K: the largest fractal multiple that fits L0A and L0B double-buffered, else single.
  const int64_t rowA = int64_t{p.baseM} * r.aBytes, rowB = int64_t{p.baseN} * r.bBytes;
  if (r.fixBaseK > 0) {
    if (!CheckFixed("baseK", r.fixBaseK, k0, why)) return false;
    p.baseK = r.fixBaseK;
  } else {
    int64_t cap = r.maxBaseK > 0 ? AlignDown(r.maxBaseK, k0) : kDefaultMaxBaseK;
    cap = std::min(cap, alignedK);
    int64_t fitDb = AlignDown(std::min<int64_t>(r.l0a / (2 * rowA), r.l0b / (2 * rowB)), k0);
    int64_t fitSingle = AlignDown(std::min<int64_t>(r.l0a / rowA, r.l0b / rowB), k0);
    p.baseK = static_cast<int32_t>(std::min(cap, fitDb >= k0 ? fitDb : fitSingle));
  }
  if (p.baseK < k0 || rowA * p.baseK > static_cast<int64_t>(r.l0a) || rowB * p.baseK > static_cast<int64_t>(r.l0b)) {
    *why = "base blocks " + Num(p.baseM) + "x" + Num(std::max(p.baseK, k0)) + " (A) and " + Num(std::max(p.baseK, k0)) +
           "x" + Num(p.baseN) + " (B) do not fit L0A/L0B (" + Num(static_cast<int64_t>(r.l0a)) + "/" +
           Num(static_cast<int64_t>(r.l0b)) + " bytes)";
    return false;
  }
  p.dbL0A = 2 * rowA * p.baseK <= static_cast<int64_t>(r.l0a) ? 2 : 1;
  p.dbL0B = 2 * rowB * p.baseK <= static_cast<int64_t>(r.l0b) ? 2 : 1;

  // L1: stepK base blocks of A and of B along K, double-buffered where they fit.
  const int64_t blockA = rowA * p.baseK, blockB = rowB * p.baseK;
  const int64_t biasL1 = r.hasBias ? int64_t{p.baseN} * r.biasBytes : 0;
  const int64_t budget = static_cast<int64_t>(r.l1) - biasL1;
  const int64_t kIter = (alignedK + p.baseK - 1) / p.baseK;
  int64_t step = std::min<int64_t>(kIter, budget / (2 * (blockA + blockB)));
  int32_t depthFactor = 2;
  if (step < 1) {
    step = budget >= blockA + blockB ? 1 : 0;
    depthFactor = 1;
  }
  if (step < 1) {
    *why = "L1 (" + Num(static_cast<int64_t>(r.l1)) + " bytes) cannot hold one " + Num(p.baseM) + "x" + Num(p.baseK) +
           " A block and one " + Num(p.baseK) + "x" + Num(p.baseN) + " B block" + (r.hasBias ? " beside the bias" : "");
    return false;
  }
  step = AlignStepK(step, p.baseK, r.aBytes, alignedK);
  p.stepKa = p.stepKb = static_cast<int32_t>(step);
  p.depthA1 = p.depthB1 = static_cast<int32_t>(step * depthFactor);
  p.l1Bytes = static_cast<int32_t>(p.depthA1 * blockA + p.depthB1 * blockB + biasL1);
  p.l0cBytes = static_cast<int32_t>(accBytes * p.dbL0C);
  *plan = p;
  return true;
}

}  // namespace asc_twin_tiling
