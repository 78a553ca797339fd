// The small APIs kernels take from kernel_utils and friends, built as a CPU-debug build
// (ASCENDC_CPU_DEBUG=1, what find_package(tikicpulib) sets): DivCeil / AlignUp / CeilDivision,
// the builtins block_idx / block_num, KERNEL_LOG and ASCENDC_ASSERT, DisableDmaAtomic,
// ASCENDC_TPL_DATATYPE_DECL with C_DT_* and ASCENDC_TPL_INPUT, the enhanced Transpose
// (TransposeParamsExt) and TransDataTo5HD (address lists). Random data, seed printed, against
// scalar references written from CANN's documented formulas.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asc_twin/kernel_entry.h"
#include "ascendc/host_api/tiling/template_argument.h"
#include "kernel_operator.h"
#include "launch_harness.h"

using namespace AscendC;
using namespace asc_twin_test;

static_assert(DivCeil(7, 2) == 4 && DivCeil(8, 2) == 4 && AlignUp(33, 32) == 64 && ConstCeil(1, 32) == 1,
              "constexpr integer helpers");
static_assert(CeilDivision(5, 0) == 0 && CeilDivision(9, 4) == 3, "CeilDivision");

// convert_from_bytes: asc-devkit's matmul_aot_compilation fixes a TCubeTiling at compile time
// from a constexpr byte array (aot_helper.h: `static constexpr T value = convert_from_bytes<T>(p)`).
struct AotTiling {
  int32_t m, n, k;
  uint16_t base[2];
};
constexpr uint8_t kAotBytes[] = {0x00, 0x02, 0, 0, 0x00, 0x01, 0, 0, 0x80, 0, 0, 0, 0x40, 0, 0x20, 0};
template <typename T, const uint8_t* bytes>
struct AotHolder {
  static constexpr T value = convert_from_bytes<T>(bytes);
};
static_assert(AotHolder<AotTiling, kAotBytes>::value.m == 512 && AotHolder<AotTiling, kAotBytes>::value.n == 256 &&
                  AotHolder<AotTiling, kAotBytes>::value.k == 128 &&
                  AotHolder<AotTiling, kAotBytes>::value.base[0] == 64 &&
                  AotHolder<AotTiling, kAotBytes>::value.base[1] == 32,
              "convert_from_bytes in a constant expression (little-endian bytes)");

namespace {

std::mt19937_64& Rng() {
  static std::mt19937_64 rng(Seed());
  return rng;
}

// Block b writes block_idx, block_num and a block_idx-scaled value; block 1 logs one line; a
// block whose value reaches `limit` fails its ASCENDC_ASSERT after logging why.
extern "C" __global__ __aicore__ void builtins_probe(GM_ADDR z, uint32_t limit) {
  GlobalTensor<int64_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t*>(z) + 4 * GetBlockIdx(), 4);
  g.SetValue(0, block_idx);
  g.SetValue(1, block_num);
  const int64_t scaled = block_idx * 100 + block_num;
  g.SetValue(2, scaled);
  if (block_idx == 1)
    KERNEL_LOG(KERNEL_ERROR, "value %ld of %ld", static_cast<long>(scaled), static_cast<long>(block_num));
  ASCENDC_ASSERT(scaled < limit,
                 { KERNEL_LOG(KERNEL_ERROR, "scaled %ld reached %u", static_cast<long>(scaled), limit); });
}
ASC_TWIN_KERNEL_ENTRY(builtins_probe)

// SetAtomicAdd, then DisableDmaAtomic: the first copy adds into z, the second stores plainly.
extern "C" __global__ __aicore__ void dma_atomic_probe(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, uint32_t n) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> bx, by;
  pipe.InitBuffer(bx, n * sizeof(float));
  pipe.InitBuffer(by, n * sizeof(float));
  GlobalTensor<float> gx, gy, gz, gw;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), n);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z), n);
  gw.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(w), n);
  LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>();
  DataCopy(lx, gx, n);
  DataCopy(ly, gy, n);
  SetAtomicAdd<float>();
  DataCopy(gz, lx, n);
  DisableDmaAtomic();
  DataCopy(gw, ly, n);
}
ASC_TWIN_KERNEL_ENTRY(dma_atomic_probe)

