// om_check FILE.om — validates an OM container with the runtime's reader and prints what it
// holds. Exit status 0 if valid, 1 with one "om_check: <file>: <cause>" line otherwise.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "twin/om/om_reader.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: om_check FILE.om\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "om_check: %s: cannot open the file\n", argv[1]);
    return 1;
  }
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  asc_twin::om::OmContainer container;
  asc_twin::om::ReadError error;
  if (!asc_twin::om::ReadOm(bytes.data(), bytes.size(), &container, &error)) {
    std::fprintf(stderr, "om_check: %s: %s [%s]\n", argv[1], error.message.c_str(),
                 asc_twin::om::ReadErrorKindName(error.kind));
    return 1;
  }
  const asc_twin::om::ModelDef &model = container.model_def;
  std::printf("model=%s format_version=%u soc_version=%s npu_arch=%u\n", model.name().c_str(), container.format_version,
              container.soc_version.c_str(), container.npu_arch);
  std::printf("inputs=%d outputs=%d tasks=%d kernel_binaries=%zu constants_bytes=%zu feature_map_size=%llu\n",
              model.inputs_size(), model.outputs_size(), model.tasks_size(), container.kernel_binaries.size(),
              container.constants.size, static_cast<unsigned long long>(model.feature_map_size()));
  if (container.requires_python()) std::printf("requires_python=1 graph_bytes=%zu\n", container.graph.size);
  return 0;
}
