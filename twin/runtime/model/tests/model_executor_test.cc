// The model executor end to end through the ACL C API: hand-built OMs with real kernels
// (tests/kernels/model_kernels.cc), random inputs vs a scalar reference, every refusal.
// Usage: model_executor_test <kernels_2201.so> <kernels_3510.so> <add_custom.o> [gtest flags]
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"
#include "twin/om/tests/binding_builders.h"

namespace {

std::string g_kernels_2201;
std::string g_kernels_3510;
std::string g_crafted_ctor, g_crafted_needed;  // images the loader must refuse (constructor, DT_NEEDED path)
std::string g_add_custom;                      // bisheng-built Ascend C add_custom(x, y, z, total_length, tile_num)

std::string ReadAll(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot read " << path;
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::string ErrMsg() {
  const char *text = aclGetRecentErrMsg();
  return text == nullptr ? std::string() : std::string(text);
}

#define ACL_OK(expr) ASSERT_EQ((expr), ACL_SUCCESS) << #expr << ": " << ErrMsg()

using asc_twin::om::Binding;
using asc_twin::om::KernelTask;
using asc_twin::om::ModelDef;
using asc_twin::om::testing::FeatureMapBinding;
using asc_twin::om::testing::InputBinding;
using asc_twin::om::testing::OutputBinding;
using asc_twin::om::testing::ScalarBinding;

uint64_t FloatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

ModelDef BaseModel(const std::string &soc = "Ascend910B1", uint32_t arch = 2201) {
  ModelDef model;
  model.set_format_version(asc_twin::om::kFormatVersion);
  model.set_name("chain");
  model.set_soc_version(soc);
  model.set_npu_arch(arch);
  return model;
}

void AddTensor(twin_proto::RepeatedPtrField<asc_twin::om::TensorDef> *tensors, const std::string &name, uint64_t n) {
  auto *t = tensors->Add();
  t->set_name(name);
  t->set_data_type(ACL_FLOAT);
  t->set_format(ACL_FORMAT_ND);
  t->add_dims(static_cast<int64_t>(n));
  t->set_size(n * sizeof(float));
}

KernelTask *AddKernel(ModelDef *model, const std::string &kernel, uint32_t blocks) {
  KernelTask *task = model->add_tasks()->mutable_kernel();
  task->set_node_name(kernel + "_" + std::to_string(model->tasks_size()));
  task->set_op_type("Custom");
  task->set_kernel_binary_index(0);
  task->set_kernel_name(kernel);
  task->set_block_dim(blocks);
  return task;
}

// out0 = alpha * (x + y) + x  (vadd into the feature map, then axpy); out1 = y (memcpy).
ModelDef ChainModel(uint64_t n, float alpha, uint32_t blocks) {
  ModelDef model = BaseModel();
  AddTensor(model.mutable_inputs(), "x", n);
  AddTensor(model.mutable_inputs(), "y", n);
  AddTensor(model.mutable_outputs(), "z", n);
  AddTensor(model.mutable_outputs(), "y_copy", n);
  const uint64_t bytes = n * sizeof(float);
  model.set_feature_map_size(bytes + 512);  // the sum lives at offset 512
  KernelTask *add = AddKernel(&model, "vadd_f32", blocks);
  *add->add_args() = InputBinding(0);
  *add->add_args() = InputBinding(1);
  *add->add_args() = FeatureMapBinding(512, bytes);
  *add->add_args() = ScalarBinding(n);
  KernelTask *axpy = AddKernel(&model, "axpy_f32", blocks);
  *axpy->add_args() = FeatureMapBinding(512, bytes);
  *axpy->add_args() = InputBinding(0);
  *axpy->add_args() = OutputBinding(0);
  *axpy->add_args() = ScalarBinding(FloatBits(alpha));
  *axpy->add_args() = ScalarBinding(n);
  auto *copy = model.add_tasks()->mutable_memcpy();
  *copy->mutable_src() = InputBinding(1);
  *copy->mutable_dst() = OutputBinding(1);
  copy->set_size(bytes);
  return model;
}

// Device buffers + datasets for one run; frees everything.
class Io {
 public:
  Io(const std::vector<size_t> &inputs, const std::vector<size_t> &outputs) {
    in_ = aclmdlCreateDataset();
    out_ = aclmdlCreateDataset();
    for (size_t size : inputs) Add(in_, size);
    for (size_t size : outputs) Add(out_, size);
  }
  ~Io() {
    for (aclmdlDataset *set : {in_, out_}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) {
        aclDataBuffer *buffer = aclmdlGetDatasetBuffer(set, i);
        if (aclGetDataBufferAddr(buffer) != nullptr) aclrtFree(aclGetDataBufferAddr(buffer));
        aclDestroyDataBuffer(buffer);
      }
      aclmdlDestroyDataset(set);
    }
  }
  void Put(size_t index, const std::vector<float> &host) {
    aclDataBuffer *buffer = aclmdlGetDatasetBuffer(in_, index);
    ASSERT_EQ(aclrtMemcpy(aclGetDataBufferAddr(buffer), aclGetDataBufferSizeV2(buffer), host.data(),
                          host.size() * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  std::vector<float> Get(size_t index, size_t n) {
    std::vector<float> host(n);
    aclDataBuffer *buffer = aclmdlGetDatasetBuffer(out_, index);
    EXPECT_EQ(aclrtMemcpy(host.data(), n * sizeof(float), aclGetDataBufferAddr(buffer), n * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return host;
  }
  aclmdlDataset *in() { return in_; }
  aclmdlDataset *out() { return out_; }

 private:
  static void Add(aclmdlDataset *set, size_t size) {
    void *device = nullptr;
    if (size > 0) {
      EXPECT_EQ(aclrtMalloc(&device, size, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
    }
    EXPECT_EQ(aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(device, size)), ACL_SUCCESS);
  }
  aclmdlDataset *in_;
  aclmdlDataset *out_;
};

class ModelExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const unsigned seed = std::random_device{}();
    std::printf("[seed] %u\n", seed);
    rng_.seed(seed);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << ErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << ErrMsg();
    kernels_ = ReadAll(g_kernels_2201);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << ErrMsg();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << ErrMsg();
  }

  std::vector<float> Random(size_t n) {
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    std::vector<float> v(n);
    for (float &x : v) x = dist(rng_);
    return v;
  }

  uint32_t Load(const std::string &om) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &id), ACL_SUCCESS) << ErrMsg();
    return id;
  }

  // Expects `code` and returns the error message.
  std::string LoadFails(const std::string &om, aclError code) {
    uint32_t id = 12345;
    EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &id), code);
    EXPECT_EQ(id, 12345u) << "no id is handed out on failure";
    std::string message = ErrMsg();
    std::printf("refused: %s\n", message.c_str());
    return message;
  }

