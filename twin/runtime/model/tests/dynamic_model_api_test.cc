// The ACL calls for models with dynamic shapes: aclTensorDesc, aclmdlSet/GetDatasetTensorDesc,
// aclmdlGetInputDimsRange; and the refusal of a model that runs through Python (OM version 2)
// by a program with the runtime linked in statically (the Python route needs libascendcl.so),
// which must not load libpython. Random dims, printed seed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/graph/proto/air.pb.h"
#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"
#include "twin/om/tests/binding_builders.h"

namespace {

std::string ErrMsg() {
  const char *text = aclGetRecentErrMsg();
  return text == nullptr ? std::string() : std::string(text);
}

#define ACL_OK(expr) ASSERT_EQ((expr), ACL_SUCCESS) << #expr << ": " << ErrMsg()

bool LibpythonLoaded() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("libpython") != std::string::npos) return true;
  }
  return false;
}

asc_twin::om::ModelDef CopyModel(int64_t n) {
  asc_twin::om::ModelDef model;
  model.set_format_version(asc_twin::om::kStaticFormatVersion);
  model.set_name("copy");
  model.set_soc_version("Ascend910B1");
  model.set_npu_arch(2201);
  for (auto *tensor : {model.add_inputs(), model.add_outputs()}) {
    tensor->set_name(tensor == &model.inputs(0) ? "x" : "y");
    tensor->set_data_type(ACL_FLOAT);
    tensor->add_dims(n);
    tensor->set_size(static_cast<uint64_t>(n) * 4);
    tensor->set_format(ACL_FORMAT_ND);
  }
  auto *copy = model.add_tasks()->mutable_memcpy();
  *copy->mutable_src() = asc_twin::om::testing::InputBinding(0);
  *copy->mutable_dst() = asc_twin::om::testing::OutputBinding(0);
  copy->set_size(static_cast<uint64_t>(n) * 4);
  return model;
}

// A model that runs through Python: x [-1] in [1, max] -> the graph -> one output.
std::string PythonModelOm(int64_t max) {
  asc_twin::om::ModelDef model;
  model.set_format_version(asc_twin::om::kPythonFormatVersion);
  model.set_name("dynamic");
  model.set_soc_version("Ascend910B1");
  model.set_npu_arch(2201);
  auto *x = model.add_inputs();
  x->set_name("x");
  x->add_dims(-1);
  auto *range = x->add_dim_ranges();
  range->set_min(1);
  range->set_max(max);
  model.add_outputs()->set_name("x:0");
  ge::twin::air::Model air;
  air.set_magic("ge.twin.air");
  air.set_format_version(1);
  air.set_end_marker(0x52494121u);
  air.mutable_graph()->add_input_nodes("x");
  air.mutable_graph()->add_outputs()->set_node("x");
  return asc_twin::om::SerializeOm(model, {}, "", air.SerializeAsString());
}

class DynamicModelApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const unsigned seed = std::random_device{}();
    std::printf("[seed] %u\n", seed);
    rng_.seed(seed);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << ErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << ErrMsg();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << ErrMsg();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << ErrMsg();
  }
  std::vector<int64_t> RandomDims() {
    std::vector<int64_t> dims(1 + rng_() % 5);
    for (int64_t &d : dims) d = 1 + rng_() % 64;
    return dims;
  }
  std::mt19937 rng_;
};

TEST_F(DynamicModelApiTest, TensorDescHoldsTypeFormatAndDims) {
  const std::vector<int64_t> dims = RandomDims();
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT16, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_NCHW);
  ASSERT_NE(desc, nullptr);
  size_t elements = 1;
  for (int64_t d : dims) elements *= static_cast<size_t>(d);
  EXPECT_EQ(aclGetTensorDescType(desc), ACL_FLOAT16);
  EXPECT_EQ(aclGetTensorDescFormat(desc), ACL_FORMAT_NCHW);
  EXPECT_EQ(aclGetTensorDescNumDims(desc), dims.size());
  EXPECT_EQ(aclGetTensorDescElementCount(desc), elements);
  EXPECT_EQ(aclGetTensorDescSize(desc), elements * 2);
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t dim = 0;
    ACL_OK(aclGetTensorDescDimV2(desc, k, &dim));
    EXPECT_EQ(dim, dims[k]);
    EXPECT_EQ(aclGetTensorDescDim(desc, k), dims[k]);  // CANN's deprecated form
  }
  EXPECT_EQ(aclGetTensorDescDim(desc, dims.size()), -1);
  EXPECT_EQ(aclGetTensorDescDim(nullptr, 0), -1);
  int64_t dim = 0;
  EXPECT_EQ(aclGetTensorDescDimV2(desc, dims.size(), &dim), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(ErrMsg().find("index " + std::to_string(dims.size()) + " is out of range"), std::string::npos);
  EXPECT_EQ(aclGetTensorDescDimV2(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetTensorDescDimV2(nullptr, 0, &dim), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, -1, dims.data(), ACL_FORMAT_ND), nullptr);
  EXPECT_EQ(aclCreateTensorDesc(ACL_FLOAT, 2, nullptr, ACL_FORMAT_ND), nullptr);
  const int64_t dynamic[2] = {-1, 4};
  aclTensorDesc *unknown = aclCreateTensorDesc(ACL_FLOAT, 2, dynamic, ACL_FORMAT_ND);
  EXPECT_EQ(aclGetTensorDescSize(unknown), 0u);  // a -1 dim has no size yet
  aclDestroyTensorDesc(unknown);
  aclDestroyTensorDesc(desc);
  aclDestroyTensorDesc(nullptr);  // no effect, as in CANN
}

