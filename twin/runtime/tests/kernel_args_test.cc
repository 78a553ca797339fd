// The argument-list launch API with bisheng-built kernels (tests/kernels/kernel_args.asc):
// tensors, scalars of three widths and placeholders built with aclrtKernelArgs*, launched with
// aclrtLaunchKernelWithConfig and checked against a host reference on random data; the launch
// configuration; and every misuse CANN rejects, each with its code and one line.
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "twin/runtime/tests/test_support.h"

namespace asc_twin::rt::testing {
namespace {

struct AxpbTiling {  // as in kernel_args.asc
  uint32_t tile_length;
  float beta;
};

constexpr uint32_t kUbBytes = 196608;  // Ascend910B1

class KernelArgs : public AclTest {
 protected:
  void SetUp() override {
    AclTest::SetUp();
    ACL_OK(aclrtBinaryLoadFromFile(KernelPath("kargs").c_str(), nullptr, &bin_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "axpb", &axpb_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "scalars", &scalars_));
    ACL_OK(aclrtBinaryGetFunction(bin_, "ub_take", &ub_take_));
    ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS) << TakeErrMsg();
    if (bin_ != nullptr) EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS) << TakeErrMsg();
    AclTest::TearDown();
  }

  aclrtParamHandle Append(aclrtArgsHandle args, const void *value, size_t size) {
    aclrtParamHandle param = nullptr;
    EXPECT_EQ(aclrtKernelArgsAppend(args, const_cast<void *>(value), size, &param), ACL_SUCCESS) << TakeErrMsg();
    return param;
  }
  template <typename T>
  aclrtParamHandle AppendValue(aclrtArgsHandle args, T value) {
    return Append(args, &value, sizeof(value));
  }
  // Appends a placeholder and fills its buffer with `bytes`.
  void AppendData(aclrtArgsHandle args, const void *bytes, size_t size) {
    aclrtParamHandle param = nullptr;
    ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &param), ACL_SUCCESS) << TakeErrMsg();
    void *buffer = nullptr;
    ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, param, size, &buffer), ACL_SUCCESS) << TakeErrMsg();
    std::memcpy(buffer, bytes, size);
  }

  // Builds axpb's six parameters; returns the alpha parameter's handle.
  aclrtParamHandle BuildAxpb(aclrtArgsHandle args, const DeviceAddOperands &ops, float alpha, uint32_t total,
                             const AxpbTiling &tiling) {
    AppendValue(args, ops.dx);
    AppendValue(args, ops.dy);
    AppendValue(args, ops.dz);
    aclrtParamHandle alpha_param = AppendValue(args, alpha);
    AppendValue(args, total);
    AppendData(args, &tiling, sizeof(tiling));
    return alpha_param;
  }

  void ExpectAxpb(const DeviceAddOperands &ops, float alpha, float beta) {
    std::vector<float> z(ops.x.size());
    ACL_OK(aclrtMemcpy(z.data(), ops.bytes, ops.dz, ops.bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < z.size(); ++i) {
      const float want = alpha * ops.x[i] + ops.y[i] + beta;
      ASSERT_NEAR(z[i], want, 1e-5f * (1.0f + std::fabs(want))) << "element " << i << " of " << z.size();
    }
  }

  aclrtBinHandle bin_ = nullptr;
  aclrtFuncHandle axpb_ = nullptr, scalars_ = nullptr, ub_take_ = nullptr;
  aclrtStream stream_ = nullptr;
};