  void RunChainAndCheck(uint32_t id, uint64_t n, float alpha) {
    Io io({n * 4, n * 4}, {n * 4, n * 4});
    const std::vector<float> x = Random(n), y = Random(n);
    io.Put(0, x);
    io.Put(1, y);
    ACL_OK(aclmdlExecute(id, io.in(), io.out()));
    const std::vector<float> z = io.Get(0, n), y_copy = io.Get(1, n);
    for (uint64_t i = 0; i < n; ++i) {
      const float sum = x[i] + y[i];
      ASSERT_FLOAT_EQ(z[i], alpha * sum + x[i]) << "z[" << i << "] of " << n;
      ASSERT_EQ(y_copy[i], y[i]) << "y_copy[" << i << "]";
    }
  }

  std::mt19937 rng_;
  std::string kernels_;
};

TEST_F(ModelExecutorTest, TwoTaskChainThroughFeatureMapMatchesReference) {
  for (int round = 0; round < 3; ++round) {
    const uint64_t n = 1 + rng_() % 200000;
    const uint32_t blocks = 1 + rng_() % 16;
    const float alpha = std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng_);
    std::printf("n=%llu blocks=%u alpha=%g\n", static_cast<unsigned long long>(n), blocks, alpha);
    const uint32_t id = Load(asc_twin::om::SerializeOm(ChainModel(n, alpha, blocks), {kernels_}));
    RunChainAndCheck(id, n, alpha);
    RunChainAndCheck(id, n, alpha);  // the precomputed blobs are reused with new addresses
    ACL_OK(aclmdlUnload(id));
  }
}

