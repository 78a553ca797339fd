// ge::Graph construction, AIR SaveToFile/LoadFromFile round trip and AIR error handling.
#include <dirent.h>
#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "all_ops.h"
#include "graph/graph.h"
#include "test_ops.h"
#include "test_support.h"

using namespace ge;

namespace {
std::vector<int64_t> RandomDims(std::mt19937_64 &rng) {
  std::vector<int64_t> dims(1 + rng() % 4);
  for (auto &d : dims) d = 1 + static_cast<int64_t>(rng() % 512);
  return dims;
}

TensorDesc RandomDesc(std::mt19937_64 &rng) {
  static const DataType kTypes[] = {DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16};
  static const Format kFormats[] = {FORMAT_ND, FORMAT_NCHW, FORMAT_NHWC};
  TensorDesc desc(Shape(RandomDims(rng)), kFormats[rng() % 3], kTypes[rng() % 4]);
  desc.SetOriginShape(Shape(RandomDims(rng)));
  desc.SetOriginFormat(kFormats[rng() % 3]);
  return desc;
}

std::vector<std::string> ListDir(const std::string &dir) {
  std::vector<std::string> names;
  DIR *d = opendir(dir.c_str());
  while (d != nullptr) {
    dirent *e = readdir(d);
    if (e == nullptr) break;
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") names.emplace_back(e->d_name);
  }
  if (d != nullptr) closedir(d);
  return names;
}

std::string AirError(const std::string &path) {
  return ge_twin_test::CallC(GeTwinGraphDescribeAir, path.c_str()).error;
}

// The varint encoding protobuf uses, to write hand-made AIR headers.
std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

std::string HandMadeAir(const std::string &magic, uint32_t version, bool with_end_marker) {
  std::string bytes;
  bytes += Varint((1 << 3) | 2) + Varint(magic.size()) + magic;  // magic
  bytes += Varint((2 << 3) | 0) + Varint(version);               // format_version
  if (with_end_marker) bytes += Varint((99 << 3) | 5) + std::string("\x21\x41\x49\x52", 4);
  return bytes;
}

struct BuiltGraph {
  Graph graph{"round_trip"};
  std::vector<Operator> ops;
};

// data_x, data_y -> concat(x0, x1, bias=data_x) -> tail(x = concat output 2); outputs concat(all), tail.
BuiltGraph BuildGraph(std::mt19937_64 &rng) {
  BuiltGraph built;
  auto data_x = op::Data("data_x").set_attr_index(0);
  auto data_y = op::Data("data_y").set_attr_index(1);
  for (op::Data *d : {&data_x, &data_y}) {
    TensorDesc desc = RandomDesc(rng);
    d->update_input_desc_x(desc);
    d->update_output_desc_y(desc);
  }
  op::TwinConcatTest concat("concat");
  concat.create_dynamic_input_x(2).create_dynamic_output_extra(2);
  concat.set_dynamic_input_x(0, data_x).set_dynamic_input_x(1, data_y).set_input_bias(data_x);
  concat.set_attr_axis(static_cast<int64_t>(rng() % 7) - 3)
      .set_attr_scale(std::uniform_real_distribution<float>(-5.f, 5.f)(rng))
      .set_attr_pads(RandomDims(rng))
      .set_attr_mode("mode" + std::to_string(rng() % 1000))
      .set_attr_dst_type(DT_BF16)
      .set_attr_grid({RandomDims(rng), RandomDims(rng)});
  concat.SetAttr("extra_tensor", Tensor(TensorDesc(Shape({2}), FORMAT_ND, DT_INT8), std::vector<uint8_t>{7, 9}));
  concat.SetAttr("extra_bools", std::vector<bool>{true, false, true});
  concat.SetAttr("extra_types", std::vector<DataType>{DT_FLOAT, DT_INT64});
  for (uint32_t i = 0; i < 2; ++i) concat.update_dynamic_input_desc_x(i, RandomDesc(rng));
  concat.update_input_desc_bias(RandomDesc(rng));
  concat.update_output_desc_y(RandomDesc(rng));
  for (uint32_t i = 0; i < 2; ++i) concat.update_dynamic_output_desc_extra(i, RandomDesc(rng));
  op::TwinNoImplTest tail("tail");
  tail.set_input_x(concat, 2);
  tail.update_input_desc_x(RandomDesc(rng));
  tail.update_output_desc_y(RandomDesc(rng));
  std::vector<Operator> inputs{data_x, data_y};
  std::vector<Operator> outputs{concat, tail};
  built.graph.SetInputs(inputs).SetOutputs(outputs);
  built.ops = {data_x, data_y, concat, tail};
  return built;
}

template <typename T>
void ExpectSameAttr(const Operator &a, const Operator &b, const char *name) {
  T va{}, vb{};
  ASSERT_EQ(a.GetAttr(name, va), GRAPH_SUCCESS) << name;
  ASSERT_EQ(b.GetAttr(name, vb), GRAPH_SUCCESS) << name;
  EXPECT_EQ(va, vb) << name;
}

void ExpectSameOp(const Operator &a, const Operator &b) {
  EXPECT_EQ(a.GetName(), b.GetName());
  EXPECT_EQ(a.GetOpType(), b.GetOpType());
  ASSERT_EQ(a.GetInputsSize(), b.GetInputsSize());
  ASSERT_EQ(a.GetOutputsSize(), b.GetOutputsSize());
  for (uint32_t i = 0; i < a.GetInputsSize(); ++i)
    EXPECT_EQ(a.GetInputDesc(i), b.GetInputDesc(i)) << a.GetName() << " in " << i;
  for (uint32_t i = 0; i < a.GetOutputsSize(); ++i)
    EXPECT_EQ(a.GetOutputDesc(i), b.GetOutputDesc(i)) << a.GetName() << " out " << i;
  std::map<AscendString, AscendString> ta, tb;
  a.GetAllAttrNamesAndTypes(ta);
  b.GetAllAttrNamesAndTypes(tb);
  EXPECT_EQ(ta, tb);
  for (const auto &entry : ta) {
    const char *name = entry.first.GetString();
    std::string type = entry.second.GetString();
    if (type == "Int")
      ExpectSameAttr<int64_t>(a, b, name);
    else if (type == "Float")
      ExpectSameAttr<float>(a, b, name);
    else if (type == "Bool")
      ExpectSameAttr<bool>(a, b, name);
    else if (type == "String")
      ExpectSameAttr<std::string>(a, b, name);
    else if (type == "Type")
      ExpectSameAttr<DataType>(a, b, name);
    else if (type == "Tensor")
      ExpectSameAttr<Tensor>(a, b, name);
    else if (type == "ListInt")
      ExpectSameAttr<std::vector<int64_t>>(a, b, name);
    else if (type == "ListFloat")
      ExpectSameAttr<std::vector<float>>(a, b, name);
    else if (type == "ListBool")
      ExpectSameAttr<std::vector<bool>>(a, b, name);
    else if (type == "ListString")
      ExpectSameAttr<std::vector<std::string>>(a, b, name);
    else if (type == "ListType")
      ExpectSameAttr<std::vector<DataType>>(a, b, name);
    else if (type == "ListListInt")
      ExpectSameAttr<std::vector<std::vector<int64_t>>>(a, b, name);
    else
      ADD_FAILURE() << "unexpected attr type " << type;
  }
}
}  // namespace

