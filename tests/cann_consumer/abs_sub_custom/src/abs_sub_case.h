/* Test data shared by the C++ tools: random inputs and |x1 - x2| computed on the host. */
#ifndef ABS_SUB_CASE_H_
#define ABS_SUB_CASE_H_

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace abs_sub {
constexpr size_t kElements = 4 * 2048;

/* Random inputs from a printed seed, and |x1 - x2| computed on the host. */
struct Case {
  std::vector<float> x1, x2, expected;
};

inline Case MakeCase(uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Case c;
  for (size_t i = 0; i < kElements; ++i) {
    c.x1.push_back(normal(rng));
    c.x2.push_back(normal(rng));
    const float d = c.x1.back() - c.x2.back();
    c.expected.push_back(d < 0 ? -d : d);
  }
  return c;
}

inline size_t CountMismatches(const float *got, const std::vector<float> &expected) {
  size_t bad = 0;
  for (size_t i = 0; i < expected.size(); ++i) bad += got[i] != expected[i];
  return bad;
}
}  // namespace abs_sub

#endif  // ABS_SUB_CASE_H_