TEST_F(ModelExecutorTest, BishengAddCustomChainMatchesReference) {
  // Two launches of the real Ascend C add_custom: fm = x + y, then z = fm + x.
  const uint32_t blocks = 1 + rng_() % 8, tiles = 1 + rng_() % 4;
  const uint64_t n = uint64_t{blocks} * tiles * 2 * 8 * (1 + rng_() % 64);  // the kernel's split rule
  std::printf("n=%llu blocks=%u tile_num=%u\n", static_cast<unsigned long long>(n), blocks, tiles);
  ModelDef model = BaseModel();
  AddTensor(model.mutable_inputs(), "x", n);
  AddTensor(model.mutable_inputs(), "y", n);
  AddTensor(model.mutable_outputs(), "z", n);
  model.set_feature_map_size(n * 4);
  for (int step = 0; step < 2; ++step) {
    KernelTask *add = AddKernel(&model, "add_custom", blocks);
    *add->add_args() = step == 0 ? InputBinding(0) : FeatureMapBinding(0, n * 4);
    *add->add_args() = step == 0 ? InputBinding(1) : InputBinding(0);
    *add->add_args() = step == 0 ? FeatureMapBinding(0, n * 4) : OutputBinding(0);
    *add->add_args() = ScalarBinding(n);
    *add->add_args() = ScalarBinding(tiles);
  }
  const uint32_t id = Load(asc_twin::om::SerializeOm(model, {ReadAll(g_add_custom)}));
  Io io({n * 4, n * 4}, {n * 4});
  const std::vector<float> x = Random(n), y = Random(n);
  io.Put(0, x);
  io.Put(1, y);
  ACL_OK(aclmdlExecute(id, io.in(), io.out()));
  const std::vector<float> z = io.Get(0, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(z[i], (x[i] + y[i]) + x[i]) << "z[" << i << "]";
  ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelExecutorTest, LoadFromFileAndDescribe) {
  const uint64_t n = 1000 + rng_() % 1000;
  char path[] = "/tmp/model_executor_test_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string om = asc_twin::om::SerializeOm(ChainModel(n, 0.5f, 4), {kernels_});
  ASSERT_EQ(write(fd, om.data(), om.size()), static_cast<ssize_t>(om.size()));
  close(fd);
  uint32_t id = 0;
  ACL_OK(aclmdlLoadFromFile(path, &id));
  unlink(path);

  aclmdlDesc *desc = aclmdlCreateDesc();
  ACL_OK(aclmdlGetDesc(desc, id));
  EXPECT_EQ(aclmdlGetNumInputs(desc), 2u);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 2u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 1), n * 4);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), n * 4);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 2), 0u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc, 0), "x");
  EXPECT_STREQ(aclmdlGetOutputNameByIndex(desc, 1), "y_copy");
  aclmdlIODims dims;
  ACL_OK(aclmdlGetOutputDims(desc, 0, &dims));
  EXPECT_STREQ(dims.name, "z");
  ASSERT_EQ(dims.dimCount, 1u);
  EXPECT_EQ(dims.dims[0], static_cast<int64_t>(n));
  EXPECT_EQ(aclmdlGetInputDims(desc, 9, &dims), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(ErrMsg().find("index 9"), std::string::npos);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_FLOAT);
  EXPECT_EQ(aclmdlGetInputFormat(desc, 0), ACL_FORMAT_ND);
  size_t index = 0;
  ACL_OK(aclmdlGetOutputIndexByName(desc, "y_copy", &index));
  EXPECT_EQ(index, 1u);
  ACL_OK(aclmdlDestroyDesc(desc));
  RunChainAndCheck(id, n, 0.5f);
  ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelExecutorTest, WrongInputAndOutputDatasetsAreRefused) {
  const uint64_t n = 4096;
  const uint32_t id = Load(asc_twin::om::SerializeOm(ChainModel(n, 1.0f, 2), {kernels_}));
  {
    Io io({n * 4}, {n * 4, n * 4});
    EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    EXPECT_NE(ErrMsg().find("input dataset has 1 buffers but the model has 2 inputs"), std::string::npos);
  }
  {
    Io io({n * 4, n * 4 - 4}, {n * 4, n * 4});
    EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    const std::string message = ErrMsg();
    EXPECT_NE(message.find("input 1 (y) buffer holds 16380 bytes but the model needs 16384"), std::string::npos)
        << message;
  }
  {
    Io io({n * 4, n * 4}, {n * 4, n * 4, 64});
    EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    EXPECT_NE(ErrMsg().find("output dataset has 3 buffers"), std::string::npos);
  }
  {
    Io io({n * 4, n * 4}, {n * 4, 100});
    EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_MODEL_OUTPUT_NOT_MATCH);
    EXPECT_NE(ErrMsg().find("output 1 (y_copy)"), std::string::npos);
  }
  {
    // Host memory is not device memory: refused before any kernel runs.
    Io io({n * 4, n * 4}, {n * 4, n * 4});
    std::vector<float> host(n);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.in(), 0), host.data(), n * 4);
    EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_MODEL_INPUT_NOT_MATCH);
    EXPECT_NE(ErrMsg().find("not device memory"), std::string::npos);
    aclUpdateDataBuffer(aclmdlGetDatasetBuffer(io.in(), 0), nullptr, 0);
  }
  EXPECT_EQ(aclmdlExecute(id, nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  ErrMsg();
  ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelExecutorTest, EmptyOutputBufferIsAllocatedByTheRuntime) {
  const uint64_t n = 777;
  const uint32_t id = Load(asc_twin::om::SerializeOm(ChainModel(n, 3.0f, 3), {kernels_}));
  Io io({n * 4, n * 4}, {0, n * 4});  // output 0 is (nullptr, 0)
  const std::vector<float> x = Random(n), y = Random(n);
  io.Put(0, x);
  io.Put(1, y);
  ACL_OK(aclmdlExecute(id, io.in(), io.out()));
  aclDataBuffer *z_buffer = aclmdlGetDatasetBuffer(io.out(), 0);
  ASSERT_NE(aclGetDataBufferAddr(z_buffer), nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(z_buffer), n * 4);
  const std::vector<float> z = io.Get(0, n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(z[i], 3.0f * (x[i] + y[i]) + x[i]);
  ACL_OK(aclmdlUnload(id));
}

// A crafted OM whose kernel partition would run code at load (a constructor) or load a library
// by absolute path is refused with a parse error before any of its code runs (the constructor
// would abort the device process: the error would then be a device death, not this line).
TEST_F(ModelExecutorTest, CraftedKernelPartitionIsRefusedBeforeItsCodeRuns) {
  std::string message =
      LoadFails(asc_twin::om::SerializeOm(ChainModel(64, 1.0f, 1), {ReadAll(g_crafted_ctor)}), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(message.find("has constructors"), std::string::npos) << message;
  message =
      LoadFails(asc_twin::om::SerializeOm(ChainModel(64, 1.0f, 1), {ReadAll(g_crafted_needed)}), ACL_ERROR_PARSE_MODEL);
  EXPECT_NE(message.find("needs '/tmp/asc_twin_evil_library.so'"), std::string::npos) << message;
  RunChainAndCheck(Load(asc_twin::om::SerializeOm(ChainModel(4096, 1.0f, 2), {kernels_})), 4096, 1.0f);
}

TEST_F(ModelExecutorTest, ArchMismatchIsRefusedNamingBoth) {
  ModelDef model = ChainModel(64, 1.0f, 1);
  model.set_soc_version("Ascend950PR_9599");
  model.set_npu_arch(3510);
  const std::string message =
      LoadFails(asc_twin::om::SerializeOm(model, {ReadAll(g_kernels_3510)}), ACL_ERROR_RT_SOC_VERSION);
  EXPECT_NE(message.find("Ascend950PR_9599 (NpuArch 3510)"), std::string::npos) << message;
  EXPECT_NE(message.find("Ascend910B1 (NpuArch 2201)"), std::string::npos) << message;
  // A header that claims the device's arch around a kernel binary built for another arch.
  LoadFails(asc_twin::om::SerializeOm(ChainModel(64, 1.0f, 1), {ReadAll(g_kernels_3510)}), ACL_ERROR_RT_SOC_VERSION);
}

// A large file that is not an OM of its own size is refused from its 128-byte header: the
// rest is never read (a sparse 3 GiB file; the process's peak RSS stays far below it).
TEST_F(ModelExecutorTest, AHugeFileIsRefusedFromItsHeader) {
  const char *tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string om = asc_twin::om::SerializeOm(ChainModel(64, 1.0f, 1), {kernels_});
  struct Case {
    std::string name;
    std::string head;
    aclError code;
    const char *fragment;
  };
  const Case cases[] = {
      {"not_an_om.bin", std::string(256, 'x'), ACL_ERROR_PARSE_MODEL, "magic"},
      // a real OM's header, then 3 GiB where its few KiB should end
      {"grown.om", om, ACL_ERROR_MODEL_SIZE_INVALID, "unexpected bytes after the"},
  };
  for (const Case &c : cases) {
    const std::string path = dir + "/" + c.name;
    {
      std::ofstream out(path, std::ios::binary);
      out.write(c.head.data(), static_cast<std::streamsize>(c.head.size()));
    }
    ASSERT_EQ(truncate(path.c_str(), off_t{3} << 30), 0);
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), c.code) << c.name;
    const std::string message = ErrMsg();
    EXPECT_NE(message.find(c.fragment), std::string::npos) << message;
    unlink(path.c_str());
  }
  std::ifstream status("/proc/self/status");
  std::string line;
  long peak_kib = 0;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) peak_kib = std::strtol(line.c_str() + 6, nullptr, 10);
  }
  EXPECT_GT(peak_kib, 0);
  EXPECT_LT(peak_kib, 1L << 20) << "peak RSS " << peak_kib << " KiB: the file was read";  // < 1 GiB
}

