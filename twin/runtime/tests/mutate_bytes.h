// One random mutation of a byte string, the kind the fuzz-style runs apply to kernel images:
// 1-8 edits, each a random byte, a bit flip, 8 bytes of 0xff, or a truncation.
#ifndef TWIN_RUNTIME_TESTS_MUTATE_BYTES_H_
#define TWIN_RUNTIME_TESTS_MUTATE_BYTES_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace asc_twin::rt::testing {

inline void MutateBytes(std::vector<uint8_t> *bytes, std::mt19937_64 &rng) {
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int e = 0; e < edits && !bytes->empty(); ++e) {
    std::vector<uint8_t> &b = *bytes;
    const size_t at = rng() % b.size();
    switch (rng() % 4) {
      case 0:
        b[at] = static_cast<uint8_t>(rng());
        break;  // random byte
      case 1:
        b[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;  // bit flip
      case 2:
        std::memset(&b[at], 0xff, std::min<size_t>(8, b.size() - at));
        break;
      default:
        b.resize(std::max<size_t>(1, at));
        break;  // truncate
    }
  }
}

}  // namespace asc_twin::rt::testing

#endif  // TWIN_RUNTIME_TESTS_MUTATE_BYTES_H_
