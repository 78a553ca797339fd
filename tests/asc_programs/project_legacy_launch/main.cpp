// Host side: z = alpha * x + beta * y through ACLRT_LAUNCH_KERNEL(add_custom), the tiling struct
// passed by pointer as CANN's generated launchers take it; verifies and prints a result line.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

struct AddTiling {
  uint32_t perBlock;
  float alpha;
};

int main() {
  const uint32_t blocks = 4, per = 512, n = blocks * per;
  std::vector<float> x(n), y(n), z(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = 0.25f * static_cast<float>(i % 97);
    y[i] = 1.0f - 0.5f * static_cast<float>(i % 13);
  }
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  aclrtMalloc(&dx, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dz, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, n * sizeof(float), x.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dy, n * sizeof(float), y.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  AddTiling tiling{per, 3.0f};
  const uint32_t rc = ACLRT_LAUNCH_KERNEL(add_custom)(blocks, stream, dx, dy, dz, &tiling, 0.5f);
  const aclError sync = aclrtSynchronizeStream(stream);
  aclrtMemcpy(z.data(), n * sizeof(float), dz, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (std::fabs(z[i] - (3.0f * x[i] + 0.5f * y[i])) > 1e-5f) ++bad;
  }
  aclrtFree(dx);
  aclrtFree(dy);
  aclrtFree(dz);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("legacy_launch: rc=%u sync=%d mismatches=%u\n", rc, static_cast<int>(sync), bad);
  return (rc == 0 && sync == ACL_SUCCESS && bad == 0) ? 0 : 1;
}