TEST_F(ModelExecutorTest, SameArchOtherSocIsAccepted) {
  ModelDef model = ChainModel(300, 2.0f, 2);
  model.set_soc_version("Ascend910B3");  // NpuArch 2201, like the Ascend910B1 device
  const uint32_t id = Load(asc_twin::om::SerializeOm(model, {kernels_}));
  RunChainAndCheck(id, 300, 2.0f);
  ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelExecutorTest, BadFilesAndContainersAreRefused) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/dir/model.om", &id), ACL_ERROR_INVALID_FILE);
  const std::string message = ErrMsg();
  EXPECT_NE(message.find("'/nonexistent/dir/model.om' cannot be opened: No such file or directory"), std::string::npos)
      << message;
  std::string om = asc_twin::om::SerializeOm(ChainModel(64, 1.0f, 1), {kernels_});
  LoadFails(om.substr(0, om.size() / 2), ACL_ERROR_MODEL_SIZE_INVALID);
  std::string corrupt = om;
  corrupt[corrupt.size() - 100] ^= 0x20;
  EXPECT_NE(LoadFails(corrupt, ACL_ERROR_PARSE_MODEL).find("checksum"), std::string::npos);
  EXPECT_EQ(aclmdlLoadFromMem(nullptr, 10, &id), ACL_ERROR_INVALID_PARAM);
  ErrMsg();
}

