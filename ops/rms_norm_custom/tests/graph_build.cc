// graph_build <out.air> <B16> <S16> <H16> <B32> <S32> <H32> <epsilon>: two RmsNormCustom nodes,
// one on float16 x16 [B16, S16, H16] with gamma16 [H16], one on float32 x32 [B32, S32, H32] with
// gamma32 [H32] (inputs 0-3 in that order, outputs y16 and y32); built with the C++ ES API
// gen_esb generated for the operator's proto library (:es_rms_norm_cc).
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "es_graph_builder.h"
#include "es_rms_norm_ops.h"

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
  int64_t dims[6] = {};
  bool ok = argc == 9;
  for (int i = 0; ok && i < 6; ++i) ok = ParsePositive(argv[2 + i], &dims[i]);
  char *end = nullptr;
  const float epsilon = ok ? std::strtof(argv[8], &end) : 0.0f;
  if (!ok || end == argv[8] || *end != '\0') {
    std::fprintf(stderr, "usage: graph_build OUT.air B16 S16 H16 B32 S32 H32 EPSILON (dimensions positive integers)\n");
    return 2;
  }
  ge::es::EsGraphBuilder builder("rms_norm_custom_offline");
  auto x16 = builder.CreateInput(0, "x16", ge::DT_FLOAT16, ge::FORMAT_ND, {dims[0], dims[1], dims[2]});
  auto gamma16 = builder.CreateInput(1, "gamma16", ge::DT_FLOAT16, ge::FORMAT_ND, {dims[2]});
  auto x32 = builder.CreateInput(2, "x32", ge::DT_FLOAT, ge::FORMAT_ND, {dims[3], dims[4], dims[5]});
  auto gamma32 = builder.CreateInput(3, "gamma32", ge::DT_FLOAT, ge::FORMAT_ND, {dims[5]});
  auto y16 = ge::es::RmsNormCustom(x16, gamma16, epsilon);
  auto y32 = ge::es::RmsNormCustom(x32, gamma32, epsilon);
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
  std::printf("RMS_NORM_AIR_BUILD=PASS %s\n", argv[1]);
  return 0;
}