// mode 0/1: Transpose NCHW2NHWC / NHWC2NCHW of x into z (tmp of tmpBytes); mode 2: TransDataTo5HD
// with the address lists `lists` (16 dst then 16 src UB byte offsets into the one buffer whose
// first half holds x and second half z), params in prm: repeat, dstRepStride, srcRepStride,
// dstHighHalf, srcHighHalf, dtype (0 half, 1 float, 2 int8_t), form (0 uint64_t[], 1 LocalTensor
// lists, 2 LocalTensor<uint64_t>).
template <typename T>
__aicore__ inline void TransDataCase(LocalTensor<uint8_t> ub, LocalTensor<uint8_t> listBuf, const uint64_t (&lists)[32],
                                     const TransDataTo5HDParams& p, uint32_t form) {
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = lists[i];
    s[i] = lists[16 + i];
  }
  if (form == 0) {
    TransDataTo5HD<T>(d, s, p);
  } else if (form == 1) {
    LocalTensor<T> dl[16], sl[16];
    const uint64_t base = ub.GetPhyAddr();
    LocalTensor<T> all = ub.ReinterpretCast<T>();
    for (int i = 0; i < 16; ++i) {
      dl[i] = all[(d[i] - base) / sizeof(T)];
      sl[i] = all[(s[i] - base) / sizeof(T)];
    }
    TransDataTo5HD<T>(dl, sl, p);
  } else {
    LocalTensor<uint64_t> addr = listBuf.ReinterpretCast<uint64_t>();
    for (int i = 0; i < 16; ++i) {
      addr.SetValue(i, d[i]);
      addr.SetValue(16 + i, s[i]);
    }
    TransDataTo5HD<T>(addr, addr[16], p);
  }
}

extern "C" __global__ __aicore__ void transpose_probe(GM_ADDR x, GM_ADDR z, GM_ADDR prmGm, uint32_t bytes) {
  GlobalTensor<uint64_t> pg;
  pg.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(prmGm), 48);
  uint64_t prm[48];
  for (int i = 0; i < 48; ++i) prm[i] = pg.GetValue(i);
  TPipe pipe;
  TBuf<TPosition::VECCALC> data, tmp, lists;
  pipe.InitBuffer(data, 2 * bytes);
  pipe.InitBuffer(tmp, static_cast<uint32_t>(prm[1]) + 32);
  pipe.InitBuffer(lists, 256);
  LocalTensor<uint8_t> ub = data.Get<uint8_t>();
  GlobalTensor<uint8_t> gx, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(x), bytes);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(z), bytes);
  DataCopy(ub, gx, bytes);
  DataCopy(ub[bytes], gz, bytes);
  if (prm[0] < 2) {
    TransposeParamsExt tp(static_cast<uint16_t>(prm[2]), static_cast<uint16_t>(prm[3]), static_cast<uint16_t>(prm[4]),
                          static_cast<uint16_t>(prm[5]),
                          prm[0] == 0 ? TransposeType::TRANSPOSE_NCHW2NHWC : TransposeType::TRANSPOSE_NHWC2NCHW);
    LocalTensor<uint8_t> t = tmp.Get<uint8_t>(static_cast<uint32_t>(prm[1]));
    Transpose(ub[bytes].ReinterpretCast<half>(), ub.ReinterpretCast<half>(), t, tp);
  } else {
    const TransDataTo5HDParams p(prm[10] != 0, prm[11] != 0, static_cast<uint8_t>(prm[7]),
                                 static_cast<uint16_t>(prm[8]), static_cast<uint16_t>(prm[9]));
    uint64_t l[32];
    for (int i = 0; i < 32; ++i) l[i] = ub.GetPhyAddr() + prm[16 + i];
    LocalTensor<uint8_t> lb = lists.Get<uint8_t>();
    if (prm[12] == 0)
      TransDataCase<half>(ub, lb, l, p, static_cast<uint32_t>(prm[13]));
    else if (prm[12] == 1)
      TransDataCase<float>(ub, lb, l, p, static_cast<uint32_t>(prm[13]));
    else
      TransDataCase<int8_t>(ub, lb, l, p, static_cast<uint32_t>(prm[13]));
  }
  DataCopy(gz, ub[bytes], bytes);
}
ASC_TWIN_KERNEL_ENTRY(transpose_probe)

struct TransposeRun {
  std::vector<uint8_t> x, z;
  std::string error;
};

TransposeRun RunTranspose(std::vector<uint64_t> prm, std::vector<uint8_t> x) {
  prm.resize(48, 0);
  DeviceMemory mem;
  const uint32_t bytes = static_cast<uint32_t>(x.size());
  uint8_t* gx = mem.AllocOf<uint8_t>(bytes);
  uint8_t* gz = mem.AllocOf<uint8_t>(bytes);
  uint64_t* gp = mem.AllocOf<uint64_t>(48);
  std::copy(x.begin(), x.end(), gx);
  std::fill(gz, gz + bytes, uint8_t{0xA5});
  std::copy(prm.begin(), prm.end(), gp);
  Args a;
  a.Add(gx).Add(gz).Add(gp).Add(bytes);
  const LaunchResult r = Launch(__asc_twin_entry_transpose_probe, "transpose_probe", 1, a, mem);
  return TransposeRun{x, std::vector<uint8_t>(gz, gz + bytes), r.FirstError()};
}

