// DataCopy (DataCopyParams form), DataCopyPad with tails/padding/strides,
// argument unpacking of the entry shim, and TBuf/TPipe/LocalMemAllocator.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "launch_harness.h"
#include "ref_numeric.h"
#include "test_kernels.h"

using namespace asc_twin_test;

namespace {
std::mt19937_64& Rng() {
  static std::mt19937_64 rng(Seed());
  return rng;
}
half RandomHalf() {
  std::uniform_real_distribution<float> d(-100, 100);
  return half(d(Rng()));
}
}  // namespace

struct PadCase {
  uint32_t rows, cols, isPad, left, right, gmGap;
};

class DataCopyPadTest : public ::testing::TestWithParam<PadCase> {};

TEST_P(DataCopyPadTest, PadsRowsAndWritesBackExactBytes) {
  const PadCase c = GetParam();
  const uint32_t pitch = ((c.left + c.cols + c.right) * 2 + 31) / 32 * 32;  // bytes per UB row
  const uint32_t gmElems = c.rows * (c.cols + c.gmGap);
  DeviceMemory mem;
  half* x = mem.AllocOf<half>(gmElems);
  half* z = mem.AllocOf<half>(gmElems);
  half* dump = mem.AllocOf<half>(pitch * c.rows / 2);
  for (uint32_t i = 0; i < gmElems; ++i) x[i] = RandomHalf();
  const half sentinel(-7.0f);
  for (uint32_t i = 0; i < gmElems; ++i) z[i] = sentinel;
  const half padValue(42.0f);
  Args a;
  a.Add(reinterpret_cast<uint8_t*>(x)).Add(reinterpret_cast<uint8_t*>(z)).Add(reinterpret_cast<uint8_t*>(dump));
  a.Add(c.rows).Add(c.cols).Add(c.isPad).Add(c.left).Add(c.right).Add(padValue).Add(c.gmGap);
  const LaunchResult r = Launch(__asc_twin_entry_pad_copy_f16, "pad_copy_f16", 1, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  const uint32_t rowElems = pitch / 2;
  for (uint32_t row = 0; row < c.rows; ++row) {
    const half* src = x + row * (c.cols + c.gmGap);
    const half* ub = dump + row * rowElems;
    const half pad = c.isPad ? padValue : src[0];
    for (uint32_t k = 0; k < rowElems; ++k) {
      const bool data = k >= c.left && k < c.left + c.cols;
      const half want = data ? src[k - c.left] : pad;
      ASSERT_EQ(ub[k].val, want.val) << "row " << row << " UB element " << k;
    }
    if (c.left != 0) continue;
    for (uint32_t k = 0; k < c.cols + c.gmGap; ++k) {
      const half got = z[row * (c.cols + c.gmGap) + k];
      if (k < c.cols) {
        ASSERT_EQ(got.val, RefToHalf(RefHalfValue(src[k].val) + 1.0)) << "row " << row << " col " << k;
      } else {
        ASSERT_EQ(got.val, sentinel.val) << "gap byte written at row " << row << " col " << k;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shapes, DataCopyPadTest,
                         ::testing::Values(PadCase{1, 7, 0, 0, 0, 0},     // tail shorter than one block
                                           PadCase{5, 37, 0, 0, 0, 3},    // strided GM rows, dummy pad
                                           PadCase{4, 37, 1, 0, 0, 0},    // explicit pad value
                                           PadCase{3, 10, 1, 0, 6, 2},    // right padding
                                           PadCase{3, 10, 1, 4, 2, 0},    // left + right padding
                                           PadCase{2, 64, 0, 0, 0, 0}));  // aligned rows

TEST(DataCopy, StridedParamsForm) {
  const uint32_t blockCount = 6, blockLen = 3, srcGap = 2, dstGap = 1;  // in 32-B blocks
  DeviceMemory mem;
  const uint32_t xElems = blockCount * (blockLen + srcGap) * 8, zElems = blockCount * (blockLen + dstGap) * 8;
  float* x = mem.AllocOf<float>(xElems);
  float* z = mem.AllocOf<float>(zElems);
  std::uniform_real_distribution<float> d(-1, 1);
  for (uint32_t i = 0; i < xElems; ++i) x[i] = d(Rng());
  for (uint32_t i = 0; i < zElems; ++i) z[i] = 99.0f;
  Args a;
  a.Add(x).Add(z).Add(blockCount).Add(blockLen).Add(srcGap).Add(dstGap);
  const LaunchResult r = Launch(__asc_twin_entry_strided_copy_f32, "strided_copy_f32", 1, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t b = 0; b < blockCount; ++b) {
    for (uint32_t k = 0; k < (blockLen + dstGap) * 8; ++k) {
      const float got = z[b * (blockLen + dstGap) * 8 + k];
      const float want = k < blockLen * 8 ? x[b * (blockLen + srcGap) * 8 + k] : 99.0f;
      ASSERT_EQ(got, want) << "block " << b << " element " << k;
    }
  }
}

TEST(Entry, UnpacksEverySlotKind) {
  EXPECT_EQ(__asc_twin_info_args_probe.abi_version, ASC_TWIN_ABI_VERSION);
  EXPECT_EQ(__asc_twin_info_args_probe.params, 8u);
  EXPECT_EQ(__asc_twin_info_args_probe.args_size, 8u * 6 + 16 + 8);  // ArgsTiling is 16 B
  EXPECT_EQ(__asc_twin_info_binary_f32.params, 6u);
  EXPECT_EQ(__asc_twin_info_binary_f32.args_size, 48u);
  DeviceMemory mem;
  uint8_t* out = mem.Alloc(64);
  std::memset(out, 0, 64);
  std::uniform_int_distribution<int64_t> di;
  const int8_t a = static_cast<int8_t>(di(Rng()));
  const int64_t b = di(Rng());
  const float c = std::uniform_real_distribution<float>(-1e6, 1e6)(Rng());
  const double d = std::uniform_real_distribution<double>(-1e300, 1e300)(Rng());
  const ArgsTiling t{static_cast<uint32_t>(di(Rng())), static_cast<uint16_t>(di(Rng())),
                     static_cast<uint64_t>(di(Rng()))};
  const half h = RandomHalf();
  const uint16_t e = static_cast<uint16_t>(di(Rng()));
  Args args;
  args.Add(out).Add(a).Add(b).Add(c).Add(d).Add(t).Add(h).Add(e);
  ASSERT_EQ(args.size(), __asc_twin_info_args_probe.args_size);
  const LaunchResult r = Launch(__asc_twin_entry_args_probe, "args_probe", 2, args, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  int8_t a2;
  int64_t b2;
  float c2;
  double d2;
  uint32_t ta;
  uint16_t tb;
  uint64_t tc;
  uint16_t h2, e2;
  std::memcpy(&a2, out + 0, 1);
  std::memcpy(&b2, out + 8, 8);
  std::memcpy(&c2, out + 16, 4);
  std::memcpy(&d2, out + 24, 8);
  std::memcpy(&ta, out + 32, 4);
  std::memcpy(&tb, out + 36, 2);
  std::memcpy(&tc, out + 40, 8);
  std::memcpy(&h2, out + 48, 2);
  std::memcpy(&e2, out + 50, 2);
  EXPECT_EQ(a2, a);
  EXPECT_EQ(b2, b);
  EXPECT_EQ(c2, c);
  EXPECT_EQ(d2, d);
  EXPECT_EQ(ta, t.a);
  EXPECT_EQ(tb, t.b);
  EXPECT_EQ(tc, t.c);
  EXPECT_EQ(h2, h.val);
  EXPECT_EQ(e2, e);
}

TEST(Pipe, TBufResetDestroyAndStaticTensors) {
  const uint32_t n = 1024;
  for (uint32_t blocks : {1u, 4u}) {
    DeviceMemory mem;
    float* x = mem.AllocOf<float>(n);
    float* z = mem.AllocOf<float>(n);
    std::uniform_real_distribution<float> d(-50, 50);
    for (uint32_t i = 0; i < n; ++i) x[i] = d(Rng());
    Args a;
    a.Add(x).Add(z).Add(n);
    const LaunchResult r = Launch(__asc_twin_entry_misc_api, "misc_api", blocks, a, mem);
    ASSERT_TRUE(r.ok()) << r.FirstError();
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] * 2.0f + static_cast<float>(i)) << i;
  }
}

TEST(Utils, PrintfWritesToStdout) {
  DeviceMemory mem;
  float* x = mem.AllocOf<float>(64);
  float* z = mem.AllocOf<float>(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);
  Args a;
  a.Add(x).Add(z).Add(uint32_t{64});
  ::testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_misc_api, "misc_api", 1, a, mem);
  std::fflush(stdout);
  const std::string out = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok()) << r.FirstError();
  // A host without the runtime's print path (this harness) gets each record at once, with
  // CANN's block prefix.
  EXPECT_EQ(out, "[AIV Block 0/1] misc_api block 0 of 1 ok\n");
}

// The vector copies behind DataCopy: every 32-byte multiple, unaligned sources, nothing
// written past the end; the streaming form too (16-byte aligned destination).
TEST(DataCopy, BlockCopiesMoveExactBytes) {
  constexpr size_t kMax = 32 * 70;
  std::vector<uint8_t> src(kMax + 64), ref(kMax + 64);
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& b : src) b = static_cast<uint8_t>(byte(Rng()));
  alignas(64) uint8_t dst[kMax + 64];
  // sse2: the 16-byte loop the dispatch falls back to without AVX2, run directly.
  for (const bool sse2 : {false, true}) {
    for (const bool stream : {false, true}) {
      for (size_t bytes = 32; bytes <= kMax; bytes += 32) {
        for (size_t shift : {0, 4, 8, 12, 16}) {
          std::memset(dst, 0x5A, sizeof(dst));
          if (sse2) {
#if defined(__SSE2__)
            if (stream) {
              AscendC::twin::CopyBlocks32Sse2<true>(dst, src.data() + shift, bytes);
              AscendC::twin::FenceStreamingStores();
            } else {
              AscendC::twin::CopyBlocks32Sse2<false>(dst, src.data() + shift, bytes);
            }
#else
            std::memcpy(dst, src.data() + shift, bytes);
#endif
          } else if (stream) {
            AscendC::twin::StreamBlocks32(dst, src.data() + shift, bytes);
            AscendC::twin::FenceStreamingStores();
          } else {
            AscendC::twin::CopyBlocks32(dst, src.data() + shift, bytes);
          }
          ASSERT_EQ(std::memcmp(dst, src.data() + shift, bytes), 0) << bytes << " bytes, shift " << shift;
          for (size_t k = bytes; k < sizeof(dst); ++k) ASSERT_EQ(dst[k], 0x5A) << "wrote past " << bytes << " bytes";
        }
      }
    }
  }
}

