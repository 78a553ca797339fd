// Prints a Matmul tiling computed by matmul_tiling::MultiCoreMatmulTiling (libtiling_api) as the
// 50 int32 fields of TCubeTiling, space separated, for test_matmul.py to pass to the kernels:
//   matmul_tiling_tool SOC M N K DIM ATYPE CTYPE TRANS_A TRANS_B BIAS [BASE_M BASE_N BASE_K]
// ATYPE/CTYPE: f16, bf16, f32, i8, i4, i32. Exit 1 (with GetTiling's log line) when the tiling fails.
#include <cstdio>
#include <string>
#include <cstdlib>
#include <cstring>

#include "tiling/tiling_api.h"

namespace {
matmul_tiling::DataType ParseType(const char* s) {
  using matmul_tiling::DataType;
  if (!std::strcmp(s, "f16")) return DataType::DT_FLOAT16;
  if (!std::strcmp(s, "bf16")) return DataType::DT_BF16;
  if (!std::strcmp(s, "f32")) return DataType::DT_FLOAT;
  if (!std::strcmp(s, "i8")) return DataType::DT_INT8;
  if (!std::strcmp(s, "i4")) return DataType::DT_INT4;
  if (!std::strcmp(s, "i32")) return DataType::DT_INT32;
  std::fprintf(stderr, "matmul_tiling_tool: unknown type %s\n", s);
  std::exit(2);
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 11 && argc != 14) {
    std::fprintf(stderr, "usage: %s SOC M N K DIM ATYPE CTYPE TRANS_A TRANS_B BIAS [BASE_M BASE_N BASE_K]\n", argv[0]);
    return 2;
  }
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance(argv[1]);
  if (platform == nullptr) {
    std::fprintf(stderr, "matmul_tiling_tool: no platform for %s\n", argv[1]);
    return 2;
  }
  const int m = std::atoi(argv[2]), n = std::atoi(argv[3]), k = std::atoi(argv[4]), dim = std::atoi(argv[5]);
  using matmul_tiling::CubeFormat;
  using matmul_tiling::TPosition;
  // ATYPE "<type>@tscm": A is staged in TSCM (L1) in NZ, as a Matmul with a TSCM A takes it.
  std::string aName = argv[6];
  const std::string tscmSuffix = "@tscm";
  const bool aInTscm = aName.size() > tscmSuffix.size() &&
                       aName.compare(aName.size() - tscmSuffix.size(), tscmSuffix.size(), tscmSuffix) == 0;
  if (aInTscm) aName.resize(aName.size() - tscmSuffix.size());
  const auto a = ParseType(aName.c_str()), c = ParseType(argv[7]);
  matmul_tiling::MultiCoreMatmulTiling api(*platform);
  api.SetDim(dim);
  api.SetAType(aInTscm ? TPosition::TSCM : TPosition::GM, aInTscm ? CubeFormat::NZ : CubeFormat::ND, a,
               std::atoi(argv[8]) != 0);
  api.SetBType(TPosition::GM, CubeFormat::ND, a, std::atoi(argv[9]) != 0);
  api.SetCType(TPosition::GM, CubeFormat::ND, c);
  const bool intIn = a == matmul_tiling::DataType::DT_INT8 || a == matmul_tiling::DataType::DT_INT4;
  api.SetBiasType(TPosition::GM, CubeFormat::ND,
                  intIn ? matmul_tiling::DataType::DT_INT32 : matmul_tiling::DataType::DT_FLOAT);
  api.SetOrgShape(m, n, k);
  api.SetShape(m, n, k);
  api.EnableBias(std::atoi(argv[10]) != 0);
  api.SetBufferSpace(-1, -1, -1);
  if (argc == 14) api.SetFixSplit(std::atoi(argv[11]), std::atoi(argv[12]), std::atoi(argv[13]));
  TCubeTiling t;
  if (api.GetTiling(t) == -1) return 1;
  const int32_t* words = reinterpret_cast<const int32_t*>(&t);
  for (size_t i = 0; i < sizeof(t) / sizeof(int32_t); ++i)
    std::printf("%d%c", words[i], i + 1 < sizeof(t) / 4 ? ' ' : '\n');
  return 0;
}