TEST_F(DynamicModelApiTest, DatasetKeepsACopyOfEachTensorDesc) {
  aclmdlDataset *dataset = aclmdlCreateDataset();
  const std::vector<int64_t> dims = RandomDims();
  aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset, desc, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(ErrMsg().find("index 0 is out of range (the dataset has 0 buffers"), std::string::npos);
  aclDataBuffer *buffers[2] = {aclCreateDataBuffer(nullptr, 0), aclCreateDataBuffer(nullptr, 0)};
  for (aclDataBuffer *buffer : buffers) ACL_OK(aclmdlAddDatasetBuffer(dataset, buffer));
  ACL_OK(aclmdlSetDatasetTensorDesc(dataset, desc, 1));
  aclDestroyTensorDesc(desc);  // the dataset holds its own copy
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 0), nullptr);
  const aclTensorDesc *kept = aclmdlGetDatasetTensorDesc(dataset, 1);
  ASSERT_NE(kept, nullptr);
  ASSERT_EQ(aclGetTensorDescNumDims(kept), dims.size());
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t dim = 0;
    ACL_OK(aclGetTensorDescDimV2(kept, k, &dim));
    EXPECT_EQ(dim, dims[k]);
  }
  // Setting it again updates the same desc: a pointer from aclmdlGetDatasetTensorDesc stays valid.
  const std::vector<int64_t> other = RandomDims();
  aclTensorDesc *again = aclCreateTensorDesc(ACL_FLOAT16, static_cast<int>(other.size()), other.data(), ACL_FORMAT_ND);
  ACL_OK(aclmdlSetDatasetTensorDesc(dataset, again, 1));
  aclDestroyTensorDesc(again);
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 1), kept);
  ASSERT_EQ(aclGetTensorDescNumDims(kept), other.size());
  for (size_t k = 0; k < other.size(); ++k) {
    int64_t dim = 0;
    ACL_OK(aclGetTensorDescDimV2(kept, k, &dim));
    EXPECT_EQ(dim, other[k]);
  }
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(dataset, 2), nullptr);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(nullptr, desc, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(dataset, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(ErrMsg().find("tensorDesc is null"), std::string::npos);
  ACL_OK(aclmdlDestroyDataset(dataset));
  for (aclDataBuffer *buffer : buffers) ACL_OK(aclDestroyDataBuffer(buffer));
}

TEST_F(DynamicModelApiTest, StaticModelReportsEachDimAsItsOwnRange) {
  const int64_t n = 1 + rng_() % 4096;
  const std::string om = asc_twin::om::SerializeOm(CopyModel(n), {});
  uint32_t id = 0;
  ACL_OK(aclmdlLoadFromMem(om.data(), om.size(), &id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  ACL_OK(aclmdlGetDesc(desc, id));
  aclmdlIODimsRange range;
  ACL_OK(aclmdlGetInputDimsRange(desc, 0, &range));
  ASSERT_EQ(range.rangeCount, 1u);
  EXPECT_EQ(range.range[0][0], n);
  EXPECT_EQ(range.range[0][1], n);
  EXPECT_EQ(aclmdlGetInputDimsRange(desc, 1, &range), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(ErrMsg().find("index 1 is out of range"), std::string::npos);
  EXPECT_EQ(aclmdlGetInputDimsRange(desc, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDimsRange(nullptr, 0, &range), ACL_ERROR_INVALID_PARAM);
  ACL_OK(aclmdlDestroyDesc(desc));
  ACL_OK(aclmdlUnload(id));
  EXPECT_FALSE(LibpythonLoaded()) << "a static model loaded libpython";
}

TEST_F(DynamicModelApiTest, PythonModelNeedsTheSharedRuntime) {
  const std::string om = PythonModelOm(1 + rng_() % 100000);
  uint32_t id = 12345;
  EXPECT_EQ(aclmdlLoadFromMem(om.data(), om.size(), &id), ACL_ERROR_FEATURE_UNSUPPORTED);
  EXPECT_EQ(id, 12345u);
  const std::string message = ErrMsg();
  std::printf("refused: %s\n", message.c_str());
  EXPECT_NE(message.find("aclmdlLoadFromMem: model dynamic runs through Python, which needs the ACL runtime as the "
                         "shared library libascendcl.so (link with -lascendcl)"),
            std::string::npos);
  EXPECT_FALSE(LibpythonLoaded()) << "refused before any interpreter is looked for";
}

}  // namespace
