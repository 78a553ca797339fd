// matmul_tiling: the splits fit the SoC's memories, follow the cube's alignment, cover the
// problem with the cores they claim, and impossible requests return -1 with one log line.
#include <cstdlib>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "matmul_tiling_plan.h"
#include "tiling/tiling_api.h"

namespace {

using matmul_tiling::CubeFormat;
using matmul_tiling::DataType;
using matmul_tiling::TPosition;

platform_ascendc::PlatformAscendC* Platform910B1() {
  auto* p = platform_ascendc::PlatformAscendCManager::GetInstance("Ascend910B1");
  EXPECT_NE(p, nullptr) << "no Ascend910B1 ini for the platform API";
  return p;
}

void SetFp16Types(matmul_tiling::MatmulApiTilingBase& api, bool transA = false, bool transB = false) {
  api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, transA);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, transB);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
}

// The fp16 multi-core tiling of an M x N x K problem (shape = org shape) on `dim` cores.
int64_t MultiCoreTiling(int32_t m, int32_t n, int32_t k, int32_t dim, bool splitK, TCubeTiling& t) {
  matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetDim(dim);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  if (splitK) api.EnableMultiCoreSplitK(true);
  return api.GetTiling(t);
}

// What every tiling must satisfy on a SoC with these memories, for elements of aBytes/bBytes.
void ExpectFits(const TCubeTiling& t, uint64_t l1, uint64_t l0a, uint64_t l0b, uint64_t l0c, int aBytes, int bBytes) {
  const int k0 = 32 / aBytes;
  EXPECT_GT(t.baseM, 0);
  EXPECT_EQ(t.baseM % 16, 0) << "baseM " << t.baseM;
  EXPECT_EQ(t.baseN % 16, 0) << "baseN " << t.baseN;
  EXPECT_EQ(t.baseK % k0, 0) << "baseK " << t.baseK;
  EXPECT_LE(uint64_t(t.baseM) * t.baseK * aBytes * t.dbL0A, l0a);
  EXPECT_LE(uint64_t(t.baseN) * t.baseK * bBytes * t.dbL0B, l0b);
  EXPECT_LE(uint64_t(t.baseM) * t.baseN * 4 * t.dbL0C, l0c);
  const uint64_t a1 = uint64_t(t.depthA1) * t.baseM * t.baseK * aBytes;
  const uint64_t b1 = uint64_t(t.depthB1) * t.baseN * t.baseK * bBytes;
  EXPECT_LE(a1 + b1, l1);
  EXPECT_LE(uint64_t(t.shareL1Size), l1);
  EXPECT_GE(t.depthA1, t.stepKa);
  EXPECT_GE(t.depthB1, t.stepKb);
}

TEST(MatmulTilingTest, SampleShapeFitsTheSocAndCoversTheProblem) {
  auto* platform = Platform910B1();
  ASSERT_NE(platform, nullptr);
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(platform->GetCoreNumAic());
  SetFp16Types(api);
  api.SetOrgShape(128, 2048, 1024);
  api.SetShape(128, 2048, 1024);
  api.EnableBias(true);
  api.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling host;
  ASSERT_EQ(api.GetTiling(host), 0);
  TCubeTiling t;
  ASSERT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  host.SaveToBuffer(&t, sizeof(t));
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0;
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
  platform->GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
  ExpectFits(t, l1, l0a, l0b, l0c, 2, 2);
  EXPECT_EQ(t.M, 128);
  EXPECT_EQ(t.N, 2048);
  EXPECT_EQ(t.Ka, 1024);
  EXPECT_EQ(t.Kb, 1024);
  EXPECT_EQ(t.isBias, 1);
  EXPECT_LE(t.usedCoreNum, 24);
  const int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM, nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
  EXPECT_EQ(mBlocks * nBlocks, t.usedCoreNum);
  int32_t dim = 0, mDim = 0, nDim = 0;
  ASSERT_EQ(api.GetCoreNum(dim, mDim, nDim), 0);
  EXPECT_EQ(dim, t.usedCoreNum);
  EXPECT_EQ(mDim * nDim, dim);
  int32_t sm = 0, sn = 0, sk = 0;
  ASSERT_EQ(api.GetSingleShape(sm, sn, sk), 0);
  EXPECT_EQ(sm, t.singleCoreM);
  EXPECT_EQ(sk, 1024);
}