std::vector<uint8_t> RandomBytes(size_t n) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(Rng()());
  return v;
}

}  // namespace

TEST(UtilsApi, IntegerHelpersOnRandomValues) {
  std::uniform_int_distribution<uint32_t> a(0, 1u << 30), b(1, 1u << 12);
  for (int i = 0; i < 1000; ++i) {
    const uint32_t x = a(Rng()), y = b(Rng());
    const uint64_t up = (uint64_t{x} + y - 1) / y;
    ASSERT_EQ(DivCeil(x, y), up) << x << " / " << y;
    ASSERT_EQ(AlignUp(x, y), up * y);
    ASSERT_EQ(Ceil(x, y), up);
    ASSERT_EQ(CeilDivision(static_cast<int32_t>(x), static_cast<int32_t>(y)), static_cast<int32_t>(up));
  }
}

TEST(UtilsApi, BlockBuiltinsAndKernelLog) {
  DeviceMemory mem;
  int64_t* z = mem.AllocOf<int64_t>(4 * 3);
  Args a;
  a.Add(z).Add(uint32_t{1000});
  testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_builtins_probe, "builtins_probe", 3, a, mem);
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (int64_t b = 0; b < 3; ++b) {
    EXPECT_EQ(z[4 * b], b);
    EXPECT_EQ(z[4 * b + 1], 3);
    EXPECT_EQ(z[4 * b + 2], b * 100 + 3);
  }
  EXPECT_NE(out.find("[ERROR][Block_1][AIV_0]["), std::string::npos) << out;
  EXPECT_NE(out.find("][builtins_probe]["), std::string::npos) << out;
  EXPECT_NE(out.find("] value 103 of 3\n"), std::string::npos) << out;
}

TEST(UtilsApi, AscendcAssertRunsItsBehaviourThenTraps) {
  DeviceMemory mem;
  int64_t* z = mem.AllocOf<int64_t>(4 * 3);
  Args a;
  a.Add(z).Add(uint32_t{200});  // block 2: 203 >= 200
  testing::internal::CaptureStdout();
  const LaunchResult r = Launch(__asc_twin_entry_builtins_probe, "builtins_probe", 3, a, mem);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(r.status[0], 0);
  EXPECT_EQ(r.status[1], 0);
  ASSERT_NE(r.status[2], 0);
  EXPECT_NE(r.errors[2].find("ASCENDC_ASSERT: (scaled < limit) failed at"), std::string::npos) << r.errors[2];
  EXPECT_NE(out.find("[ERROR][Block_2][AIV_0]["), std::string::npos) << out;
  EXPECT_NE(out.find("scaled 203 reached 200"), std::string::npos) << out;
}

TEST(UtilsApi, DisableDmaAtomicStoresPlainlyAgain) {
  constexpr uint32_t n = 64;
  DeviceMemory mem;
  float* x = mem.AllocOf<float>(n);
  float* y = mem.AllocOf<float>(n);
  float* z = mem.AllocOf<float>(n);
  float* w = mem.AllocOf<float>(n);
  std::uniform_real_distribution<float> d(-100.0f, 100.0f);
  std::vector<float> z0(n), w0(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = d(Rng());
    y[i] = d(Rng());
    z[i] = z0[i] = d(Rng());
    w[i] = w0[i] = d(Rng());
  }
  Args a;
  a.Add(x).Add(y).Add(z).Add(w).Add(n);
  const LaunchResult r = Launch(__asc_twin_entry_dma_atomic_probe, "dma_atomic_probe", 1, a, mem);
  ASSERT_TRUE(r.ok()) << r.FirstError();
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_EQ(z[i], z0[i] + x[i]) << i;
    EXPECT_EQ(w[i], y[i]) << i;
  }
}

namespace {
ASCENDC_TPL_ARGS_DECL(DtypeOp, ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT),
                      ASCENDC_TPL_DATATYPE_DECL(D_T_Y, ASCENDC_TPL_INPUT(1)),
                      ASCENDC_TPL_FORMAT_DECL(F_Z, ASCENDC_TPL_OUTPUT(0)), ASCENDC_TPL_BOOL_DECL(SPLIT, 0, 1));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT16), ASCENDC_TPL_BOOL_SEL(SPLIT, 0, 1)),
                ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT), ASCENDC_TPL_BOOL_SEL(SPLIT, 1)));
}  // namespace

