// DumpTensor / PrintTimeStamp output, and per-block isolation of the vector mask registers:
// kernels defined here, run through their entry functions by the launch harness.
#include <gtest/gtest.h>

#include <string>

#include "asc_twin/kernel_entry.h"
#include "kernel_operator.h"
#include "launch_harness.h"
#include "utils/debug/asc_dump.h"

using namespace AscendC;
using namespace asc_twin_test;

extern "C" __global__ __aicore__ void dump_probe(GM_ADDR x, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, n * sizeof(half));
  LocalTensor<half> t = b.Get<half>();
  GlobalTensor<half> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x), n);
  DataCopy(t, g, n);
  DumpTensor(t, 7, 4);
  DumpTensor(g, 8, 2);
  PrintTimeStamp(9);
  DumpAccChkPoint(t, 3, 2, 2);
}
ASC_TWIN_KERNEL_ENTRY(dump_probe)

// int4b_t dumps show the sign-extended nibbles (element 2k is the low nibble of byte k).
extern "C" __global__ __aicore__ void dump_int4(GM_ADDR x) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 32);
  LocalTensor<int4b_t> t = b.Get<int4b_t>();
  GlobalTensor<int4b_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(x), 64);
  DataCopy(t, g, 64);
  DumpTensor(t, 1, 4);
  DumpAccChkPoint(t, 2, 3, 3);
}
ASC_TWIN_KERNEL_ENTRY(dump_int4)

// Block b sets its own mask (b + 1 lanes) and counter mode on odd blocks, then waits for the
// others before using the register: each block must see its own mask.
extern "C" __global__ __aicore__ void mask_isolation(GM_ADDR z) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64 * sizeof(float));
  LocalTensor<float> t = b.Get<float>();
  Duplicate(t, 0.0f, 64);
  const int64_t blk = GetBlockIdx();
  if (blk % 2) {
    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, blk + 1);
  } else {
    SetVectorMask<float>(0, (1ull << (blk + 1)) - 1);
  }
  for (volatile int spin = 0; spin < 200000; ++spin) {
  }
  Adds<float, false>(t, t, 1.0f, MASK_PLACEHOLDER, 1, UnaryRepeatParams());
  GlobalTensor<float> zGm;
  zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + blk * 64, 64);
  DataCopy(zGm, t, 64);
}
ASC_TWIN_KERNEL_ENTRY(mask_isolation)

// asc_dump_gm / asc_dump_ubuf / asc_dump on raw addresses: GM, UB given as GetPhyAddr's UB
// address (as CANN's samples cast it), UB as a host pointer of the tensor's data.
extern "C" __global__ __aicore__ void asc_dump_probe(GM_ADDR x, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> pad, b;
  pipe.InitBuffer(pad, 64);
  pipe.InitBuffer(b, n * sizeof(float));
  LocalTensor<float> t = b.Get<float>();
  GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  DataCopy(t, g, n);
  asc_dump_gm<float>((__gm__ float*)g.GetPhyAddr(), 11, 3);
  asc_dump_ubuf<float>((__ubuf__ float*)t.GetPhyAddr(), 12, 2);
  asc_dump(t[4].GetPhyAddr() == 80 ? (float*)t.GetPhyAddr(4) : nullptr, 13, 1);
  asc_dump((__gm__ float*)g.GetPhyAddr(1), 14, 1);
}
ASC_TWIN_KERNEL_ENTRY(asc_dump_probe)

TEST(DebugApi, AscDumpOfGmAndUbAddresses) {
  DeviceMemory mem;
  float* x = mem.AllocOf<float>(8);
  for (int i = 0; i < 8; ++i) x[i] = 0.25f * i - 1.0f;
  Args a;
  a.Add(x).Add(uint32_t{8});
  testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_asc_dump_probe, "asc_dump_probe", 1, a, mem);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok()) << r.FirstError();
  EXPECT_NE(out.find("DumpTensor: desc=11, addr=" + std::to_string(reinterpret_cast<uint64_t>(x)) +
                     ", data_type=float32, position=GM, dump_size=3\n[-1.000000, -0.750000, -0.500000]\n"),
            std::string::npos)
      << out;
  EXPECT_NE(
      out.find("DumpTensor: desc=12, addr=64, data_type=float32, position=UB, dump_size=2\n[-1.000000, -0.750000]\n"),
      std::string::npos)
      << out;
  EXPECT_NE(out.find("DumpTensor: desc=13, addr=80, data_type=float32, position=UB, dump_size=1\n[0.000000]\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("desc=14, addr=" + std::to_string(reinterpret_cast<uint64_t>(x + 1)) +
                     ", data_type=float32, position=GM, dump_size=1\n[-0.750000]\n"),
            std::string::npos)
      << out;
}

TEST(DebugApi, DumpTensorAndPrintTimeStamp) {
  DeviceMemory mem;
  half* x = mem.AllocOf<half>(16);
  for (int i = 0; i < 16; ++i) x[i] = half(i * 0.5f);
  Args a;
  a.Add(x).Add(uint32_t{16});
  testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_dump_probe, "dump_probe", 1, a, mem);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok()) << r.FirstError();
  EXPECT_NE(out.find("DumpTensor: desc=7, addr=0, data_type=float16, position=UB, dump_size=4\n"
                     "[0.000000, 0.500000, 1.000000, 1.500000]\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("data_type=float16, position=GM, dump_size=2\n[0.000000, 0.500000]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("[block 0] PrintTimeStamp desc=9 cycle="), std::string::npos) << out;
  EXPECT_NE(out.find("DumpAccChkPoint: index=3, countOff=2\nDumpTensor: desc=3, addr=4, data_type=float16, "
                     "position=UB, dump_size=2\n[1.000000, 1.500000]\n"),
            std::string::npos)
      << out;
}

TEST(DebugApi, DumpTensorOfInt4ShowsSignedNibbles) {
  DeviceMemory mem;
  uint8_t* x = mem.AllocOf<uint8_t>(32);
  const uint8_t bytes[3] = {0xF1, 0x78, 0x3C};  // elements 1, -1, -8, 7, -4, 3
  for (int i = 0; i < 32; ++i) x[i] = i < 3 ? bytes[i] : 0;
  Args a;
  a.Add(x);
  testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_dump_int4, "dump_int4", 1, a, mem);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok()) << r.FirstError();
  EXPECT_NE(out.find("data_type=int4, position=UB, dump_size=4\n[1, -1, -8, 7]\n"), std::string::npos) << out;
  EXPECT_NE(out.find("DumpAccChkPoint: index=2, countOff=3\nDumpTensor: desc=2, addr=1, data_type=int4, "
                     "position=UB, dump_size=3\n[7, -4, 3]\n"),
            std::string::npos)
      << out;
}

TEST(DebugApi, MaskRegistersArePerBlock) {
  DeviceMemory mem;
  const uint32_t blocks = 6;
  float* z = mem.AllocOf<float>(64 * blocks);
  Args a;
  a.Add(z);
  const LaunchResult r = Launch(__asc_twin_entry_mask_isolation, "mask_isolation", blocks, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t i = 0; i < 64; ++i) {
      EXPECT_EQ(z[b * 64 + i], i <= b ? 1.0f : 0.0f) << "block " << b << " lane " << i;
    }
  }
}