TEST_F(ModelExecutorTest, UnknownKernelAndShortArgumentBlobAreRefusedAtLoad) {
  ModelDef unknown = ChainModel(64, 1.0f, 1);
  unknown.mutable_tasks(1)->mutable_kernel()->set_kernel_name("no_such_kernel");
  const std::string message = LoadFails(asc_twin::om::SerializeOm(unknown, {kernels_}), ACL_ERROR_RT_KERNEL_LOOKUP);
  EXPECT_NE(message.find("no_such_kernel"), std::string::npos);
  ModelDef short_args = ChainModel(64, 1.0f, 1);
  short_args.mutable_tasks(1)->mutable_kernel()->mutable_args()->RemoveLast();
  EXPECT_NE(LoadFails(asc_twin::om::SerializeOm(short_args, {kernels_}), ACL_ERROR_PARSE_MODEL).find("axpy_f32"),
            std::string::npos);
}

TEST_F(ModelExecutorTest, InvalidModelIds) {
  aclmdlDataset *set = aclmdlCreateDataset();
  EXPECT_EQ(aclmdlExecute(987654, set, set), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_NE(ErrMsg().find("model id 987654"), std::string::npos);
  EXPECT_EQ(aclmdlUnload(987654), ACL_ERROR_INVALID_MODEL_ID);
  aclmdlDesc *desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDesc(desc, 987654), ACL_ERROR_INVALID_MODEL_ID);
  const uint32_t id = Load(asc_twin::om::SerializeOm(ChainModel(16, 1.0f, 1), {kernels_}));
  ACL_OK(aclmdlUnload(id));
  EXPECT_EQ(aclmdlUnload(id), ACL_ERROR_INVALID_MODEL_ID);
  ErrMsg();
  aclmdlDestroyDesc(desc);
  aclmdlDestroyDataset(set);
}

