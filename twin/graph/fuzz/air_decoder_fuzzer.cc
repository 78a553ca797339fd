// libFuzzer target: the AIR decoder (protobuf parse, magic/version/end-marker checks, nodes,
// IR inputs/outputs, descs, attributes, edges, graph inputs/outputs) on arbitrary bytes.
// Built with -fsanitize=fuzzer,address,undefined (BUILD.bazel): any crash, leak or UB report is
// a finding. Oracles beyond "no crash": every error is one line without control bytes, and a
// graph that decodes encodes again and decodes to the same bytes (what LoadFromFile accepts,
// SaveToFile can write back).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "graph_impl.h"

namespace {

[[noreturn]] void Finding(const char *what, const std::string &detail) {
  std::fprintf(stderr, "air_decoder_fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckOneLine(const std::string &error) {
  for (const char c : error) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) Finding("raw control byte in an error", error);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string bytes(reinterpret_cast<const char *>(data), size);
  ge::GraphImpl graph;
  const std::string error = ge::DecodeAir(bytes, "fuzz.air", &graph);
  if (!error.empty()) {
    CheckOneLine(error);
    return 0;
  }
  std::string encoded;
  const std::string encode_error = ge::EncodeAir(graph, &encoded);
  if (!encode_error.empty()) {
    CheckOneLine(encode_error);
    return 0;  // e.g. an empty graph decodes but cannot be saved: SaveToFile refuses it too
  }
  ge::GraphImpl again;
  const std::string again_error = ge::DecodeAir(encoded, "fuzz.air (re-encoded)", &again);
  if (!again_error.empty()) Finding("a re-encoded graph does not decode", again_error);
  std::string twice;
  if (!ge::EncodeAir(again, &twice).empty() || twice != encoded) Finding("encoding is not stable", "");
  return 0;
}
