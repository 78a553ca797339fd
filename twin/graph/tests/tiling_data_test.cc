// register/tilingdata_base.h (libregister.so): field layout against the C struct a kernel reads,
// random values round-tripping through SaveToBuffer, views over serialized bytes, the factory.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "register/tilingdata_base.h"
#include "test_support.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TwinInnerTiling)
TILING_DATA_FIELD_DEF(uint16_t, x);
TILING_DATA_FIELD_DEF(uint32_t, y);
TILING_DATA_FIELD_DEF_ARR(int8_t, 3, z);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(TwinOuterTiling)
TILING_DATA_FIELD_DEF(uint8_t, a);
TILING_DATA_FIELD_DEF(int32_t, b);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, arr);
TILING_DATA_FIELD_DEF(int64_t, c);
TILING_DATA_FIELD_DEF(float, d);
TILING_DATA_FIELD_DEF(int8_t, e);
TILING_DATA_FIELD_DEF_STRUCT(TwinInnerTiling, inner);
TILING_DATA_FIELD_DEF(uint64_t, f);
TILING_DATA_FIELD_DEF(int16_t, g);
TILING_DATA_FIELD_DEF_ARR(float, 2, h);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TwinTilingTestOp, TwinOuterTiling)
}  // namespace optiling

namespace {
// The same fields as a plain C struct: natural alignment is the tiling layout rule, so the
// compiler's offsets are the hand-computed ones (checked literally below).
struct InnerC {
  uint16_t x;
  uint32_t y;
  int8_t z[3];
};
struct OuterC {
  uint8_t a;
  int32_t b;
  uint16_t arr[3];
  int64_t c;
  float d;
  int8_t e;
  InnerC inner;
  uint64_t f;
  int16_t g;
  float h[2];
};

template <typename T>
T Random(std::mt19937_64 &rng) {
  T v;
  uint64_t bits = rng();
  std::memcpy(&v, &bits, sizeof(T));
  return v;
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

TEST(TilingData, LayoutMatchesTheCStruct) {
  // Hand-computed: a@0 b@4 arr@8 c@16 d@24 e@28 inner@32 (x@32 y@36 z@40, 11 bytes) f@48 g@56 h@60.
  EXPECT_EQ(offsetof(OuterC, b), 4u);
  EXPECT_EQ(offsetof(OuterC, inner), 32u);
  EXPECT_EQ(offsetof(OuterC, f), 48u);
  EXPECT_EQ(offsetof(OuterC, h), 60u);
  optiling::TwinInnerTiling inner;
  EXPECT_EQ(inner.GetDataSize(), offsetof(InnerC, z) + 3);  // no tail padding
  optiling::TwinOuterTiling outer;
  EXPECT_EQ(outer.GetDataSize(), offsetof(OuterC, h) + 2 * sizeof(float));
  EXPECT_STREQ(outer.GetTilingClassName(), "TwinOuterTiling");

  // Fields and placeholders, in order: walking them reproduces the C offsets.
  std::vector<std::string> names;
  size_t offset = 0;
  std::vector<std::pair<std::string, size_t>> offsets;
  for (const auto &info : outer.GetFieldInfo()) {
    std::string dtype = info.dtype_.GetString();
    std::string cls = info.classType_.GetString();
    size_t size = 0;
    if (cls == "2") {
      size = info.structSize_;
    } else {
      size_t element = dtype == "uint8_t" || dtype == "int8_t"     ? 1
                       : dtype == "uint16_t" || dtype == "int16_t" ? 2
                       : dtype == "uint64_t" || dtype == "int64_t" ? 8
                                                                   : 4;
      size = element * (cls == "1" ? info.arrSize_ : 1);
    }
    offsets.emplace_back(info.name_.GetString(), offset);
    names.emplace_back(info.name_.GetString());
    offset += size;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "bPH", "b", "arr", "cPH", "c", "d", "e", "innerPH", "inner", "fPH",
                                             "f", "g", "hPH", "h"}));
  EXPECT_EQ(offset, outer.GetDataSize());
  auto at = [&](const std::string &name) {
    for (const auto &entry : offsets) {
      if (entry.first == name) return entry.second;
    }
    return static_cast<size_t>(-1);
  };
  EXPECT_EQ(at("b"), offsetof(OuterC, b));
  EXPECT_EQ(at("arr"), offsetof(OuterC, arr));
  EXPECT_EQ(at("c"), offsetof(OuterC, c));
  EXPECT_EQ(at("d"), offsetof(OuterC, d));
  EXPECT_EQ(at("e"), offsetof(OuterC, e));
  EXPECT_EQ(at("inner"), offsetof(OuterC, inner));
  EXPECT_EQ(at("f"), offsetof(OuterC, f));
  EXPECT_EQ(at("g"), offsetof(OuterC, g));
  EXPECT_EQ(at("h"), offsetof(OuterC, h));
}