TEST(MatmulTilingTest, RandomShapesAndTypesAlwaysFit) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  auto* platform = Platform910B1();
  ASSERT_NE(platform, nullptr);
  struct Types {
    DataType a, c;
    int bytes;
  } types[] = {{DataType::DT_FLOAT16, DataType::DT_FLOAT, 2},
               {DataType::DT_BF16, DataType::DT_FLOAT, 2},
               {DataType::DT_FLOAT, DataType::DT_FLOAT, 4},
               {DataType::DT_INT8, DataType::DT_INT32, 1}};
  for (int i = 0; i < 300; ++i) {
    const Types ty = types[rng() % 4];
    const int m = 1 + rng() % 3000, n = 1 + rng() % 3000, k = 1 + rng() % 5000;
    const int dim = 1 + rng() % 24;
    matmul_tiling::MultiCoreMatmulTiling api(*platform);
    api.SetDim(dim);
    api.SetAType(TPosition::GM, CubeFormat::ND, ty.a, rng() % 2);
    api.SetBType(TPosition::GM, CubeFormat::ND, ty.a, rng() % 2);
    api.SetCType(TPosition::GM, CubeFormat::ND, ty.c);
    api.SetBiasType(TPosition::GM, CubeFormat::ND,
                    ty.c == DataType::DT_INT32 ? DataType::DT_INT32 : DataType::DT_FLOAT);
    api.SetOrgShape(m, n, k);
    api.SetShape(m, n, k);
    api.EnableBias(rng() % 2);
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0) << "M=" << m << " N=" << n << " K=" << k;
    ExpectFits(t, 524288 - 256, 65536, 65536, 131072, ty.bytes, ty.bytes);
    EXPECT_LE(t.usedCoreNum, dim);
    const int mBlocks = (m + t.singleCoreM - 1) / t.singleCoreM, nBlocks = (n + t.singleCoreN - 1) / t.singleCoreN;
    EXPECT_EQ(mBlocks * nBlocks, t.usedCoreNum) << "M=" << m << " N=" << n;
    EXPECT_GE(int64_t(t.singleCoreM) * mBlocks, m);
    EXPECT_GE(int64_t(t.singleCoreN) * nBlocks, n);
  }
}

TEST(MatmulTilingTest, SingleCoreTilingTakesTheWholeShape) {
  matmul_tiling::MatmulApiTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetShape(300, 77, 519);
  api.SetOrgShape(300, 77, 519);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 1);
  EXPECT_EQ(t.singleCoreM, 300);
  EXPECT_EQ(t.singleCoreN, 77);
  EXPECT_EQ(t.singleCoreK, 519);
  EXPECT_EQ(t.baseN, 80);  // 77 rounded up to the fractal
}

TEST(MatmulTilingTest, FixSplitAndSingleShapeAreKept) {
  matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetDim(8);
  api.SetShape(512, 512, 256);
  api.SetOrgShape(512, 512, 256);
  api.SetSingleShape(256, 128, -1);
  api.SetFixSplit(128, 64, 32);
  api.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 128);
  EXPECT_EQ(t.usedCoreNum, 8);
  EXPECT_EQ(t.baseM, 128);
  EXPECT_EQ(t.baseN, 64);
  EXPECT_EQ(t.baseK, 32);
  EXPECT_EQ(t.iterateOrder, 1);
}

// The K step's bytes of A are aligned to 512 as CANN aligns them: 128x256x64 fp16 base blocks
// would fit 5 steps of A and B double-buffered in L1, CANN takes 4 (640 B -> 512 B), so that
// asc-devkit's matmul_high_performance can raise depthA1 to 16 by hand and still fit L1.
TEST(MatmulTilingTest, KStepIsAlignedTo512BytesOfA) {
  matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetDim(24);
  api.SetShape(8192, 8192, 8192);
  api.SetOrgShape(8192, 8192, 8192);
  api.SetSingleShape(2048, 1366, 8192);
  api.SetFixSplit(128, 256, 64);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.stepKa, 4);
  EXPECT_EQ(t.stepKb, 4);
  EXPECT_EQ(t.depthA1, 8);
  EXPECT_EQ(t.depthB1, 8);
  EXPECT_LE(16u * 128 * 64 * 2 + uint64_t(t.depthB1) * 64 * 256 * 2, 524288u);
}

