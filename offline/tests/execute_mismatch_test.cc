// aclmdlExecute with datasets that do not match the model: too few / too many inputs, an input
// or output buffer smaller than the model needs. Each must fail with an ACL error code and a
// message from aclGetRecentErrMsg, and the model must still run correctly afterwards.
// The OM (x + y over N float32) comes from $OFFLINE_TEST_OM; the device SoC from the environment.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

namespace {

class ExecuteMismatchTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  static void TearDownTestSuite() {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }

  void SetUp() override {
    const char *om = std::getenv("OFFLINE_TEST_OM");
    ASSERT_NE(om, nullptr) << "OFFLINE_TEST_OM is not set";
    ASSERT_EQ(aclmdlLoadFromFile(om, &model_id_), ACL_SUCCESS) << aclGetRecentErrMsg();
    desc_ = aclmdlCreateDesc();
    ASSERT_NE(desc_, nullptr);
    ASSERT_EQ(aclmdlGetDesc(desc_, model_id_), ACL_SUCCESS);
    ASSERT_EQ(aclmdlGetNumInputs(desc_), 2u);
    ASSERT_EQ(aclmdlGetNumOutputs(desc_), 1u);
    bytes_ = aclmdlGetInputSizeByIndex(desc_, 0);
    ASSERT_GT(bytes_, 0u);
    ASSERT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), bytes_);
    ASSERT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), bytes_);
  }

  void TearDown() override {
    for (aclmdlDataset *dataset : datasets_) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) {
        EXPECT_EQ(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, i)), ACL_SUCCESS);
      }
      EXPECT_EQ(aclmdlDestroyDataset(dataset), ACL_SUCCESS);
    }
    for (void *mem : device_mem_) {
      EXPECT_EQ(aclrtFree(mem), ACL_SUCCESS);
    }
    if (desc_ != nullptr) {
      EXPECT_EQ(aclmdlDestroyDesc(desc_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclmdlUnload(model_id_), ACL_SUCCESS);
  }

  // A dataset of device buffers with the given byte sizes; returns their device pointers.
  aclmdlDataset *MakeDataset(const std::vector<size_t> &sizes, std::vector<void *> *mems = nullptr) {
    aclmdlDataset *dataset = aclmdlCreateDataset();
    EXPECT_NE(dataset, nullptr);
    datasets_.push_back(dataset);
    for (size_t size : sizes) {
      void *mem = nullptr;
      EXPECT_EQ(aclrtMalloc(&mem, size, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
      device_mem_.push_back(mem);
      EXPECT_EQ(aclmdlAddDatasetBuffer(dataset, aclCreateDataBuffer(mem, size)), ACL_SUCCESS);
      if (mems != nullptr) mems->push_back(mem);
    }
    return dataset;
  }

  // CANN's codes: ACL_ERROR_MODEL_INPUT_NOT_MATCH / ACL_ERROR_MODEL_OUTPUT_NOT_MATCH.
  void ExpectRefused(const std::vector<size_t> &in_sizes, const std::vector<size_t> &out_sizes, aclError expected) {
    aclmdlDataset *in = MakeDataset(in_sizes);
    aclmdlDataset *out = MakeDataset(out_sizes);
    const aclError code = aclmdlExecute(model_id_, in, out);
    const char *message = aclGetRecentErrMsg();
    std::printf("aclmdlExecute -> %d: %s\n", static_cast<int>(code), message ? message : "(null)");
    EXPECT_EQ(code, expected);
    ASSERT_NE(message, nullptr);
    EXPECT_GT(std::string(message).size(), 0u);
  }

  uint32_t model_id_ = 0;
  aclmdlDesc *desc_ = nullptr;
  size_t bytes_ = 0;
  std::vector<aclmdlDataset *> datasets_;
  std::vector<void *> device_mem_;
};

TEST_F(ExecuteMismatchTest, TooFewInputs) { ExpectRefused({bytes_}, {bytes_}, ACL_ERROR_MODEL_INPUT_NOT_MATCH); }

TEST_F(ExecuteMismatchTest, TooManyInputs) {
  ExpectRefused({bytes_, bytes_, bytes_}, {bytes_}, ACL_ERROR_MODEL_INPUT_NOT_MATCH);
}

TEST_F(ExecuteMismatchTest, InputBufferTooSmall) {
  ExpectRefused({bytes_, bytes_ - sizeof(float)}, {bytes_}, ACL_ERROR_MODEL_INPUT_NOT_MATCH);
}

TEST_F(ExecuteMismatchTest, OutputBufferTooSmall) {
  ExpectRefused({bytes_, bytes_}, {bytes_ / 2}, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
}

TEST_F(ExecuteMismatchTest, NoOutputs) { ExpectRefused({bytes_, bytes_}, {}, ACL_ERROR_MODEL_OUTPUT_NOT_MATCH); }

// The positive control: matching datasets on random data give x + y exactly.
TEST_F(ExecuteMismatchTest, MatchingDatasetsAddRandomData) {
  const uint32_t seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  const size_t n = bytes_ / sizeof(float);
  std::vector<float> x(n), y(n), z(n, 0.0f);
  for (size_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  std::vector<void *> in_mem, out_mem;
  aclmdlDataset *in = MakeDataset({bytes_, bytes_}, &in_mem);
  aclmdlDataset *out = MakeDataset({bytes_}, &out_mem);
  ASSERT_EQ(aclrtMemcpy(in_mem[0], bytes_, x.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(in_mem[1], bytes_, y.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclmdlExecute(model_id_, in, out), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(z.data(), bytes_, out_mem[0], bytes_, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += (z[i] != x[i] + y[i]);
  EXPECT_EQ(wrong, 0u) << "of " << n << " elements";
}

}  // namespace