// The graph library logs through the twin's logger (twin/common/log); with
// ASCEND_SLOG_PRINT_TO_STDOUT=1 its lines come on stdout, where the test reads them.
static void CaptureLog() {
  setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1", 1);
  testing::internal::CaptureStdout();
}
static std::string CapturedLog() {
  std::string out = testing::internal::GetCapturedStdout();
  unsetenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  return out;
}

TEST(Air, CannSampleUsageCompilesAndSaves) {
  // As in CANN's offline graph-build sample.
  const int64_t n = 8 * 2048;
  auto shape = ge::Shape({n});
  ge::TensorDesc desc(shape, ge::FORMAT_ND, ge::DT_FLOAT);
  auto data_x = op::Data("data_x").set_attr_index(0);
  data_x.update_input_desc_x(desc);
  data_x.update_output_desc_y(desc);
  std::vector<Operator> inputs{data_x};
  std::vector<Operator> outputs{data_x};
  ge::Graph graph("sample");
  graph.SetInputs(inputs).SetOutputs(outputs);
  std::string path = ge_twin_test::MakeTempDir() + "/sample.air";
  EXPECT_EQ(graph.SaveToFile(path.c_str()), GRAPH_SUCCESS);
  AscendString name;
  graph.GetName(name);
  EXPECT_EQ(std::string(name.GetString()), "sample");
}