// UB -> GM writes switch to streaming stores once block_num x bytes written by the block
// reaches the threshold; the data is the same either way and the block end is fenced.
TEST(DataCopy, GmWritesStreamOnceTheLaunchOutgrowsTheCache) {
  using AscendC::twin::Block;
  constexpr uint64_t kChunk = 4096;
  constexpr uint32_t kBlocks = static_cast<uint32_t>(AscendC::twin::kStreamingThresholdBytes / kChunk / 2);
  alignas(64) static uint8_t ub[3 * kChunk];
  alignas(64) static uint8_t gm[3 * kChunk];
  std::uniform_int_distribution<int> byte(0, 255);
  for (auto& b : ub) b = static_cast<uint8_t>(byte(Rng()));
  AscTwinBlockEnv env;
  AscTwinEnvInit(&env);
  env.block_num = kBlocks;
  env.mem[ASC_TWIN_MEM_UB].base = ub;
  env.mem[ASC_TWIN_MEM_UB].size = sizeof(ub);
  AscendC::twin::InstallBlock(&env);
  AscendC::twin::WriteGmBlocks32(gm, ub, kChunk);  // half the threshold: cached stores
  EXPECT_FALSE(Block().gm_streamed);
  AscendC::twin::WriteGmBlocks32(gm + kChunk, ub + kChunk, kChunk);  // reaches it: streamed
  EXPECT_TRUE(Block().gm_streamed);
  AscendC::twin::WriteGmBlocks32(gm + 2 * kChunk + 4, ub + 2 * kChunk, kChunk - 32);  // unaligned dst: cached
  AscendC::twin::ClearBlock();
  EXPECT_FALSE(Block().gm_streamed);
  EXPECT_EQ(Block().gm_written, 0u);
  EXPECT_EQ(std::memcmp(gm, ub, 2 * kChunk), 0);
  EXPECT_EQ(std::memcmp(gm + 2 * kChunk + 4, ub + 2 * kChunk, kChunk - 32), 0);
}