// One message line that names the API.
void ExpectOneLine(const std::string &api, const std::string &needle) {
  const std::string msg = TakeErrMsg();
  EXPECT_EQ(msg.rfind(api + ": ", 0), 0u) << msg;
  EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

TEST_F(KernelArgs, TensorsScalarAndPlaceholderMatchReference) {
  std::uniform_real_distribution<float> scalar(-4.0f, 4.0f);
  for (uint32_t blocks : {1u, 4u, 8u}) {
    const AxpbTiling tiling{64u * (1 + static_cast<uint32_t>(Rng()() % 4)), scalar(Rng())};
    const uint32_t total = blocks * tiling.tile_length * (1 + static_cast<uint32_t>(Rng()() % 3));
    const float alpha = scalar(Rng());
    DeviceAddOperands ops;
    ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -100.0f, 100.0f));
    aclrtArgsHandle args = nullptr;
    ACL_OK(aclrtKernelArgsInit(axpb_, &args));
    BuildAxpb(args, ops, alpha, total, tiling);
    ACL_OK(aclrtKernelArgsFinalize(args));
    ACL_OK(aclrtLaunchKernelWithConfig(axpb_, blocks, stream_, nullptr, args, nullptr));
    ACL_OK(aclrtSynchronizeStream(stream_));
    ASSERT_NO_FATAL_FAILURE(ExpectAxpb(ops, alpha, tiling.beta)) << blocks << " blocks";
  }
}

TEST_F(KernelArgs, ScalarWidthsAndSecondPlaceholder) {
  const uint32_t n = 100 + static_cast<uint32_t>(Rng()() % 200);
  const int64_t a = static_cast<int64_t>(Rng()()) >> 8;  // wide: the upper 32 bits matter
  const int16_t b = static_cast<int16_t>(-1 - static_cast<int>(Rng()() % 30000));
  int64_t table[8];
  for (int64_t &t : table) t = static_cast<int64_t>(Rng()() % 1000000) - 500000;
  void *out = nullptr;
  ACL_OK(aclrtMalloc(&out, n * sizeof(int64_t), ACL_MEM_MALLOC_NORMAL_ONLY));
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(scalars_, &args));
  AppendValue(args, out);
  AppendValue(args, a);
  AppendValue(args, b);  // 2 bytes: the next parameter still starts on an 8-byte boundary
  aclrtParamHandle table_param = nullptr;
  ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &table_param));
  AppendValue(args, n);
  void *buffer = nullptr;
  ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, table_param, sizeof(table), &buffer));
  std::memcpy(buffer, table, sizeof(table));
  ACL_OK(aclrtKernelArgsFinalize(args));
  ACL_OK(aclrtLaunchKernelWithConfig(scalars_, 1, stream_, nullptr, args, nullptr));
  ACL_OK(aclrtSynchronizeStream(stream_));
  std::vector<int64_t> got(n);
  ACL_OK(aclrtMemcpy(got.data(), n * sizeof(int64_t), out, n * sizeof(int64_t), ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], a + int64_t{b} * i + table[i % 8]) << "element " << i;
  ACL_OK(aclrtFree(out));
}

// The arguments and the placeholder data are copied at launch: changing them afterwards (an
// update, a new buffer value) affects only the next launch.
TEST_F(KernelArgs, UpdateRefinalizeRelaunch) {
  const uint32_t blocks = 4;
  const AxpbTiling tiling{128, 0.25f};
  const uint32_t total = blocks * tiling.tile_length * 2;
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -10.0f, 10.0f));
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(axpb_, &args));
  aclrtParamHandle alpha_param = BuildAxpb(args, ops, 2.0f, total, tiling);
  ACL_OK(aclrtKernelArgsFinalize(args));
  ACL_OK(aclrtLaunchKernelWithConfig(axpb_, blocks, stream_, nullptr, args, nullptr));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_NO_FATAL_FAILURE(ExpectAxpb(ops, 2.0f, 0.25f));

  float alpha = -3.5f;
  ACL_OK(aclrtKernelArgsParaUpdate(args, alpha_param, &alpha, sizeof(alpha)));
  EXPECT_EQ(aclrtLaunchKernelWithConfig(axpb_, blocks, stream_, nullptr, args, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "finalize it again");
  ACL_OK(aclrtKernelArgsFinalize(args));
  ACL_OK(aclrtLaunchKernelWithConfig(axpb_, blocks, stream_, nullptr, args, nullptr));
  alpha = 100.0f;  // after the launch: not seen by it
  ACL_OK(aclrtKernelArgsParaUpdate(args, alpha_param, &alpha, sizeof(alpha)));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_NO_FATAL_FAILURE(ExpectAxpb(ops, -3.5f, 0.25f));
}