TEST_F(ModelExecutorTest, KernelTrapNamesTheTask) {
  // The feature-map region handed to vadd is smaller than n floats: the kernel's GM check traps.
  const uint64_t n = 4096;
  ModelDef model = ChainModel(n, 1.0f, 2);
  model.set_feature_map_size(1024);
  *model.mutable_tasks(0)->mutable_kernel()->mutable_args(2) = FeatureMapBinding(0, 1024);
  *model.mutable_tasks(1)->mutable_kernel()->mutable_args(0) = FeatureMapBinding(0, 1024);
  const uint32_t id = Load(asc_twin::om::SerializeOm(model, {kernels_}));
  Io io({n * 4, n * 4}, {n * 4, n * 4});
  io.Put(0, Random(n));
  io.Put(1, Random(n));
  EXPECT_EQ(aclmdlExecute(id, io.in(), io.out()), ACL_ERROR_RT_AICORE_EXCEPTION);
  const std::string message = ErrMsg();
  EXPECT_NE(message.find("task 0 (kernel vadd_f32"), std::string::npos) << message;
  EXPECT_NE(message.find("GM access"), std::string::npos) << message;
  ACL_OK(aclmdlUnload(id));
}

TEST_F(ModelExecutorTest, ExecuteAsyncThenSynchronize) {
  const uint64_t n = 10000 + rng_() % 10000;
  const uint32_t id = Load(asc_twin::om::SerializeOm(ChainModel(n, -1.5f, 4), {kernels_}));
  aclrtStream stream = nullptr;
  ACL_OK(aclrtCreateStream(&stream));
  Io first({n * 4, n * 4}, {n * 4, n * 4});
  Io second({n * 4, n * 4}, {n * 4, n * 4});
  const std::vector<float> x1 = Random(n), y1 = Random(n), x2 = Random(n), y2 = Random(n);
  first.Put(0, x1);
  first.Put(1, y1);
  second.Put(0, x2);
  second.Put(1, y2);
  ACL_OK(aclmdlExecuteAsync(id, first.in(), first.out(), stream));
  ACL_OK(aclmdlExecuteAsync(id, second.in(), second.out(), stream));
  ACL_OK(aclmdlUnload(id));  // queued runs keep the model alive
  ACL_OK(aclrtSynchronizeStream(stream));
  const std::vector<float> z1 = first.Get(0, n), z2 = second.Get(0, n);
  for (uint64_t i = 0; i < n; ++i) {
    ASSERT_FLOAT_EQ(z1[i], -1.5f * (x1[i] + y1[i]) + x1[i]);
    ASSERT_FLOAT_EQ(z2[i], -1.5f * (x2[i] + y2[i]) + x2[i]);
  }
  ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(ModelExecutorTest, ModelsDoNotSurviveFinalizeOrDeviceReset) {
  const uint64_t n = 4096;
  const std::string om = asc_twin::om::SerializeOm(ChainModel(n, 1.0f, 2), {kernels_});
  const uint32_t before_reset = Load(om);
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclrtSetDevice(0));
  {
    Io io({n * 4, n * 4}, {n * 4, n * 4});
    EXPECT_EQ(aclmdlExecute(before_reset, io.in(), io.out()), ACL_ERROR_INVALID_MODEL_ID);
    const std::string message = ErrMsg();
    EXPECT_NE(message.find("aclrtResetDevice"), std::string::npos) << message;
  }
  ACL_OK(aclmdlUnload(before_reset));  // still unloadable; its memory is not freed twice

  const uint32_t before_finalize = Load(om);
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
  ACL_OK(aclInit(nullptr));
  ACL_OK(aclrtSetDevice(0));
  {
    Io io({n * 4, n * 4}, {n * 4, n * 4});
    EXPECT_EQ(aclmdlExecute(before_finalize, io.in(), io.out()), ACL_ERROR_INVALID_MODEL_ID);
    const std::string message = ErrMsg();
    EXPECT_NE(message.find("aclFinalize"), std::string::npos) << message;
  }
  // aclFinalize unloaded it (as on CANN): the unload says so once, then the id is unknown.
  EXPECT_EQ(aclmdlUnload(before_finalize), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_NE(ErrMsg().find("was loaded before aclFinalize, which unloaded it"), std::string::npos);
  EXPECT_EQ(aclmdlUnload(before_finalize), ACL_ERROR_INVALID_MODEL_ID);
  EXPECT_NE(ErrMsg().find("is not loaded"), std::string::npos);
  const uint32_t fresh = Load(om);
  RunChainAndCheck(fresh, n, 1.0f);
  ACL_OK(aclmdlUnload(fresh));
}

// After aclFinalize the model API initializes ACL again on first use (CANN's rule, no aclInit
// needed); without a device set the load is refused for that reason, not for initialization.
TEST_F(ModelExecutorTest, ApiInitializesOnFirstUse) {
  const std::string om = asc_twin::om::SerializeOm(ChainModel(16, 1.0f, 1), {kernels_});
  ACL_OK(aclrtResetDevice(0));
  ACL_OK(aclFinalize());
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &id), ACL_ERROR_RT_CONTEXT_NULL);  // no device set
  EXPECT_EQ(ErrMsg().find("aclInit"), std::string::npos);
  ACL_OK(aclInit(nullptr));  // the first explicit aclInit after an implicit initialization succeeds
  ACL_OK(aclrtSetDevice(0));
  ACL_OK(aclmdlLoadFromMem(om.data(), om.size(), &id));
  ACL_OK(aclmdlUnload(id));
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s KERNELS_2201.so KERNELS_3510.so ADD_CUSTOM.o CRAFTED_CTOR.so CRAFTED_NEEDED.so\n",
                 argv[0]);
    return 2;
  }
  g_kernels_2201 = argv[1];
  g_kernels_3510 = argv[2];
  g_add_custom = argv[3];
  g_crafted_ctor = argv[4];
  g_crafted_needed = argv[5];
  return RUN_ALL_TESTS();
}
