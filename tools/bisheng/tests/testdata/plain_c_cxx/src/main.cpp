#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "checksum.h"

// A host global with a constructor: plain C++, compiled without --npu-arch.
static const std::string kDefaultText = "ascend";
int main(int argc, char** argv) {
  std::string text = argc > 1 ? argv[1] : kDefaultText;
  std::vector<uint8_t> bytes(text.begin(), text.end());
  std::printf("checksum(%s) = %u\n", text.c_str(), static_cast<unsigned>(checksum(bytes.data(), bytes.size())));
  return 0;
}