namespace {
// binary_f32 add operands in `mem`: x and y hold `total` random floats in [-1000, 1000) (drawn
// alternately), z is zeroed; args is (x, y, z, total, tile, kAdd).
struct StreamedAdd {
  StreamedAdd(DeviceMemory& mem, uint32_t total, uint32_t tile)
      : x(mem.AllocOf<float>(total)), y(mem.AllocOf<float>(total)), z(mem.AllocOf<float>(total)) {
    std::uniform_real_distribution<float> d(-1000, 1000);
    for (uint32_t i = 0; i < total; ++i) {
      x[i] = d(Rng());
      y[i] = d(Rng());
      z[i] = 0.0f;
    }
    args.Add(x).Add(y).Add(z).Add(total).Add(tile).Add(static_cast<uint32_t>(kAdd));
  }
  float* x;
  float* y;
  float* z;
  Args args;
};
}  // namespace

// A launch large enough to stream its output (4 blocks x 4 MiB): exact results with the
// cached-to-streamed switch happening inside every block, on concurrent threads.
TEST(DataCopy, LargeLaunchWithStreamedOutputIsExact) {
  constexpr uint32_t kBlocks = 4, kTile = 2048, kTotal = kBlocks * (1u << 20);
  static_assert(uint64_t{kTotal} * sizeof(float) >= AscendC::twin::kStreamingThresholdBytes, "must stream");
  DeviceMemory mem;
  const StreamedAdd add(mem, kTotal, kTile);
  const LaunchResult r = Launch(__asc_twin_entry_binary_f32, "binary_f32", kBlocks, add.args, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t i = 0; i < kTotal; ++i) ASSERT_EQ(add.z[i], add.x[i] + add.y[i]) << "element " << i;
}