TEST_F(KernelArgs, InitByUserMemory) {
  size_t handle_bytes = 0, args_bytes = 0;
  ACL_OK(aclrtKernelArgsGetHandleMemSize(axpb_, &handle_bytes));
  const size_t user_args = 6 * 8 + sizeof(AxpbTiling);
  ACL_OK(aclrtKernelArgsGetMemSize(axpb_, user_args, &args_bytes));
  EXPECT_GE(args_bytes, user_args);
  std::vector<uint64_t> handle_mem((handle_bytes + 7) / 8), args_mem((args_bytes + 7) / 8);
  aclrtArgsHandle args = handle_mem.data();
  ACL_OK(aclrtKernelArgsInitByUserMem(axpb_, args, args_mem.data(), args_bytes));
  const uint32_t blocks = 2;
  const AxpbTiling tiling{64, -1.5f};
  const uint32_t total = blocks * tiling.tile_length * 3;
  DeviceAddOperands ops;
  ASSERT_NO_FATAL_FAILURE(ops.Upload(total, -50.0f, 50.0f));
  BuildAxpb(args, ops, 0.75f, total, tiling);
  ACL_OK(aclrtKernelArgsFinalize(args));
  // The parameters live in the caller's buffer.
  EXPECT_EQ(std::memcmp(args_mem.data(), &ops.dx, sizeof(void *)), 0);
  ACL_OK(aclrtLaunchKernelWithConfig(axpb_, blocks, stream_, nullptr, args, nullptr));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_NO_FATAL_FAILURE(ExpectAxpb(ops, 0.75f, -1.5f));
  // At most the kernel's own parameter count fits in a caller-memory list.
  aclrtParamHandle extra = nullptr;
  ACL_OK(aclrtKernelArgsInitByUserMem(axpb_, args, args_mem.data(), args_bytes));
  for (int i = 0; i < 6; ++i) AppendValue(args, uint64_t{0});
  uint64_t one = 1;
  EXPECT_EQ(aclrtKernelArgsAppend(args, &one, sizeof(one), &extra), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsAppend", "already holds 6 parameters");
}

TEST_F(KernelArgs, DynamicUbFromLaunchConfig) {
  uint64_t take[2] = {0, kUbBytes - 16384};
  aclrtLaunchKernelAttr attr{};
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
  attr.value.dynUBufSize = 32768;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ACL_OK(aclrtLaunchKernelV2(ub_take_, 2, take, sizeof(take), nullptr, stream_));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ACL_OK(aclrtLaunchKernelV2(ub_take_, 2, take, sizeof(take), &cfg, stream_));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  std::string msg = TakeErrMsg();
  EXPECT_EQ(msg.rfind("kernel ub_take block 0: ", 0), 0u) << msg;
  // The same through an argument list.
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(ub_take_, &args));
  AppendValue(args, uint64_t{0});
  AppendValue(args, static_cast<uint32_t>(take[1]));
  ACL_OK(aclrtKernelArgsFinalize(args));
  ACL_OK(aclrtLaunchKernelWithConfig(ub_take_, 2, stream_, nullptr, args, nullptr));
  ACL_OK(aclrtSynchronizeStream(stream_));
  ACL_OK(aclrtLaunchKernelWithConfig(ub_take_, 2, stream_, &cfg, args, nullptr));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_EXCEPTION);
  msg = TakeErrMsg();
  EXPECT_NE(msg.find("UB"), std::string::npos) << msg;
  // Hints without effect are accepted.
  aclrtLaunchKernelAttr hints[2] = {};
  hints[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  hints[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
  hints[1].value.timeout = 30;
  aclrtLaunchKernelCfg hinted{hints, 2};
  ACL_OK(aclrtLaunchKernelWithConfig(ub_take_, 2, stream_, &hinted, args, nullptr));
  ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(KernelArgs, LaunchConfigErrors) {
  uint64_t take[2] = {0, 4096};
  aclrtLaunchKernelCfg no_attrs{nullptr, 1};
  EXPECT_EQ(aclrtLaunchKernelV2(ub_take_, 1, take, sizeof(take), &no_attrs, stream_), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtLaunchKernelV2", "cfg->attrs is null");
  aclrtLaunchKernelAttr attr{};
  aclrtLaunchKernelCfg cfg{&attr, 1};
  attr.id = static_cast<aclrtLaunchKernelAttrId>(77);
  EXPECT_EQ(aclrtLaunchKernelV2(ub_take_, 1, take, sizeof(take), &cfg, stream_), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtLaunchKernelV2", "attribute id 77");
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET;
  attr.value.blockDimOffset = 3;
  EXPECT_EQ(aclrtLaunchKernelV2(ub_take_, 1, take, sizeof(take), &cfg, stream_), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ExpectOneLine("aclrtLaunchKernelV2", "BLOCKDIM_OFFSET");
  aclrtLaunchKernelAttr both[2] = {};
  both[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
  both[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
  aclrtLaunchKernelCfg two_timeouts{both, 2};
  EXPECT_EQ(aclrtLaunchKernelV2(ub_take_, 1, take, sizeof(take), &two_timeouts, stream_), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtLaunchKernelV2", "may not be given together");
  EXPECT_EQ(aclrtLaunchKernelV2(ub_take_, 1, take, 8, nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtLaunchKernelV2", "the kernel reads 16 bytes");
  ACL_OK(aclrtSynchronizeStream(stream_));
}

TEST_F(KernelArgs, OrderRulesAndOverflows) {
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(ub_take_, &args));
  AppendValue(args, uint64_t{0});
  aclrtParamHandle ph = nullptr;
  ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
  // A placeholder with no data cannot launch.
  ACL_OK(aclrtKernelArgsFinalize(args));
  EXPECT_EQ(aclrtLaunchKernelWithConfig(ub_take_, 1, stream_, nullptr, args, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "placeholder parameter 1 has no data");
  // Nothing may be added after finalize.
  uint64_t value = 7;
  aclrtParamHandle param = nullptr;
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), &param), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ExpectOneLine("aclrtKernelArgsAppend", "after aclrtKernelArgsFinalize");
  EXPECT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &param), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ExpectOneLine("aclrtKernelArgsAppendPlaceHolder", "after aclrtKernelArgsFinalize");
  void *buffer = nullptr;
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 16, &buffer), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ExpectOneLine("aclrtKernelArgsGetPlaceHolderBuffer", "after aclrtKernelArgsFinalize");

  // No parameter after the data area started; buffers only for placeholders; bounded by 64 KiB.
  ACL_OK(aclrtKernelArgsInit(ub_take_, &args));
  aclrtParamHandle first = AppendValue(args, uint64_t{0});
  ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, first, 16, &buffer), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsGetPlaceHolderBuffer", "not a placeholder");
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 64 * 1024, &buffer), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsGetPlaceHolderBuffer", "overflows the 65536-byte argument buffer");
  ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 16, &buffer));
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), &param), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  ExpectOneLine("aclrtKernelArgsAppend", "after aclrtKernelArgsGetPlaceHolderBuffer");
  // Updates: same size, not a placeholder.
  uint32_t small = 1;
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, first, &small, sizeof(small)), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsParaUpdate", "paramSize 4 differs from the 8 bytes");
  EXPECT_EQ(aclrtKernelArgsParaUpdate(args, ph, &value, sizeof(value)), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsParaUpdate", "is a placeholder");

  // A caller buffer too small for the next parameter.
  size_t handle_bytes = 0;
  ACL_OK(aclrtKernelArgsGetHandleMemSize(ub_take_, &handle_bytes));
  std::vector<uint64_t> handle_mem((handle_bytes + 7) / 8);
  uint64_t tiny[2] = {};
  ACL_OK(aclrtKernelArgsInitByUserMem(ub_take_, handle_mem.data(), tiny, 12));
  AppendValue(handle_mem.data(), uint64_t{0});
  EXPECT_EQ(aclrtKernelArgsAppend(handle_mem.data(), &value, sizeof(value), &param), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtKernelArgsAppend", "parameter of 8 bytes at offset 8 overflows the 12-byte argument buffer");
  ACL_OK(aclrtKernelArgsAppend(handle_mem.data(), &small, sizeof(small), &param));  // 4 bytes fit exactly
}

TEST_F(KernelArgs, BadHandlesAndArguments) {
  aclrtArgsHandle args = nullptr;
  ACL_OK(aclrtKernelArgsInit(axpb_, &args));
  uint64_t value = 0;
  aclrtParamHandle param = nullptr;
  int not_a_list = 0;
  EXPECT_EQ(aclrtKernelArgsAppend(&not_a_list, &value, sizeof(value), &param), ACL_ERROR_RT_INVALID_HANDLE);
  ExpectOneLine("aclrtKernelArgsAppend", "is not an argument list");
  EXPECT_EQ(aclrtKernelArgsFinalize(&not_a_list), ACL_ERROR_RT_INVALID_HANDLE);
  ExpectOneLine("aclrtKernelArgsFinalize", "is not an argument list");
  EXPECT_EQ(aclrtKernelArgsAppend(nullptr, &value, sizeof(value), &param), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtKernelArgsAppend", "argsHandle is null");
  EXPECT_EQ(aclrtKernelArgsAppend(args, nullptr, sizeof(value), &param), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtKernelArgsAppend", "param is null");
  EXPECT_EQ(aclrtKernelArgsAppend(args, &value, 0, &param), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtKernelArgsAppend", "paramSize must be > 0");
  EXPECT_EQ(aclrtKernelArgsInit(&not_a_list, &args), ACL_ERROR_RT_INVALID_HANDLE);
  ExpectOneLine("aclrtKernelArgsInit", "function handle");
  ACL_OK(aclrtKernelArgsInit(axpb_, &args));
  aclrtParamHandle ph = nullptr;
  ACL_OK(aclrtKernelArgsAppendPlaceHolder(args, &ph));
  void *buffer = nullptr;
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, &not_a_list, 8, &buffer), ACL_ERROR_RT_INVALID_HANDLE);
  ExpectOneLine("aclrtKernelArgsGetPlaceHolderBuffer", "is not a parameter of argsHandle");
  EXPECT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 0, &buffer), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtKernelArgsGetPlaceHolderBuffer", "dataSize must be > 0");

  // Launch: not finalized, reserve, wrong function, wrong shape, unloaded binary.
  EXPECT_EQ(aclrtLaunchKernelWithConfig(axpb_, 1, stream_, nullptr, args, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "is not finalized");
  ACL_OK(aclrtKernelArgsGetPlaceHolderBuffer(args, ph, 8, &buffer));
  ACL_OK(aclrtKernelArgsFinalize(args));
  EXPECT_EQ(aclrtLaunchKernelWithConfig(axpb_, 1, stream_, nullptr, args, &value), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "must be NULL");
  EXPECT_EQ(aclrtLaunchKernelWithConfig(scalars_, 1, stream_, nullptr, args, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "was built for function");
  EXPECT_EQ(aclrtLaunchKernelWithConfig(axpb_, 1, stream_, nullptr, args, nullptr), ACL_ERROR_INVALID_PARAM);
  ExpectOneLine("aclrtLaunchKernelWithConfig",
                "holds 1 parameters in 8 bytes, but kernel axpb takes 6 parameters in 48 bytes");
  ACL_OK(aclrtBinaryUnLoad(bin_));
  bin_ = nullptr;
  EXPECT_EQ(aclrtLaunchKernelWithConfig(axpb_, 1, stream_, nullptr, args, nullptr), ACL_ERROR_RT_INVALID_HANDLE);
  ExpectOneLine("aclrtLaunchKernelWithConfig", "is not live");
  ACL_OK(aclrtSynchronizeStream(stream_));
}

}  // namespace
}  // namespace asc_twin::rt::testing
