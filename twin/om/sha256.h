// A small SHA-256 (FIPS 180-4) for the OM container's checksums; no OpenSSL dependency.
#ifndef TWIN_OM_SHA256_H_
#define TWIN_OM_SHA256_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace asc_twin::om {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void Update(const void *data, size_t size);
  Sha256Digest Finish();  // the object must not be updated afterwards

  static Sha256Digest Of(const void *data, size_t size);

 private:
  void Compress(const uint8_t *block);

  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

std::string ToHex(const Sha256Digest &digest);

}  // namespace asc_twin::om

#endif  // TWIN_OM_SHA256_H_