TEST(UtilsApi, DatatypeTemplateArguments) {
  static_assert(ASCENDC_TPL_INPUT(2) == 100000002 && ASCENDC_TPL_OUTPUT(0) == 900000000, "tensor references");
  static_assert(C_DT_FLOAT == 0 && C_DT_FLOAT16 == 1 && C_DT_BF16 == 27 && C_FORMAT_ND == 2, "C_DT_* / C_FORMAT_*");
  // Fields LSB first, 8 bits each for the dtypes and the format, then 1 bit.
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, C_DT_BF16, C_FORMAT_ND, 1),
            1ull | (27ull << 8) | (2ull << 16) | (1ull << 24));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, C_DT_INT8, C_FORMAT_NCHW, 1), 0ull | (2ull << 8) | (1ull << 24));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, C_DT_INT8, C_FORMAT_NCHW, 0), INVALID_TILING_KEY);  // not selected
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_INT32, C_DT_INT8, C_FORMAT_ND, 1), INVALID_TILING_KEY);    // not declared
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, 300, C_FORMAT_ND, 1), INVALID_TILING_KEY);        // beyond 8 bits
}

TEST(UtilsApi, TransposeNchwNhwcBothWays) {
  std::uniform_int_distribution<int> small(1, 4);
  for (int round = 0; round < 6; ++round) {
    const uint32_t n = small(Rng()), c = small(Rng()) * 2 - 1, h = small(Rng()), w = 16;
    const uint32_t hw = h * w, total = n * c * hw;
    const bool toNhwc = round % 2 == 0;
    const uint32_t tmp = (toNhwc ? c + 2 : 2 * c + 1) * 16 * 16 * 2;
    std::vector<uint8_t> x = RandomBytes(((total * 2 + 31) / 32) * 32);
    const TransposeRun r = RunTranspose({toNhwc ? 0u : 1u, tmp, n, c, h, w}, x);
    ASSERT_EQ(r.error, "");
    const uint16_t* in = reinterpret_cast<const uint16_t*>(x.data());
    const uint16_t* out = reinterpret_cast<const uint16_t*>(r.z.data());
    for (uint32_t b = 0; b < n; ++b) {
      for (uint32_t ci = 0; ci < c; ++ci) {
        for (uint32_t s = 0; s < hw; ++s) {
          const uint32_t nchw = (b * c + ci) * hw + s, nhwc = (b * hw + s) * c + ci;
          ASSERT_EQ(toNhwc ? out[nhwc] : out[nchw], toNhwc ? in[nchw] : in[nhwc])
              << "n=" << n << " c=" << c << " h=" << h << " w=" << w << " at " << b << "," << ci << "," << s;
        }
      }
    }
  }
  // The sample's case, too small a temporary buffer, and hSize x wSize x 2 not 32-byte aligned.
  EXPECT_EQ(RunTranspose({0, 2560, 3, 3, 2, 8}, RandomBytes(288)).error, "");
  EXPECT_NE(RunTranspose({0, 2048, 3, 3, 2, 8}, RandomBytes(288))
                .error.find("Transpose: sharedTmpBuffer holds 2048 bytes, TRANSPOSE_NCHW2NHWC with cSize 3 needs 2560"),
            std::string::npos);
  EXPECT_NE(RunTranspose({1, 8192, 1, 3, 3, 3}, RandomBytes(64))
                .error.find("Transpose: hSize x wSize x sizeof(T) = 18 bytes is not a multiple of 32"),
            std::string::npos);
}

namespace {
// Reference of one TransDataTo5HD over byte images: blocks at the given offsets of `ub`.
void RefTransData(std::vector<uint8_t>& ub, const std::vector<uint64_t>& offs, uint32_t esize, uint32_t repeat,
                  uint32_t dstRep, uint32_t srcRep, bool dstHigh, bool srcHigh) {
  for (uint32_t r = 0; r < repeat; ++r) {
    const uint64_t step = repeat == 1 ? 1 : r;
    uint8_t blk[16][32];
    for (int j = 0; j < 16; ++j) std::memcpy(blk[j], &ub[offs[16 + j] + step * srcRep * 32], 32);
    for (uint32_t i = 0; i < 16; ++i) {
      uint8_t* d = &ub[offs[i] + step * dstRep * 32];
      if (esize == 2) {
        for (int j = 0; j < 16; ++j) std::memcpy(d + 2 * j, blk[j] + 2 * i, 2);
      } else if (esize == 4) {
        for (int j = 0; j < 8; ++j) std::memcpy(d + 4 * j, blk[(i % 2) * 8 + j] + 4 * (i / 2), 4);
      } else {
        for (int j = 0; j < 16; ++j) d[(dstHigh ? 16 : 0) + j] = blk[j][(srcHigh ? 16 : 0) + i];
      }
    }
  }
}
}  // namespace

