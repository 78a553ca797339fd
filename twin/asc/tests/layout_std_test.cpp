// AscendC::Std's tuple and utility (tuple, get, forward, tuple_size, Int, is_tuple) and the basic
// API's layouts (MakeShape / MakeStride / MakeLayout / MakeCoord, Crd2Idx) as kernels use them to
// compute GM offsets (CANN's matmul_l2cache sample): random shapes and strides, the seed printed,
// each offset against the sum of coordinate x stride written out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <type_traits>

#include "kernel_operator.h"
#include "launch_harness.h"

using namespace AscendC;

namespace {

template <size_t I, typename T>
constexpr decltype(auto) Pick(T&& t) {
  return Std::get<I>(Std::forward<T>(t));
}

static_assert(Std::tuple_size_v<Std::tuple<int64_t, int64_t, int64_t>> == 3, "tuple_size");
static_assert(std::is_same<Std::tuple_element<1, Std::tuple<int, float>>::type, float>::value, "tuple_element");
static_assert(Std::is_tuple_v<Coord<int, int>> && !Std::is_tuple_v<int>, "is_tuple");
static_assert(Std::Int<7>::value == 7 && std::is_same<Std::Int<7>::value_type, size_t>::value, "Int");
static_assert(MakeLayout(MakeShape(4, 5), MakeStride(5, 1))(MakeCoord(2, 3)) == 13, "a constexpr offset");

TEST(LayoutStd, TwoDimOffsetsAreCoordTimesStride) {
  std::mt19937_64 rng(asc_twin_test::Seed());
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t rows = 1 + rng() % 5000, cols = 1 + rng() % 5000, pad = rng() % 64;
    const bool columnMajor = rng() % 2;
    const int64_t s0 = columnMajor ? 1 : cols + pad, s1 = columnMajor ? rows + pad : 1;
    auto layout = MakeLayout(MakeShape(rows, cols), MakeStride(s0, s1));
    const int64_t r = rng() % rows, c = rng() % cols;
    Coord<int64_t, int64_t> at = MakeCoord(r, c);
    EXPECT_EQ(layout(at), r * s0 + c * s1) << "shape " << rows << "x" << cols << " coord " << r << "," << c;
    EXPECT_EQ(layout.GetSize(), rows * cols);
    EXPECT_EQ(Pick<0>(layout.GetShape()), rows);
    EXPECT_EQ(Pick<1>(layout.GetStride()), s1);
  }
}

TEST(LayoutStd, NestedCoordinatesSumEachLevel) {
  std::mt19937_64 rng(asc_twin_test::Seed() + 1);
  for (int trial = 0; trial < 100; ++trial) {
    // ((inner rows, outer rows), cols): a row index split in two, as a fractal layout does
    const int64_t inner = 16, outer = 1 + rng() % 40, cols = 1 + rng() % 300;
    auto shape = MakeShape(MakeShape(inner, outer), cols);
    auto stride = MakeStride(MakeStride(int64_t(16), int64_t(16) * cols), int64_t(1));
    const int64_t ri = rng() % inner, ro = rng() % outer, c = rng() % cols;
    const auto coord = MakeCoord(MakeCoord(ri, ro), c);
    EXPECT_EQ(Crd2Idx(coord, shape, stride), ri * 16 + ro * 16 * cols + c);
    EXPECT_EQ(MakeLayout(shape, stride).GetSize(), inner * outer * cols);
  }
}

TEST(LayoutStd, ForwardKeepsValueCategory) {
  Std::tuple<int64_t, int64_t, int64_t> t{1, 2, 3};
  static_assert(std::is_same<decltype(Pick<1>(t)), int64_t&>::value, "an lvalue tuple gives an lvalue");
  static_assert(std::is_same<decltype(Pick<1>(std::move(t))), int64_t&&>::value, "an rvalue gives an rvalue");
  Pick<2>(t) = 9;
  EXPECT_EQ(Std::get<2>(t), 9);
}

}  // namespace
