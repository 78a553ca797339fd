#include "twin/om/sha256.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace asc_twin::om {
namespace {

std::string HexOf(const std::string &text) { return ToHex(Sha256::Of(text.data(), text.size())); }

TEST(Sha256, KnownVectors) {  // FIPS 180-4 examples
  EXPECT_EQ(HexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(HexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(HexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(HexOf(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, IncrementalEqualsOneShotOnRandomSplits) {
  const unsigned seed = std::random_device{}();
  std::printf("seed=%u\n", seed);
  std::mt19937 rng(seed);
  for (int round = 0; round < 50; ++round) {
    std::string data(rng() % 500, '\0');
    for (char &c : data) c = static_cast<char>(rng());
    Sha256 hasher;
    size_t at = 0;
    while (at < data.size()) {
      const size_t take = std::min<size_t>(data.size() - at, rng() % 130);
      hasher.Update(data.data() + at, take);
      at += take;
    }
    EXPECT_EQ(ToHex(hasher.Finish()), HexOf(data)) << "length " << data.size();
  }
}

}  // namespace
}  // namespace asc_twin::om