TEST(UtilsApi, TransDataTo5HDAllWidthsAndForms) {
  // NCHW (C = 16, H x W = 64 halves) -> NC1HWC0 as CANN documents it: src lists at i x H x W,
  // dst lists at i x C0, 4 repeats (H x W / 16), dstRepStride 16, srcRepStride 1.
  {
    const uint32_t hw = 64, bytes = 16 * hw * 2;
    std::vector<uint8_t> x = RandomBytes(bytes);
    std::vector<uint64_t> prm = {2, 0, 0, 0, 0, 0, 0, 4, 16, 1, 0, 0, 0, 0, 0, 0};
    std::vector<uint64_t> offs(32);
    for (uint32_t i = 0; i < 16; ++i) {
      offs[i] = bytes + i * 16 * 2;
      offs[16 + i] = i * hw * 2;
    }
    prm.insert(prm.end(), offs.begin(), offs.end());
    for (uint64_t form = 0; form < 3; ++form) {
      prm[13] = form;
      const TransposeRun r = RunTranspose(prm, x);
      ASSERT_EQ(r.error, "");
      const uint16_t* in = reinterpret_cast<const uint16_t*>(x.data());
      const uint16_t* out = reinterpret_cast<const uint16_t*>(r.z.data());
      for (uint32_t s = 0; s < hw; ++s) {
        for (uint32_t c = 0; c < 16; ++c) ASSERT_EQ(out[s * 16 + c], in[c * hw + s]) << "form " << form;
      }
    }
  }
  // Block transposes of every width at random block positions, one or two repeats.
  for (uint32_t dtype = 0; dtype < 3; ++dtype) {
    const uint32_t esize = dtype == 0 ? 2 : dtype == 1 ? 4 : 1;
    for (int round = 0; round < 4; ++round) {
      const uint32_t bytes = 64 * 32;
      const uint32_t repeat = 1 + round % 2;
      std::vector<uint8_t> x = RandomBytes(bytes);
      std::vector<uint64_t> offs(32);
      std::vector<uint32_t> free_blocks(32);
      for (uint32_t i = 0; i < 32; ++i) free_blocks[i] = i;
      std::shuffle(free_blocks.begin(), free_blocks.end(), Rng());
      for (uint32_t i = 0; i < 16; ++i) {
        offs[i] = bytes + free_blocks[i] * 32;  // dst blocks in z's half, distinct
        offs[16 + i] = free_blocks[16 + i] * 32;
      }
      const bool dh = round & 1, sh = (round >> 1) & 1;
      std::vector<uint64_t> prm = {2, 0, 0, 0, 0, 0, 0, repeat, 32, 32, dh, sh, dtype, uint64_t(round % 3), 0, 0};
      prm.insert(prm.end(), offs.begin(), offs.end());
      const TransposeRun r = RunTranspose(prm, x);
      ASSERT_EQ(r.error, "");
      std::vector<uint8_t> ub(2 * bytes + 64 * 32, 0xA5);
      std::copy(x.begin(), x.end(), ub.begin());
      RefTransData(ub, offs, esize, repeat, 32, 32, dh, sh);
      ASSERT_EQ(std::vector<uint8_t>(r.z.begin(), r.z.begin() + bytes),
                std::vector<uint8_t>(ub.begin() + bytes, ub.begin() + 2 * bytes))
          << "dtype " << dtype << " repeat " << repeat;
    }
  }
  // An address outside UB.
  std::vector<uint64_t> prm = {2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  std::vector<uint64_t> offs(32, 0);
  offs[3] = 1u << 20;
  prm.insert(prm.end(), offs.begin(), offs.end());
  EXPECT_NE(RunTranspose(prm, RandomBytes(64)).error.find("TransDataTo5HD: dstList[3] = "), std::string::npos);
}

// The same conversion at run time, on random bytes: the struct's bytes are exactly the input's.
TEST(ConvertFromBytes, RandomBytesRoundTrip) {
  std::vector<uint8_t> bytes(sizeof(AotTiling));
  for (int round = 0; round < 64; ++round) {
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(Rng()());
    const AotTiling t = convert_from_bytes<AotTiling>(bytes.data());
    ASSERT_EQ(std::memcmp(&t, bytes.data(), sizeof t), 0);
  }
}
