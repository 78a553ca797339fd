// Tiling of the test kernels: passed by value, like CANN kernel-launch samples.
#ifndef BISHENG_TEST_ADD_TILING_H_
#define BISHENG_TEST_ADD_TILING_H_
#include <cstdint>

struct AddTiling {
  uint32_t totalLength;
  uint32_t blockLength;
};

#endif  // BISHENG_TEST_ADD_TILING_H_
