// graph_build <out.air> <M> <N> <K> <negative_slope>: one MatmulLeakyReluCustom node on inputs
// a [M, K] float16, b [K, N] float16, bias [N] float32, output c; built with the C++ ES API
// gen_esb generated for the operator's proto library (:es_matmul_leakyrelu_cc).
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "es_graph_builder.h"
#include "es_matmul_leakyrelu_ops.h"

namespace {
bool ParsePositive(const char *text, int64_t *value) {
  char *end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || parsed <= 0) return false;
  *value = parsed;
  return true;
}
}  // namespace

int main(int argc, char **argv) {
  int64_t m = 0, n = 0, k = 0;
  char *end = nullptr;
  const float slope = argc == 6 ? std::strtof(argv[5], &end) : 0.0f;
  if (argc != 6 || !ParsePositive(argv[2], &m) || !ParsePositive(argv[3], &n) || !ParsePositive(argv[4], &k) ||
      end == argv[5] || *end != '\0') {
    std::fprintf(stderr, "usage: graph_build OUT.air M N K NEGATIVE_SLOPE (M, N, K positive integers)\n");
    return 2;
  }
  ge::es::EsGraphBuilder builder("matmul_leakyrelu_custom_offline");
  auto a = builder.CreateInput(0, "a", ge::DT_FLOAT16, ge::FORMAT_ND, {m, k});
  auto b = builder.CreateInput(1, "b", ge::DT_FLOAT16, ge::FORMAT_ND, {k, n});
  auto bias = builder.CreateInput(2, "bias", ge::DT_FLOAT, ge::FORMAT_ND, {n});
  auto c = ge::es::MatmulLeakyReluCustom(a, b, bias, slope);
  if (!c.IsValid() || ge::es::EsGraphBuilder::SetOutput(c, 0) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "graph_build: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  auto graph = builder.BuildAndReset();
  if (graph == nullptr || graph->SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "graph_build: cannot build or save the graph: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  std::printf("MATMUL_LEAKYRELU_AIR_BUILD=PASS %s\n", argv[1]);
  return 0;
}
