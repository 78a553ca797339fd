// Kernel file of the older layout (a .cpp compiled by bisheng through ascendc_library):
// z = alpha * x + beta * y, with a tiling struct by value and a scalar.
#include "kernel_operator.h"

struct AddTiling {
  uint32_t perBlock;
  float alpha;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, AddTiling t, float beta) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * t.perBlock * sizeof(float));
  AscendC::LocalTensor<float> a = buf.Get<float>();
  AscendC::LocalTensor<float> b = a[t.perBlock];
  AscendC::GlobalTensor<float> gx, gy, gz;
  const uint32_t offset = AscendC::GetBlockIdx() * t.perBlock;
  gx.SetGlobalBuffer((__gm__ float*)x + offset, t.perBlock);
  gy.SetGlobalBuffer((__gm__ float*)y + offset, t.perBlock);
  gz.SetGlobalBuffer((__gm__ float*)z + offset, t.perBlock);
  AscendC::DataCopy(a, gx, t.perBlock);
  AscendC::DataCopy(b, gy, t.perBlock);
  AscendC::Muls(a, a, t.alpha, t.perBlock);
  AscendC::Muls(b, b, beta, t.perBlock);
  AscendC::Add(a, a, b, t.perBlock);
  AscendC::DataCopy(gz, a, t.perBlock);
}