TEST(TilingData, RandomValuesRoundTripThroughSaveToBuffer) {
  auto rng = ge_twin_test::SeededRng("TilingData.RoundTrip");
  for (int round = 0; round < 200; ++round) {
    OuterC expected;
    std::memset(&expected, 0, sizeof(expected));
    expected.a = Random<uint8_t>(rng);
    expected.b = Random<int32_t>(rng);
    for (auto &v : expected.arr) v = Random<uint16_t>(rng);
    expected.c = Random<int64_t>(rng);
    expected.d = static_cast<float>(static_cast<int32_t>(rng())) / 7.0f;
    expected.e = Random<int8_t>(rng);
    expected.inner.x = Random<uint16_t>(rng);
    expected.inner.y = Random<uint32_t>(rng);
    for (auto &v : expected.inner.z) v = Random<int8_t>(rng);
    expected.f = Random<uint64_t>(rng);
    expected.g = Random<int16_t>(rng);
    for (auto &v : expected.h) v = static_cast<float>(static_cast<int32_t>(rng())) / 3.0f;

    optiling::TwinOuterTiling tiling;
    // Set in a random order: each setter writes only its own bytes.
    std::vector<int> order = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    std::shuffle(order.begin(), order.end(), rng);
    for (int which : order) {
      switch (which) {
        case 0:
          tiling.set_a(expected.a);
          break;
        case 1:
          tiling.set_b(expected.b);
          break;
        case 2:
          tiling.set_arr(expected.arr);
          break;
        case 3:
          tiling.set_c(expected.c);
          break;
        case 4:
          tiling.set_d(expected.d);
          break;
        case 5:
          tiling.set_e(expected.e);
          break;
        case 6:
          tiling.inner.set_x(expected.inner.x);
          break;
        case 7:
          tiling.inner.set_y(expected.inner.y);
          break;
        case 8:
          tiling.inner.set_z(expected.inner.z);
          break;
        case 9:
          tiling.set_f(expected.f);
          break;
        case 10:
          tiling.set_g(expected.g);
          break;
        default:
          tiling.set_h(expected.h);
          break;
      }
    }
    std::vector<uint8_t> buffer(tiling.GetDataSize() + 16, 0xAB);
    tiling.SaveToBuffer(buffer.data(), buffer.size());
    EXPECT_EQ(buffer[tiling.GetDataSize()], 0xAB) << "wrote past GetDataSize()";

    // What the kernel sees: the bytes reinterpreted as the C struct.
    OuterC got;
    std::memset(&got, 0, sizeof(got));
    std::memcpy(&got, buffer.data(), tiling.GetDataSize());
    ASSERT_EQ(got.a, expected.a);
    ASSERT_EQ(got.b, expected.b);
    ASSERT_EQ(0, std::memcmp(got.arr, expected.arr, sizeof(got.arr)));
    ASSERT_EQ(got.c, expected.c);
    ASSERT_EQ(got.d, expected.d);
    ASSERT_EQ(got.e, expected.e);
    ASSERT_EQ(got.inner.x, expected.inner.x);
    ASSERT_EQ(got.inner.y, expected.inner.y);
    ASSERT_EQ(0, std::memcmp(got.inner.z, expected.inner.z, sizeof(got.inner.z)));
    ASSERT_EQ(got.f, expected.f);
    ASSERT_EQ(got.g, expected.g);
    ASSERT_EQ(0, std::memcmp(got.h, expected.h, sizeof(got.h)));  // NOLINT(bugprone-suspicious-memory-comparison): bits
    // Placeholders stay zero.
    ASSERT_EQ(buffer[1], 0);
    ASSERT_EQ(buffer[29], 0);

    // Getters, on the object and on a view of the saved bytes.
    optiling::TwinOuterTiling view(buffer.data());
    for (const optiling::TwinOuterTiling *t : {&tiling, &view}) {
      ASSERT_EQ(t->get_b(), expected.b);
      ASSERT_EQ(t->get_c(), expected.c);
      ASSERT_EQ(t->inner.get_y(), expected.inner.y);
      ASSERT_EQ(t->get_f(), expected.f);
    }
    ASSERT_EQ(view.get_arr()[2], expected.arr[2]);
    ASSERT_EQ(view.inner.get_z()[1], expected.inner.z[1]);
    view.set_g(static_cast<int16_t>(expected.g + 1));  // a view writes through to the bytes
    int16_t g_bytes;
    std::memcpy(&g_bytes, buffer.data() + offsetof(OuterC, g), sizeof(g_bytes));
    ASSERT_EQ(g_bytes, static_cast<int16_t>(expected.g + 1));
  }
}

TEST(TilingData, TooSmallBufferWritesNothingAndSaysWhy) {
  optiling::TwinOuterTiling tiling;
  tiling.set_a(7);
  std::vector<uint8_t> buffer(tiling.GetDataSize() - 1, 0xCD);
  CaptureLog();
  tiling.SaveToBuffer(buffer.data(), buffer.size());
  tiling.SaveToBuffer(nullptr, 1024);
  std::string log = CapturedLog();
  for (uint8_t b : buffer) ASSERT_EQ(b, 0xCD);
  EXPECT_NE(log.find("TilingDef::SaveToBuffer of tiling data 'TwinOuterTiling': the buffer holds " +
                     std::to_string(buffer.size()) + " bytes, the data is " + std::to_string(tiling.GetDataSize()) +
                     " bytes; nothing was written"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("the buffer holds nothing (null)"), std::string::npos) << log;

  CaptureLog();
  tiling.SetDataPtr(nullptr);  // refused: the object keeps its own bytes
  log = CapturedLog();
  EXPECT_NE(log.find("TilingDef::SetDataPtr of tiling data 'TwinOuterTiling': the pointer is null"), std::string::npos)
      << log;
  EXPECT_EQ(tiling.get_a(), 7);
}

TEST(TilingData, FactoryCreatesRegisteredClasses) {
  auto &factory = optiling::CTilingDataClassFactory::GetInstance();
  std::shared_ptr<optiling::TilingDef> made = factory.CreateTilingDataInstance("TwinTilingTestOp");
  ASSERT_NE(made, nullptr);
  EXPECT_STREQ(made->GetTilingClassName(), "TwinOuterTiling");
  EXPECT_EQ(made->GetDataSize(), optiling::TwinOuterTiling().GetDataSize());
  CaptureLog();
  EXPECT_EQ(factory.CreateTilingDataInstance("NoSuchTilingOp"), nullptr);
  std::string log = CapturedLog();
  EXPECT_NE(log.find("no tiling data class is registered for op type 'NoSuchTilingOp'"), std::string::npos) << log;
}
