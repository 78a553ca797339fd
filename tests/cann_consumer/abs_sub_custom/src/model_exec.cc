/* Offline step 3: load the OM with ACL and run it; no Python in this process. */
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "abs_sub_case.h"

#define CHECK_ACL(call)                                                                           \
  do {                                                                                            \
    const aclError ret_ = (call);                                                                 \
    if (ret_ != ACL_SUCCESS) {                                                                    \
      std::cerr << #call << " failed with " << ret_ << ": " << aclGetRecentErrMsg() << std::endl; \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

static int Run(const char *om_path, uint32_t seed) {
  const abs_sub::Case c = abs_sub::MakeCase(seed);
  uint32_t model_id = 0;
  CHECK_ACL(aclmdlLoadFromFile(om_path, &model_id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, model_id));
  const size_t bytes = c.expected.size() * sizeof(float);
  if (aclmdlGetNumInputs(desc) != 2 || aclmdlGetNumOutputs(desc) != 1 || aclmdlGetInputSizeByIndex(desc, 0) != bytes) {
    std::cerr << "the model's inputs/outputs are not those of AbsSubCustom [4, 2048]" << std::endl;
    return 1;
  }
  void *device[3] = {nullptr, nullptr, nullptr};
  for (void *&ptr : device) CHECK_ACL(aclrtMalloc(&ptr, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(device[0], bytes, c.x1.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(device[1], bytes, c.x2.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  aclmdlDataset *in = aclmdlCreateDataset();
  aclmdlDataset *out = aclmdlCreateDataset();
  for (int i = 0; i < 2; ++i) CHECK_ACL(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(device[i], bytes)));
  CHECK_ACL(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(device[2], bytes)));
  CHECK_ACL(aclmdlExecute(model_id, in, out));
  std::vector<float> got(c.expected.size());
  CHECK_ACL(aclrtMemcpy(got.data(), bytes, device[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (aclmdlDataset *set : {in, out}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
    aclmdlDestroyDataset(set);
  }
  for (void *ptr : device) aclrtFree(ptr);
  aclmdlDestroyDesc(desc);
  CHECK_ACL(aclmdlUnload(model_id));
  const size_t bad = abs_sub::CountMismatches(got.data(), c.expected);
  if (bad != 0) {
    std::cerr << bad << " elements differ from |x1 - x2|" << std::endl;
    return 1;
  }
  std::cout << "PY_COMPILE_OFFLINE_OM=PASS" << std::endl;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " MODEL.om" << std::endl;
    return 2;
  }
  const uint32_t seed = std::getenv("ABS_SUB_SEED") ? std::atoi(std::getenv("ABS_SUB_SEED")) : 11u;
  std::cout << "seed=" << seed << std::endl;
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  const int status = Run(argv[1], seed);
  aclrtResetDevice(0);
  aclFinalize();
  return status;
}
