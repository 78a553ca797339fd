// graph_build <out.air> <n16> <n32> <negative_slope>: two LeakyReluCustom nodes, one on a float16
// input x16[n16] and one on a float32 input x32[n32], outputs 0 and 1; built with the C++ ES API
// gen_esb generated for the operator's proto library (//ops/leaky_relu_custom:es_leaky_cc).
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "es_graph_builder.h"
#include "es_leaky_ops.h"

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
  int64_t n16 = 0;
  int64_t n32 = 0;
  char *end = nullptr;
  const float slope = argc == 5 ? std::strtof(argv[4], &end) : 0.0f;
  if (argc != 5 || !ParsePositive(argv[2], &n16) || !ParsePositive(argv[3], &n32) || end == argv[4] || *end != '\0') {
    std::fprintf(stderr, "usage: graph_build OUT.air N16 N32 NEGATIVE_SLOPE (N16, N32 positive integers)\n");
    return 2;
  }
  ge::es::EsGraphBuilder builder("leaky_relu_custom_offline");
  auto x16 = builder.CreateInput(0, "x16", ge::DT_FLOAT16, ge::FORMAT_ND, {n16});
  auto x32 = builder.CreateInput(1, "x32", ge::DT_FLOAT, ge::FORMAT_ND, {n32});
  auto y16 = ge::es::LeakyReluCustom(x16, slope);
  auto y32 = ge::es::LeakyReluCustom(x32, slope);
  if (!y16.IsValid() || !y32.IsValid() || ge::es::EsGraphBuilder::SetOutput(y16, 0) != ge::GRAPH_SUCCESS ||
      ge::es::EsGraphBuilder::SetOutput(y32, 1) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "graph_build: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  auto graph = builder.BuildAndReset();
  if (graph == nullptr || graph->SaveToFile(argv[1]) != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "graph_build: cannot build or save the graph: %s\n", EsGetLastErrorMessage());
    return 1;
  }
  std::printf("LEAKY_RELU_AIR_BUILD=PASS %s\n", argv[1]);
  return 0;
}