TEST(Air, RoundTripPreservesNodesEdgesDescsAttrs) {
  auto rng = ge_twin_test::SeededRng("Air.RoundTrip");
  for (int round = 0; round < 5; ++round) {
    BuiltGraph built = BuildGraph(rng);
    std::string dir = ge_twin_test::MakeTempDir();
    std::string path = dir + "/g.air";
    ASSERT_EQ(built.graph.SaveToFile(path.c_str()), GRAPH_SUCCESS);
    EXPECT_EQ(ListDir(dir), std::vector<std::string>{"g.air"});  // no temp file left behind

    Graph loaded("placeholder");
    ASSERT_EQ(loaded.LoadFromFile(path.c_str()), GRAPH_SUCCESS);
    EXPECT_EQ(loaded.GetName(), "round_trip");
    std::vector<AscendString> names_a, names_b;
    ASSERT_EQ(built.graph.GetAllOpName(names_a), GRAPH_SUCCESS);
    ASSERT_EQ(loaded.GetAllOpName(names_b), GRAPH_SUCCESS);
    ASSERT_EQ(names_a, names_b);
    EXPECT_EQ(names_a.size(), 4u);
    for (const auto &original : built.ops) {
      Operator copy;
      ASSERT_EQ(loaded.FindOpByName(original.GetName().c_str(), copy), GRAPH_SUCCESS);
      ExpectSameOp(original, copy);
    }
    std::vector<Operator> data_ops;
    ASSERT_EQ(loaded.FindOpByType("Data", data_ops), GRAPH_SUCCESS);
    EXPECT_EQ(data_ops.size(), 2u);

    // Edges and graph inputs/outputs, read back through the C ABI description.
    auto described = ge_twin_test::CallC(GeTwinGraphDescribeAir, path.c_str());
    ASSERT_EQ(described.status, GRAPH_SUCCESS) << described.error;
    auto description = ge_twin_test::Response<ge::twin::capi::AirDescription>(described);
    std::map<std::string, std::string> edges;  // "<node>.<input>" -> "<src>:<index>"
    for (const auto &node : description.nodes()) {
      for (const auto &in : node.inputs()) {
        edges[node.name() + "." + in.name()] =
            in.connected() ? in.src_node() + ":" + std::to_string(in.src_index()) : "-";
      }
    }
    std::map<std::string, std::string> expected = {{"data_x.x", "-"},           {"data_y.x", "-"},
                                                   {"concat.x0", "data_x:0"},   {"concat.x1", "data_y:0"},
                                                   {"concat.bias", "data_x:0"}, {"tail.x", "concat:2"}};
    EXPECT_EQ(edges, expected);
    EXPECT_EQ(std::vector<std::string>(description.inputs().begin(), description.inputs().end()),
              (std::vector<std::string>{"data_x", "data_y"}));
    std::vector<std::string> outputs;
    for (const auto &o : description.outputs()) outputs.push_back(o.node() + ":" + std::to_string(o.index()));
    EXPECT_EQ(outputs, (std::vector<std::string>{"concat:0", "concat:1", "concat:2", "tail:0"}));

    // Saving the loaded graph reproduces the file byte for byte.
    std::string again = dir + "/again.air";
    ASSERT_EQ(loaded.SaveToFile(again.c_str()), GRAPH_SUCCESS);
    EXPECT_EQ(ge_twin_test::ReadFile(path), ge_twin_test::ReadFile(again));
  }
}

TEST(Air, OutOfRangeSetInputLeavesEdgeUnchanged) {
  op::Data a("a"), b("b");
  op::TwinNoImplTest n("n");
  n.set_input_x(a);
  n.set_input_x(b, 5);  // b has one output: refused
  Graph g("g");
  std::vector<Operator> ins{a}, outs{n};
  g.SetInputs(ins).SetOutputs(outs);
  std::string path = ge_twin_test::MakeTempDir() + "/g.air";
  ASSERT_EQ(g.SaveToFile(path.c_str()), GRAPH_SUCCESS);
  auto description =
      ge_twin_test::Response<ge::twin::capi::AirDescription>(ge_twin_test::CallC(GeTwinGraphDescribeAir, path.c_str()));
  std::vector<std::string> names, sources;
  for (const auto &node : description.nodes()) {
    names.push_back(node.name());
    for (const auto &in : node.inputs()) sources.push_back(in.connected() ? in.src_node() : "-");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "n"}));  // b is not part of the graph
  EXPECT_EQ(sources, (std::vector<std::string>{"-", "a"}));
}

