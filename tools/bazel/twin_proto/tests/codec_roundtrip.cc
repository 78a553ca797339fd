// codec_roundtrip: parses messages with the twin codec and serializes them again, for
// codec_interop_test.py (C++ <-> Python protobuf byte identity).
//
// stdin: records [u32 type-name length][type name][u32 payload length][payload], little-endian,
//   type names fully qualified ("ge.twin.air.Model").
// stdout: one record per input: [u8 1 = parsed, 0 = refused][u32 length][re-serialized bytes].
// Exit 1 with one line on stderr for an unknown type name or a cut record.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <iterator>
#include <map>
#include <string>

#include "tools/bazel/twin_proto/tests/codec_test.pb.h"
#include "twin/graph/proto/air.pb.h"
#include "twin/om/om.pb.h"

namespace {

using RoundTrip = std::function<bool(const std::string &, std::string *)>;

template <typename M>
RoundTrip Of() {
  return [](const std::string &in, std::string *out) {
    M message;
    if (!message.ParseFromString(in)) return false;
    // Through a copy, so copy construction is covered too.
    const M copy = message;
    return copy.SerializeToString(out);
  };
}

const std::map<std::string, RoundTrip> &Types() {
  namespace air = ge::twin::air;
  namespace om = asc_twin::om;
  namespace t = twin_proto::test;
  static const auto *types = new std::map<std::string, RoundTrip>{
      {"ge.twin.air.Model", Of<air::Model>()},
      {"ge.twin.air.Graph", Of<air::Graph>()},
      {"ge.twin.air.Node", Of<air::Node>()},
      {"ge.twin.air.AttrValue", Of<air::AttrValue>()},
      {"ge.twin.air.TensorDesc", Of<air::TensorDesc>()},
      {"asc_twin.om.ModelDef", Of<om::ModelDef>()},
      {"asc_twin.om.TaskDef", Of<om::TaskDef>()},
      {"asc_twin.om.Binding", Of<om::Binding>()},
      {"twin_proto.test.Scalars", Of<t::Scalars>()},
      {"twin_proto.test.Repeateds", Of<t::Repeateds>()},
      {"twin_proto.test.Outer", Of<t::Outer>()},
      {"twin_proto.test.Tree", Of<t::Tree>()},
  };
  return *types;
}

bool ReadU32(std::istream &in, uint32_t *v) {
  unsigned char b[4];
  if (!in.read(reinterpret_cast<char *>(b), 4)) return false;
  *v = uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
  return true;
}

bool ReadBytes(std::istream &in, std::string *s) {
  uint32_t n;
  if (!ReadU32(in, &n)) return false;
  s->resize(n);
  return n == 0 || static_cast<bool>(in.read(&(*s)[0], n));
}

void WriteRecord(bool ok, const std::string &bytes) {
  std::string header(5, '\0');
  header[0] = ok ? 1 : 0;
  for (int i = 0; i < 4; ++i) header[1 + i] = static_cast<char>(bytes.size() >> (8 * i));
  std::cout.write(header.data(), header.size());
  std::cout.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string type, payload;
  while (std::cin.peek() != EOF) {
    if (!ReadBytes(std::cin, &type) || !ReadBytes(std::cin, &payload)) {
      std::cerr << "codec_roundtrip: input ends inside a record\n";
      return 1;
    }
    auto it = Types().find(type);
    if (it == Types().end()) {
      std::cerr << "codec_roundtrip: unknown message type '" << type << "'\n";
      return 1;
    }
    std::string out;
    const bool ok = it->second(payload, &out);
    WriteRecord(ok, ok ? out : std::string());
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}