// Kernels that offset each core by the split and never call SetTail (asc-devkit's matmul
// samples) need whole parts; on a tie the split cuts M, as CANN's does.
TEST(MatmulTilingTest, CoreSplitPrefersWholePartsAndCutsMOnATie) {
  struct Case {
    int32_t m, n, k, dim;
  };
  for (const Case c : {Case{256, 512, 192, 24}, Case{512, 512, 128, 2}, Case{1024, 768, 256, 20}}) {
    TCubeTiling t;
    ASSERT_EQ(MultiCoreTiling(c.m, c.n, c.k, c.dim, false, t), 0);
    EXPECT_EQ(c.m % t.singleCoreM, 0) << c.m << " x " << c.n << ": singleCoreM " << t.singleCoreM;
    EXPECT_EQ(c.n % t.singleCoreN, 0) << c.m << " x " << c.n << ": singleCoreN " << t.singleCoreN;
    EXPECT_LE(t.usedCoreNum, c.dim);
    EXPECT_GT(t.usedCoreNum, 1);
  }
  TCubeTiling t;
  ASSERT_EQ(MultiCoreTiling(512, 512, 128, 2, false, t), 0);
  EXPECT_EQ(t.singleCoreM, 256);
  EXPECT_EQ(t.singleCoreN, 512);
}

TEST(MatmulTilingTest, SplitKSharesKAmongIdleCores) {
  TCubeTiling t;
  ASSERT_EQ(MultiCoreTiling(16, 16, 4096, 8, true, t), 0);
  EXPECT_EQ(t.singleCoreK, 512);
  EXPECT_EQ(t.usedCoreNum, 8);
  // 24 cores over K=1024 (asc-devkit's matmul_splitk): whole slices of 64, not 22 of 48 and a tail
  ASSERT_EQ(MultiCoreTiling(16, 16, 1024, 24, true, t), 0);
  EXPECT_EQ(t.singleCoreK, 64);
  EXPECT_EQ(t.usedCoreNum, 16);
}

// A kernel stages a TSCM operand whole in each core's L1 (CANN's matmul_tscm sample copies all of
// A from its core's offset), so the split keeps that operand's M (A) or N (B) and K whole, even
// with split-K on; the other axis is still shared among cores.
TEST(MatmulTilingTest, TscmOperandIsNotSplitBetweenCores) {
  for (const bool aInTscm : {true, false}) {
    matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
    SetFp16Types(api);
    if (aInTscm)
      api.SetAType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_FLOAT16);
    else
      api.SetBType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_FLOAT16);
    api.SetDim(8);
    api.SetShape(256, 512, 192);
    api.SetOrgShape(256, 512, 192);
    api.EnableMultiCoreSplitK(true);
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);
    EXPECT_EQ(t.singleCoreK, 192);
    if (aInTscm) {
      EXPECT_EQ(t.singleCoreM, 256);
      EXPECT_LT(t.singleCoreN, 512) << "N is still split";
    } else {
      EXPECT_EQ(t.singleCoreN, 512);
      EXPECT_LT(t.singleCoreM, 256) << "M is still split";
    }
    EXPECT_GT(t.usedCoreNum, 1);
  }
}

TEST(MatmulTilingTest, BatchTilingCountsBatchesThatFitL1) {
  matmul_tiling::BatchMatmulTiling api(*Platform910B1());
  SetFp16Types(api);
  ASSERT_EQ(api.SetBatchInfoForNormal(6, 6, 32, 64, 128), 0);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.batchM, 6);
  EXPECT_EQ(t.batchN, 6);
  EXPECT_EQ(t.BatchNum, 6);
  EXPECT_EQ(t.singleBatchM, 6);
}

// Each impossible request: -1 from GetTiling, and the log line names the cause.
std::string FailingTilingLog(matmul_tiling::MatmulApiTilingBase& api) {
  testing::internal::CaptureStdout();
  TCubeTiling t;
  const int64_t ret = api.GetTiling(t);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(ret, -1);
  return out;
}

class MatmulTilingRejects : public testing::Test {
 protected:
  void SetUp() override { setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1); }
};

