// The twin protobuf codec (protoc-gen-twin_cpp + runtime.h): the accessor subset, protobuf's
// exact encoding, and strict parsing of malformed input (each case returns false, never crashes;
// the _asan variant runs the same file under AddressSanitizer). Random inputs print their seed;
// set GE_TWIN_TEST_SEED to replay.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tools/bazel/twin_proto/tests/codec_test.pb.h"
#include "twin/graph/proto/air.pb.h"

namespace twin_proto::test {
namespace {

// ---- hand encoding of wire bytes ----

std::string Varint(uint64_t v) {
  std::string s;
  while (v >= 0x80) {
    s += static_cast<char>(v | 0x80);
    v >>= 7;
  }
  s += static_cast<char>(v);
  return s;
}

std::string Tag(uint32_t field, uint32_t wire) { return Varint(uint64_t{field} << 3 | wire); }
std::string Len(uint32_t field, const std::string &body) { return Tag(field, 2) + Varint(body.size()) + body; }
std::string Hex(const std::string &s) {
  std::string out;
  char buf[4];
  for (unsigned char c : s) {
    std::snprintf(buf, sizeof buf, "%02x", c);
    out += buf;
  }
  return out;
}

std::mt19937_64 SeededRng(const char *test_name) {
  uint64_t seed = std::random_device{}();
  if (const char *env = std::getenv("GE_TWIN_TEST_SEED")) seed = std::strtoull(env, nullptr, 10);
  std::printf("[seed] %s: GE_TWIN_TEST_SEED=%llu\n", test_name, static_cast<unsigned long long>(seed));
  return std::mt19937_64(seed);
}

template <typename M>
bool Parses(const std::string &bytes) {
  M m;
  return m.ParseFromString(bytes);
}

// ---- API and encoding ----

TEST(CodecApi, AccessorsFollowProtobuf) {
  Outer o;
  EXPECT_FALSE(o.has_inner());
  EXPECT_EQ(o.inner().label(), "");  // default instance
  o.mutable_inner()->set_label("x");
  EXPECT_TRUE(o.has_inner());
  o.clear_inner();
  EXPECT_FALSE(o.has_inner());

  EXPECT_EQ(o.choice_case(), Outer::CHOICE_NOT_SET);
  o.set_c_int32(7);
  EXPECT_EQ(o.choice_case(), Outer::kCInt32);
  EXPECT_TRUE(o.has_c_int32());
  o.set_c_string("s");  // switches the oneof
  EXPECT_EQ(o.choice_case(), Outer::kCString);
  EXPECT_EQ(o.c_int32(), 0);
  o.mutable_c_inner()->set_mode(Outer::MODE_FAST);
  EXPECT_EQ(o.choice_case(), Outer::kCInner);
  EXPECT_EQ(o.c_string(), "");
  o.clear_choice();
  EXPECT_EQ(o.choice_case(), Outer::CHOICE_NOT_SET);

  auto *a = o.add_inners();
  a->set_label("a");
  for (int i = 0; i < 100; ++i) o.add_inners();
  EXPECT_EQ(a->label(), "a");  // pointers from add_ stay valid
  EXPECT_EQ(o.inners_size(), 101);
  o.mutable_inners(1)->set_label("b");
  int labelled = 0;
  for (const auto &in : o.inners()) labelled += in.label().empty() ? 0 : 1;
  EXPECT_EQ(labelled, 2);

  Repeateds r;
  r.add_r_int64(-5);
  r.add_r_string("x");
  *r.add_r_string() = "y";
  r.mutable_r_int64()->Add(6);
  EXPECT_EQ(std::vector<int64_t>(r.r_int64().begin(), r.r_int64().end()), (std::vector<int64_t>{-5, 6}));
  EXPECT_EQ(std::vector<std::string>(r.r_string().begin(), r.r_string().end()), (std::vector<std::string>{"x", "y"}));

  EXPECT_TRUE(Color_IsValid(-3));
  EXPECT_FALSE(Color_IsValid(3));
  EXPECT_TRUE(Outer::Mode_IsValid(1));
  EXPECT_EQ(Color_Name(BLUE), "BLUE");
  EXPECT_EQ(Color_MIN, BLUE);
  EXPECT_EQ(Color_MAX, GREEN);
  Color c;
  EXPECT_TRUE(Color_Parse("GREEN", &c));
  EXPECT_EQ(c, GREEN);

  Scalars s;
  s.set_default_(3);  // a C++ keyword as a field name
  EXPECT_EQ(s.default_(), 3);

  // Copies are deep, moves keep the content.
  Outer copy = o;
  copy.mutable_inners(0)->set_label("changed");
  EXPECT_EQ(o.inners(0).label(), "a");
  Outer moved = std::move(copy);
  EXPECT_EQ(moved.inners(0).label(), "changed");
  moved.Clear();
  EXPECT_EQ(moved.ByteSizeLong(), 0u);
}

TEST(CodecEncoding, MatchesProtobufBytes) {
  Scalars s;
  s.set_f_int32(-1);  // sign-extended: 10 bytes
  EXPECT_EQ(Hex(s.SerializeAsString()), "28ffffffffffffffffff01");
  s.Clear();
  s.set_f_sint32(-1);    // zigzag
  s.set_f_float(-0.0f);  // bitwise non-default: written
  s.set_f_fixed32(0x52494121);
  s.set_f_bool(true);
  // Fields come out in number order whatever the order they were set in.
  EXPECT_EQ(Hex(s.SerializeAsString()),
            "1500000080"
            "3d21414952"
            "4001"
            "880101");

  Repeateds r;
  r.add_r_int32(1);
  r.add_r_int32(-1);
  r.add_r_int32(300);
  EXPECT_EQ(Hex(r.SerializeAsString()),
            "2a0d"
            "01"
            "ffffffffffffffffff01"
            "ac02");  // packed

  Outer o;
  o.set_c_int32(0);   // a set oneof member is written even at its default
  o.mutable_inner();  // a present empty message is written
  EXPECT_EQ(Hex(o.SerializeAsString()),
            "0a00"
            "5000");
  o.Clear();
  o.set_high_number(1);
  EXPECT_EQ(Hex(o.SerializeAsString()), "f8ffffff0f01");

  std::string bytes = r.SerializeAsString();
  EXPECT_EQ(r.ByteSizeLong(), bytes.size());
  char small[4];
  EXPECT_FALSE(r.SerializeToArray(small, sizeof small));
  std::vector<char> fits(bytes.size());
  ASSERT_TRUE(r.SerializeToArray(fits.data(), static_cast<int>(fits.size())));
  EXPECT_EQ(std::string(fits.begin(), fits.end()), bytes);
}

// ---- parse semantics ----

TEST(CodecParse, UnknownFieldsAreSkipped) {
  const std::string known = Tag(5, 0) + Varint(9);
  const std::string unknown =
      Tag(100, 0) + Varint(1) + Tag(101, 1) + std::string(8, 'x') + Len(102, "abc") + Tag(103, 5) + std::string(4, 'y');
  Scalars s;
  ASSERT_TRUE(s.ParseFromString(unknown + known + unknown));
  EXPECT_EQ(s.f_int32(), 9);
  EXPECT_EQ(s.SerializeAsString(), known);  // unknown fields are not kept
}

TEST(CodecParse, UnpackedRepeatedScalarsAreAccepted) {
  Repeateds r;
  const std::string packed = Len(5, Varint(1) + Varint(2));
  ASSERT_TRUE(r.ParseFromString(Tag(5, 0) + Varint(7) + packed + Tag(5, 0) + Varint(8) + Tag(7, 5) +
                                std::string("\x01\0\0\0", 4)));
  EXPECT_EQ(std::vector<int32_t>(r.r_int32().begin(), r.r_int32().end()), (std::vector<int32_t>{7, 1, 2, 8}));
  EXPECT_EQ(r.r_fixed32(0), 1u);
}

TEST(CodecParse, LastScalarWinsAndMessagesMerge) {
  Outer o;
  ASSERT_TRUE(o.ParseFromString(Tag(3, 0) + Varint(1) + Tag(3, 0) + Varint(0) + Len(1, Len(1, "a")) +
                                Len(1, Tag(2, 0) + Varint(1))));
  EXPECT_EQ(o.mode(), Outer::MODE_NONE);
  EXPECT_EQ(o.inner().label(), "a");
  EXPECT_EQ(o.inner().mode(), Outer::MODE_FAST);

  // Oneof: a later member replaces an earlier one; the same message member merges.
  ASSERT_TRUE(o.ParseFromString(Tag(10, 0) + Varint(5) + Len(12, "s")));
  EXPECT_EQ(o.choice_case(), Outer::kCString);
  EXPECT_EQ(o.c_int32(), 0);
  ASSERT_TRUE(o.ParseFromString(Len(14, Len(1, "l")) + Len(14, Tag(2, 0) + Varint(1))));
  EXPECT_EQ(o.c_inner().label(), "l");
  EXPECT_EQ(o.c_inner().mode(), Outer::MODE_FAST);
  // Parse replaces what was there before.
  ASSERT_TRUE(o.ParseFromString(Tag(3, 0) + Varint(1)));
  EXPECT_EQ(o.choice_case(), Outer::CHOICE_NOT_SET);
}

TEST(CodecParse, OpenEnumsKeepUnknownValues) {
  Scalars s;
  ASSERT_TRUE(s.ParseFromString(Tag(14, 0) + Varint(77)));
  EXPECT_EQ(static_cast<int>(s.f_color()), 77);
  EXPECT_EQ(s.SerializeAsString(), Tag(14, 0) + Varint(77));
}

// ---- malformed input: every case returns false ----

TEST(CodecMalformed, TruncatedFieldsFail) {
  Outer o;
  o.mutable_inner()->set_label("deep");
  for (const std::string &full : {Len(9, "hello"), Tag(6, 1) + std::string(8, '\1'), Tag(4, 0) + Varint(1ull << 60),
                                  Tag(1, 1) + std::string(8, '\2'), Tag(7, 5) + std::string(4, '\3')}) {
    for (size_t cut = 1; cut < full.size(); ++cut) {
      EXPECT_FALSE(Parses<Scalars>(full.substr(0, cut))) << Hex(full.substr(0, cut));
    }
  }
  const std::string nested = o.SerializeAsString();
  for (size_t cut = 1; cut < nested.size(); ++cut) EXPECT_FALSE(Parses<Outer>(nested.substr(0, cut))) << cut;
  // A cut inside a packed run.
  EXPECT_FALSE(Parses<Repeateds>(Len(5, Varint(1)).substr(0, 2) + std::string("\x81", 1)));
  EXPECT_FALSE(Parses<Repeateds>(Len(7, std::string(6, '\0'))));  // fixed32 packed, 6 bytes
}

TEST(CodecMalformed, OverlongVarintsFail) {
  const std::string ten = std::string(9, '\xff') + '\x01';
  EXPECT_TRUE(Parses<Scalars>(Tag(4, 0) + ten));
  EXPECT_FALSE(Parses<Scalars>(Tag(4, 0) + std::string(10, '\xff') + '\x01'));  // 11 bytes
  EXPECT_FALSE(Parses<Scalars>(Tag(4, 0) + std::string(10, '\x80')));
  EXPECT_FALSE(Parses<Scalars>(std::string(11, '\x80')));                     // as a tag
  EXPECT_FALSE(Parses<Scalars>(Tag(9, 2) + std::string(11, '\xff')));         // as a length
  EXPECT_FALSE(Parses<Repeateds>(Len(5, std::string(11, '\xff') + '\x01')));  // inside a packed run
  EXPECT_FALSE(Parses<Scalars>(Varint(uint64_t{1} << 35 | 0)));               // tag beyond 32 bits
}

TEST(CodecMalformed, LengthsPastTheEndFail) {
  EXPECT_FALSE(Parses<Scalars>(Tag(9, 2) + Varint(4) + "abc"));
  EXPECT_FALSE(Parses<Scalars>(Tag(12, 2) + Varint(uint64_t{1} << 40) + "abc"));
  EXPECT_FALSE(Parses<Scalars>(Tag(12, 2) + Varint(uint64_t{1} << 63) + "abc"));
  EXPECT_FALSE(Parses<Outer>(Tag(1, 2) + Varint(10) + Len(1, "x")));
  EXPECT_FALSE(Parses<Scalars>(Tag(100, 2) + Varint(3) + "ab"));  // unknown field too
  // A nested length longer than its parent's.
  EXPECT_FALSE(Parses<Outer>(Len(1, Tag(1, 2) + Varint(5) + "ab") + "cdefgh"));
}

TEST(CodecMalformed, WireTypeMismatchesFail) {
  EXPECT_FALSE(Parses<Scalars>(Len(5, "x")));                          // int32 as bytes
  EXPECT_FALSE(Parses<Scalars>(Tag(9, 0) + Varint(1)));                // string as varint
  EXPECT_FALSE(Parses<Scalars>(Tag(7, 0) + Varint(1)));                // fixed32 as varint
  EXPECT_FALSE(Parses<Scalars>(Tag(6, 5) + std::string(4, '\0')));     // fixed64 as fixed32
  EXPECT_FALSE(Parses<Scalars>(Tag(1, 5) + std::string(4, '\0')));     // double as fixed32
  EXPECT_FALSE(Parses<Outer>(Tag(1, 0) + Varint(1)));                  // message as varint
  EXPECT_FALSE(Parses<Outer>(Tag(11, 0) + Varint(1)));                 // oneof float as varint
  EXPECT_FALSE(Parses<Repeateds>(Tag(5, 5) + std::string(4, '\0')));   // repeated int32 as fixed32
  EXPECT_FALSE(Parses<Repeateds>(Tag(9, 0) + Varint(1)));              // repeated string as varint
  EXPECT_FALSE(Parses<Repeateds>(Tag(19, 1) + std::string(8, '\0')));  // repeated message as fixed64
}

TEST(CodecMalformed, GroupsAndReservedWireTypesFail) {
  for (uint32_t wire : {3u, 4u, 6u, 7u}) {
    EXPECT_FALSE(Parses<Scalars>(Tag(100, wire))) << wire;            // unknown field
    EXPECT_FALSE(Parses<Scalars>(Tag(5, wire) + Varint(1))) << wire;  // known field
  }
  EXPECT_FALSE(Parses<Scalars>(Tag(100, 3) + Tag(100, 4)));  // an empty group
  EXPECT_FALSE(Parses<Scalars>(Tag(0, 0) + Varint(1)));      // field number 0
}

std::string NestedTree(int levels) {
  std::string body = Len(1, "leaf");
  for (int i = 0; i < levels; ++i) body = Len(i % 2 ? 2 : 3, body);
  return body;
}

TEST(CodecMalformed, NestingDeeperThan100Fails) {
  Tree t;
  EXPECT_TRUE(t.ParseFromString(NestedTree(100)));
  EXPECT_FALSE(t.ParseFromString(NestedTree(101)));
  EXPECT_FALSE(t.ParseFromString(NestedTree(1000)));  // refused at level 101, no deeper
  EXPECT_EQ(t.ByteSizeLong(), 0u);                    // a failed parse leaves the message cleared
}

TEST(CodecMalformed, InvalidUtf8InStringsFails) {
  const std::vector<std::string> bad = {
      std::string("\xC0\x80", 2),  // overlong NUL
      "\xC1\xBF",                  // overlong
      "\xE0\x80\xAF",              // overlong 3-byte
      "\xED\xA0\x80",              // surrogate
      "\xF4\x90\x80\x80",          // above U+10FFFF
      "\xF5\x80\x80\x80",          // invalid lead byte
      "\xE2\x82",                  // cut sequence
      "\x80",                      // lone continuation byte
      "ok\xFF",                    // never valid
  };
  for (const std::string &s : bad) {
    EXPECT_FALSE(Parses<Scalars>(Len(9, s))) << Hex(s);        // string
    EXPECT_FALSE(Parses<Repeateds>(Len(9, s))) << Hex(s);      // repeated string
    EXPECT_FALSE(Parses<Outer>(Len(12, s))) << Hex(s);         // oneof string
    EXPECT_FALSE(Parses<Outer>(Len(1, Len(1, s)))) << Hex(s);  // nested string
    EXPECT_TRUE(Parses<Scalars>(Len(12, s))) << Hex(s);        // bytes: anything
    EXPECT_TRUE(Parses<Outer>(Len(13, s))) << Hex(s);          // oneof bytes
  }
  for (const std::string &s : {std::string("\0", 1), std::string("\xC2\x80"), std::string("\xEF\xBF\xBF"),
                               std::string("\xF0\x90\x80\x80"), std::string("\xF4\x8F\xBF\xBF")}) {
    EXPECT_TRUE(Parses<Scalars>(Len(9, s))) << Hex(s);
  }
}

TEST(CodecMalformed, NegativeArraySizeFails) {
  Scalars s;
  EXPECT_FALSE(s.ParseFromArray("", -1));
  EXPECT_TRUE(s.ParseFromArray(nullptr, 0));
}

// Random bytes and random damage to valid messages: never a crash; whatever parses is a fixed
// point of serialize(parse(...)).
template <typename M>
void FuzzOne(const std::string &input) {
  M m;
  if (!m.ParseFromString(input)) return;
  const std::string once = m.SerializeAsString();
  M again;
  ASSERT_TRUE(again.ParseFromString(once)) << Hex(input);
  EXPECT_EQ(again.SerializeAsString(), once) << Hex(input);
}

TEST(CodecMalformed, RandomInputNeverCrashes) {
  std::mt19937_64 rng = SeededRng("RandomInputNeverCrashes");
  auto byte = [&] { return static_cast<char>(rng() & 0xFF); };
  Outer seed_msg;
  seed_msg.mutable_inner()->set_label("label");
  seed_msg.add_inners()->set_mode(Outer::MODE_FAST);
  seed_msg.mutable_scalars()->set_f_string("str");
  seed_msg.mutable_scalars()->set_f_double(1.5);
  for (int i = 0; i < 5; ++i) seed_msg.mutable_repeateds()->add_r_sint64(-i);
  seed_msg.mutable_imported()->add_values(1);
  seed_msg.set_c_string("c");
  const std::string valid = seed_msg.SerializeAsString();
  ge::twin::air::Model air;
  air.set_magic("ge.twin.air");
  auto *node = air.mutable_graph()->add_nodes();
  node->set_name("n");
  auto *attr = node->add_attrs()->mutable_value()->mutable_list_list_i();
  attr->add_values()->add_values(3);
  const std::string valid_air = air.SerializeAsString();
  for (int iter = 0; iter < 20000; ++iter) {
    std::string input;
    switch (rng() % 4) {
      case 0:
        input.resize(rng() % 64);
        for (char &c : input) c = byte();
        break;
      case 1:
      case 2: {
        input = (iter % 2) ? valid : valid_air;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits && !input.empty(); ++e) input[rng() % input.size()] = byte();
        break;
      }
      default: {
        const std::string &base = (iter % 2) ? valid : valid_air;
        input = base.substr(0, rng() % base.size());
        input.insert(input.begin() + static_cast<long>(rng() % (input.size() + 1)), byte());
        break;
      }
    }
    FuzzOne<Outer>(input);
    FuzzOne<Repeateds>(input);
    FuzzOne<Tree>(input);
    FuzzOne<ge::twin::air::Model>(input);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace twin_proto::test
