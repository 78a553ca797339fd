// Builds the seed's graph and writes it as AIR, as CANN's graph_build sample does:
//   data_x (Data, index 0) ──┐
//                            ├─> PythonCompilableAddCustom ──> graph output
//   data_y (Data, index 1) ──┘
// Usage: graph_build <output.air> [N]   (N float32 elements per input, a multiple of 1024;
// default 8192). Compiles unchanged against CANN's headers.
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "offline/add_graph.h"

namespace {

constexpr int64_t kDefaultElementCount = 8192;
constexpr int64_t kElementsPerBlock = 1024;  // the kernel processes 1024 floats per block

bool ParseElementCount(const char *text, int64_t *count) {
  errno = 0;
  char *end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value <= 0) {
    std::fprintf(stderr, "graph_build: N must be a positive integer, got '%s'\n", text);
    return false;
  }
  if (value % kElementsPerBlock != 0) {
    std::fprintf(stderr, "graph_build: N must be a multiple of %lld, got %lld\n",
                 static_cast<long long>(kElementsPerBlock), value);
    return false;
  }
  *count = value;
  return true;
}

ge::graphStatus BuildAndSave(const char *air_path, int64_t element_count) {
  return add_graph::BuildAddGraph(element_count).SaveToFile(air_path);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s <output.air> [N, a multiple of %lld, default %lld]\n", argv[0],
                 static_cast<long long>(kElementsPerBlock), static_cast<long long>(kDefaultElementCount));
    return 2;
  }
  int64_t element_count = kDefaultElementCount;
  if (argc == 3 && !ParseElementCount(argv[2], &element_count)) {
    return 2;
  }
  const ge::graphStatus status = BuildAndSave(argv[1], element_count);
  if (status != ge::GRAPH_SUCCESS) {
    std::fprintf(stderr, "graph_build: failed to save the graph to %s (graphStatus %u)\n", argv[1],
                 static_cast<unsigned>(status));
    return 1;
  }
  std::printf("graph_build: wrote %s (N=%lld)\n", argv[1], static_cast<long long>(element_count));
  std::printf("PY_COMPILE_AIR_BUILD=PASS\n");
  return 0;
}
