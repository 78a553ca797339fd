// Host program of project_fatbin: runs `scale` from the fatbin file through ACL's kernel API
// and `fill_index` through its generated launcher; prints one line with the mismatch counts.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_fill_index.h"

int main() {
  const uint32_t blocks = 4, perBlock = 256, n = blocks * perBlock;
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream;
  aclrtCreateStream(&stream);
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = 0.5f * i - 100.0f;
  void *dx, *dy, *dfill;
  aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dfill, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);

  aclrtBinHandle bin = nullptr;
  aclrtFuncHandle fn = nullptr;
  int load = aclrtBinaryLoadFromFile(FATBIN_PATH, nullptr, &bin);
  int get = load == 0 ? aclrtBinaryGetFunction(bin, "scale", &fn) : -1;
  // the ABI's argument blob: one 8-byte slot per parameter
  uint8_t args[32] = {0};
  const float factor = 3.0f;
  std::memcpy(args, &dx, 8);
  std::memcpy(args + 8, &dy, 8);
  std::memcpy(args + 16, &factor, 4);
  std::memcpy(args + 24, &perBlock, 4);
  int launch = get == 0 ? aclrtLaunchKernel(fn, blocks, args, sizeof(args), stream) : -1;
  uint32_t fill = ACLRT_LAUNCH_KERNEL(fill_index)(blocks, stream, dfill, perBlock);
  int sync = aclrtSynchronizeStream(stream);

  std::vector<float> y(n);
  std::vector<int32_t> f(n);
  aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  aclrtMemcpy(f.data(), n * 4, dfill, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  int bad_scale = 0, bad_fill = 0;
  for (uint32_t i = 0; i < n; ++i) {
    bad_scale += y[i] != x[i] * factor;
    bad_fill += f[i] != static_cast<int32_t>((i / perBlock) * 1000 + i % perBlock);
  }
  std::printf("load=%d get=%d launch=%d fill=%u sync=%d bad_scale=%d bad_fill=%d\n", load, get, launch, fill, sync,
              bad_scale, bad_fill);
  aclrtBinaryUnLoad(bin);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return bad_scale + bad_fill;
}