TEST(Air, LoadErrors) {
  auto rng = ge_twin_test::SeededRng("Air.LoadErrors");
  std::string dir = ge_twin_test::MakeTempDir();
  Graph g("keep_me");

  EXPECT_EQ(g.LoadFromFile((dir + "/missing.air").c_str()), GRAPH_FAILED);
  EXPECT_NE(AirError(dir + "/missing.air").find("cannot be opened"), std::string::npos);
  EXPECT_EQ(g.LoadFromFile(dir.c_str()), GRAPH_FAILED);  // a directory
  EXPECT_EQ(g.LoadFromFile(""), GRAPH_PARAM_INVALID);

  ge_twin_test::WriteFile(dir + "/empty.air", "");
  EXPECT_EQ(g.LoadFromFile((dir + "/empty.air").c_str()), GRAPH_FAILED);
  EXPECT_NE(AirError(dir + "/empty.air").find("is empty"), std::string::npos);

  for (int round = 0; round < 50; ++round) {
    std::string junk(1 + rng() % 300, '\0');
    for (auto &c : junk) c = static_cast<char>(rng());
    ge_twin_test::WriteFile(dir + "/junk.air", junk);
    EXPECT_EQ(g.LoadFromFile((dir + "/junk.air").c_str()), GRAPH_FAILED);
  }

  // Every proper prefix of a valid file is refused (truncated).
  BuiltGraph built = BuildGraph(rng);
  ASSERT_EQ(built.graph.SaveToFile((dir + "/good.air").c_str()), GRAPH_SUCCESS);
  std::string good = ge_twin_test::ReadFile(dir + "/good.air");
  for (size_t len = 0; len < good.size(); ++len) {
    ge_twin_test::WriteFile(dir + "/cut.air", good.substr(0, len));
    ASSERT_EQ(g.LoadFromFile((dir + "/cut.air").c_str()), GRAPH_FAILED) << "prefix of " << len << " bytes accepted";
  }
  ge_twin_test::WriteFile(dir + "/cut.air", good.substr(0, good.size() - 6));  // exactly the end marker cut off
  EXPECT_NE(AirError(dir + "/cut.air").find("truncated"), std::string::npos);

  ge_twin_test::WriteFile(dir + "/newer.air", HandMadeAir("ge.twin.air", 2, true));
  EXPECT_EQ(g.LoadFromFile((dir + "/newer.air").c_str()), GRAPH_FAILED);
  EXPECT_NE(AirError(dir + "/newer.air").find("format_version 2, newer than the newest supported (1)"),
            std::string::npos);
  ge_twin_test::WriteFile(dir + "/magic.air", HandMadeAir("onnx", 1, true));
  EXPECT_NE(AirError(dir + "/magic.air").find("not a ge.twin AIR file"), std::string::npos);

  EXPECT_EQ(g.GetName(), "keep_me");  // failed loads leave the graph unchanged
}

// Names and paths from a crafted file reach messages with their control bytes escaped: no line
// break or terminal escape sequence gets into a log line or an error string.
TEST(Air, ControlCharactersInMessagesAreEscaped) {
  auto rng = ge_twin_test::SeededRng("Air.ControlCharactersInMessagesAreEscaped");
  std::string dir = ge_twin_test::MakeTempDir();
  std::string magic = "evil\n\x1b[2J";
  magic.push_back(static_cast<char>(1 + rng() % 8));  // one more random control byte (\x01-\x08)
  const std::string path = dir + "/line\nbreak.air";
  ge_twin_test::WriteFile(path, HandMadeAir(magic, 1, true));
  const std::string error = AirError(path);
  for (char c : error) {
    ASSERT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << "raw control byte in: " << error;
  }
  EXPECT_NE(error.find("line\\nbreak.air"), std::string::npos) << error;
  char escaped_random[8];
  std::snprintf(escaped_random, sizeof(escaped_random), "\\x%02x", static_cast<unsigned char>(magic.back()));
  EXPECT_NE(error.find(std::string("magic 'evil\\n\\x1b[2J") + escaped_random + "'"), std::string::npos) << error;

  // The same through ge::Graph::LoadFromFile's error log line.
  CaptureLog();
  Graph g("g");
  EXPECT_EQ(g.LoadFromFile(path.c_str()), GRAPH_FAILED);
  const std::string logged = CapturedLog();
  EXPECT_NE(logged.find("magic 'evil\\n\\x1b[2J"), std::string::npos) << logged;
  EXPECT_EQ(logged.find('\x1b'), std::string::npos) << logged;
  EXPECT_EQ(std::count(logged.begin(), logged.end(), '\n'), 1) << logged;  // one line
}