// ABI 2: a block that streamed its GM writes fences them when it ends unless the host set
// ASC_TWIN_ENV_HOST_FENCES_STORES (the runtime does, and fences each run of blocks itself).
// The entries run on this thread, as a host that calls them directly would; the results are
// exact either way.
TEST(DataCopy, EntriesFenceStreamedWritesUnlessTheHostDoes) {
  constexpr uint32_t kBlocks = 4, kTile = 2048, kTotal = kBlocks * (1u << 20);
  static_assert(uint64_t{kTotal} * sizeof(float) >= AscendC::twin::kStreamingThresholdBytes, "must stream");
  DeviceMemory mem;
  const StreamedAdd add(mem, kTotal, kTile);
  std::vector<uint8_t> ub(kAscend910B1.ub_size + 4096);
  uint8_t* ub_base = ub.data() + (4096 - reinterpret_cast<uintptr_t>(ub.data()) % 4096) % 4096;
  for (const uint32_t flags : {0u, ASC_TWIN_ENV_HOST_FENCES_STORES}) {
    std::memset(add.z, 0xff, uint64_t{kTotal} * sizeof(float));  // NaN: unwritten elements show up
    const uint64_t fences_before = asc_twin_test_block_end_fences();
    for (uint32_t b = 0; b < kBlocks; ++b) {
      AscTwinBlockEnv env;
      AscTwinEnvInit(&env);
      env.block_idx = b;
      env.block_num = kBlocks;
      env.npu_arch = kAscend910B1.npu_arch;
      env.flags = flags;
      env.mem[ASC_TWIN_MEM_UB].base = ub_base;
      env.mem[ASC_TWIN_MEM_UB].size = kAscend910B1.ub_size;
      env.gm_check = &DeviceMemory::Check;
      env.gm_ctx = &mem;
      env.soc_version = kAscend910B1.name;
      env.kernel_name = "binary_f32";
      char err[512] = "";
      ASSERT_EQ(__asc_twin_entry_binary_f32(&env, add.args.data(), add.args.size(), err, sizeof(err)), 0) << err;
    }
    if (flags != 0) AscendC::twin::FenceStreamingStores();  // the promise the host made
    const uint64_t fences = asc_twin_test_block_end_fences() - fences_before;
    EXPECT_EQ(fences, flags == 0 ? kBlocks : 0u) << "flags " << flags;
    for (uint32_t i = 0; i < kTotal; ++i) {
      ASSERT_EQ(add.z[i], add.x[i] + add.y[i]) << "element " << i << ", flags " << flags;
    }
  }
}