TEST_F(MatmulTilingRejects, ShapeLargerThanOrgShape) {
  matmul_tiling::MatmulApiTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetOrgShape(64, 64, 64);
  api.SetShape(128, 64, 64);
  EXPECT_NE(FailingTilingLog(api).find("larger than the org shape"), std::string::npos);
}

TEST_F(MatmulTilingRejects, FixSplitThatDoesNotFitL0) {
  matmul_tiling::MatmulApiTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetShape(1024, 1024, 1024);
  api.SetFixSplit(128, 128, 512);
  EXPECT_NE(FailingTilingLog(api).find("do not fit L0A/L0B"), std::string::npos);
}

TEST_F(MatmulTilingRejects, BaseBlockNotAMultipleOf16) {
  matmul_tiling::MatmulApiTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetShape(100, 100, 100);
  api.SetFixSplit(40, -1, -1);
  EXPECT_NE(FailingTilingLog(api).find("baseM 40 set by SetFixSplit is not a positive multiple of 16"),
            std::string::npos);
}

TEST_F(MatmulTilingRejects, L1TooSmall) {
  matmul_tiling::MatmulApiTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetShape(1024, 1024, 1024);
  ASSERT_EQ(api.SetBufferSpace(4096, -1, -1), 0);
  EXPECT_NE(FailingTilingLog(api).find("L1 (4096 bytes) cannot hold"), std::string::npos);
}

TEST_F(MatmulTilingRejects, MismatchedTypesAndTooManyCores) {
  matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
  SetFp16Types(api);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(64, 64, 64);
  EXPECT_NE(FailingTilingLog(api).find("A and B have different DataTypes"), std::string::npos);

  // More cores than SetDim gives are needed only when the tiling picks the split itself: a
  // single shape the user set is the kernel's to loop over (CANN's usedCoreNum is then SetDim's).
  matmul_tiling::MultiCoreMatmulTiling cores(*Platform910B1());
  SetFp16Types(cores);
  cores.SetDim(2);
  cores.SetShape(1024, 1024, 64);
  cores.SetSingleShape(128, 128, -1);
  TCubeTiling t;
  ASSERT_EQ(cores.GetTiling(t), 0);
  EXPECT_EQ(t.usedCoreNum, 2);
  EXPECT_EQ(t.singleCoreM, 128);
  EXPECT_EQ(t.singleCoreN, 128);
}

TEST_F(MatmulTilingRejects, BadSetterValues) {
  matmul_tiling::MultiCoreMatmulTiling api(*Platform910B1());
  EXPECT_EQ(api.SetShape(0, 1, 1), -1);
  EXPECT_EQ(api.SetDim(0), -1);
  EXPECT_EQ(api.SetBufferSpace(1 << 30), -1);
  EXPECT_EQ(api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_STRING), -1);
  int32_t a, b, c;
  EXPECT_EQ(api.GetSingleShape(a, b, c), -1);
}

TEST(MatmulTilingPlanTest, PlannerRespectsTinyMemories) {
  asc_twin_tiling::CubeBlockRequest r;
  r.m = r.n = r.k = 4096;
  r.l1 = 65536;
  r.l0a = r.l0b = 8192;
  r.l0c = 16384;
  asc_twin_tiling::CubeBlockPlan p;
  std::string why;
  ASSERT_TRUE(asc_twin_tiling::PlanCubeBlocks(r, &p, &why)) << why;
  EXPECT_LE(uint64_t(p.baseM) * p.baseN * 4 * p.dbL0C, r.l0c);
  EXPECT_LE(uint64_t(p.baseM) * p.baseK * 2 * p.dbL0A, r.l0a);
  EXPECT_LE(uint64_t(p.l1Bytes), r.l1);
}

TEST(MatmulTilingTest, KernelAndHostStructsHaveTheSameBytes) {
  optiling::TCubeTiling host;
  EXPECT_EQ(host.GetDataSize(), sizeof(TCubeTiling));
  host.set_baseK(48);
  host.set_mxTypePara(7);
  TCubeTiling t;
  host.SaveToBuffer(&t, sizeof(t));
  EXPECT_EQ(t.baseK, 48);
  EXPECT_EQ(t.mxTypePara, 7);
}

}  // namespace