TEST(Air, SaveErrorsLeaveNothingBehind) {
  std::string dir = ge_twin_test::MakeTempDir();
  op::Data a("a");
  std::vector<Operator> ins{a};

  Graph no_dir("g");
  no_dir.SetInputs(ins).SetOutputs(ins);
  EXPECT_EQ(no_dir.SaveToFile((dir + "/no/such/dir/g.air").c_str()), GRAPH_FAILED);
  EXPECT_EQ(no_dir.SaveToFile(""), GRAPH_PARAM_INVALID);

  Graph empty("empty");
  EXPECT_EQ(empty.SaveToFile((dir + "/empty.air").c_str()), GRAPH_FAILED);

  op::Data twin_name("a");
  op::TwinConcatTest c("c");
  c.create_dynamic_input_x(2).set_dynamic_input_x(0, a).set_dynamic_input_x(1, twin_name);
  Graph duplicate("dup");
  std::vector<Operator> outs{c};
  duplicate.SetOutputs(outs);
  EXPECT_EQ(duplicate.SaveToFile((dir + "/dup.air").c_str()), GRAPH_FAILED);

  op::TwinNoImplTest p("p"), q("q");
  p.set_input_x(q);
  q.set_input_x(p);
  Graph cycle("cycle");
  std::vector<Operator> cycle_outs{p};
  cycle.SetOutputs(cycle_outs);
  EXPECT_EQ(cycle.SaveToFile((dir + "/cycle.air").c_str()), GRAPH_FAILED);
  EXPECT_FALSE(cycle.IsValid());
  EXPECT_TRUE(ListDir(dir).empty());

  // Overwriting an existing file replaces it whole.
  ge_twin_test::WriteFile(dir + "/g.air", std::string(100000, 'x'));
  ASSERT_EQ(no_dir.SaveToFile((dir + "/g.air").c_str()), GRAPH_SUCCESS);
  Graph back("back");
  EXPECT_EQ(back.LoadFromFile((dir + "/g.air").c_str()), GRAPH_SUCCESS);
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"g.air"});
}

// A 100,000-node chain: building, saving, loading and destroying it recurse nowhere (each op
// holds its producer; destruction used to recurse once per node and overflow the stack), and
// 8,000 unreachable nodes load in one pass.
TEST(Air, LongChainAndManyUnreachableNodes) {
  const std::string dir = ge_twin_test::MakeTempDir();
  const std::string path = dir + "/chain.air";
  {
    op::Data a("a");
    std::vector<op::TwinNoImplTest> chain;
    chain.reserve(100000);
    for (int i = 0; i < 100000; ++i) {
      chain.emplace_back(("n" + std::to_string(i)).c_str());
      if (i == 0) {
        chain.back().set_input_x(a);
      } else {
        chain.back().set_input_x(chain[static_cast<size_t>(i) - 1]);
      }
    }
    Graph g("chain");
    std::vector<Operator> ins{a}, outs{chain.back()};
    g.SetInputs(ins).SetOutputs(outs);
    for (int i = 0; i < 8000; ++i) {  // unreachable from inputs and outputs
      op::TwinNoImplTest loose(("loose" + std::to_string(i)).c_str());
      loose.set_input_x(a);
      ASSERT_EQ(g.AddOp(loose), GRAPH_SUCCESS);
    }
    ASSERT_EQ(g.SaveToFile(path.c_str()), GRAPH_SUCCESS);
  }
  Graph loaded("again");
  ASSERT_EQ(loaded.LoadFromFile(path.c_str()), GRAPH_SUCCESS);
  std::vector<AscendString> names;
  ASSERT_EQ(loaded.GetAllOpName(names), GRAPH_SUCCESS);
  EXPECT_EQ(names.size(), 1u + 100000u + 8000u);
}
