// The three-backend graph offline: loads the OM atc built with --input_shape_range (a model
// that runs through Python: AddNScaledCustom's execute and MulHostCustom's host kernel run at
// run time) once, and runs it for several sizes with the ACL model API only — no Python code of
// its own. Each run gives the input shapes with aclmdlSetDatasetTensorDesc, lets the runtime
// allocate the outputs (buffers given as (nullptr, 0)), reads their shapes back with
// aclmdlGetDatasetTensorDesc and compares e, b, d with a host reference:
//     a = x1 + x2;  b = ((a + x3) + x1) * scale;  d = b * x2;  e = d + x3
// A size outside the model's range must be refused. Links libascendcl.so (-lascendcl) only.
//
// Usage: three_ops_exec [--static_om=<v1.om>] <model.om> <scale> <seed> <size>...
//   scale        the AddNScaledCustom attribute the graph was built with (offline_case.py: 0.5)
//   --static_om  first loads a static OM and reports whether that loaded libpython (it must not)
//   !<size>      a size outside the model's range: the run must fail with
//                ACL_ERROR_MODEL_INPUT_NOT_MATCH
//   --bench=K    (after --static_om) also times K runs per size of a shape seen before and, in the
//                same process, the host reference and the loads; prints a table with ratios
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

namespace {

constexpr int32_t kDevice = 0;
constexpr int kInputs = 3;
constexpr int kOutputs = 3;  // e, b, d
const char *const kOutputNames[kOutputs] = {"e", "b", "d"};

bool Ok(aclError code, const char *what) {
  if (code == ACL_SUCCESS) return true;
  std::printf("three_ops_exec: %s failed, error code %d: %s\n", what, static_cast<int>(code), aclGetRecentErrMsg());
  std::fflush(stdout);
  return false;
}

bool LibpythonLoaded() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("libpython") != std::string::npos) return true;
  }
  return false;
}

// The host reference, one float operation per statement (as the kernels and numpy compute).
void Reference(const std::vector<float> *x, float scale, std::vector<float> *out) {
  const size_t n = x[0].size();
  for (int k = 0; k < kOutputs; ++k) out[k].resize(n);
  for (size_t i = 0; i < n; ++i) {
    const float a = x[0][i] + x[1][i];
    const float sum = (a + x[2][i]) + x[0][i];
    const float b = sum * scale;
    const float d = b * x[1][i];
    const float e = d + x[2][i];
    out[0][i] = e;
    out[1][i] = b;
    out[2][i] = d;
  }
}

void Describe(uint32_t model_id) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  if (!Ok(aclmdlGetDesc(desc, model_id), "aclmdlGetDesc")) return;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    aclmdlIODims dims;
    aclmdlIODimsRange range;
    if (!Ok(aclmdlGetInputDims(desc, i, &dims), "aclmdlGetInputDims") ||
        !Ok(aclmdlGetInputDimsRange(desc, i, &range), "aclmdlGetInputDimsRange")) {
      break;
    }
    std::printf("input %zu %s dims=[%lld] range=[%lld,%lld] size=%zu\n", i, dims.name,
                static_cast<long long>(dims.dims[0]), static_cast<long long>(range.range[0][0]),
                static_cast<long long>(range.range[0][1]), aclmdlGetInputSizeByIndex(desc, i));
  }
  for (size_t j = 0; j < aclmdlGetNumOutputs(desc); ++j) {
    std::printf("output %zu %s size=%zu\n", j, aclmdlGetOutputNameByIndex(desc, j),
                aclmdlGetOutputSizeByIndex(desc, j));
  }
  aclmdlDestroyDesc(desc);
}

// One run at `n` elements; returns 1 when every output equals the reference, 0 when not, -1 on
// an ACL failure (whose code is left in *code).
int RunOnce(uint32_t model_id, size_t n, float scale, std::mt19937 *rng, aclError *code) {
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  std::vector<float> x[kInputs];
  std::vector<void *> device;
  aclmdlDataset *inputs = aclmdlCreateDataset();
  aclmdlDataset *outputs = aclmdlCreateDataset();
  std::vector<aclDataBuffer *> buffers;
  int result = -1;
  *code = ACL_SUCCESS;
  const int64_t dims[1] = {static_cast<int64_t>(n)};
  aclTensorDesc *shape = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  do {
    bool ok = true;
    for (int k = 0; k < kInputs && ok; ++k) {
      x[k].resize(n);
      for (float &v : x[k]) v = values(*rng);
      void *ptr = nullptr;
      ok = Ok(*code = aclrtMalloc(&ptr, n * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc") &&
           Ok(*code = aclrtMemcpy(ptr, n * sizeof(float), x[k].data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
              "aclrtMemcpy");
      if (ptr != nullptr) device.push_back(ptr);
      buffers.push_back(aclCreateDataBuffer(ptr, n * sizeof(float)));
      ok = ok && Ok(*code = aclmdlAddDatasetBuffer(inputs, buffers.back()), "aclmdlAddDatasetBuffer") &&
           Ok(*code = aclmdlSetDatasetTensorDesc(inputs, shape, k), "aclmdlSetDatasetTensorDesc");
    }
    for (int j = 0; j < kOutputs && ok; ++j) {
      buffers.push_back(aclCreateDataBuffer(nullptr, 0));  // the runtime allocates it
      ok = Ok(*code = aclmdlAddDatasetBuffer(outputs, buffers.back()), "aclmdlAddDatasetBuffer");
    }
    if (!ok) break;
    *code = aclmdlExecute(model_id, inputs, outputs);
    if (*code != ACL_SUCCESS) break;
    std::vector<float> want[kOutputs];
    Reference(x, scale, want);
    result = 1;
    for (int j = 0; j < kOutputs; ++j) {
      aclDataBuffer *buffer = aclmdlGetDatasetBuffer(outputs, j);
      void *ptr = aclGetDataBufferAddr(buffer);
      device.push_back(ptr);  // runtime-allocated: the caller frees it
      const aclTensorDesc *got_desc = aclmdlGetDatasetTensorDesc(outputs, j);
      int64_t dim = -1;
      if (got_desc == nullptr || aclGetTensorDescNumDims(got_desc) != 1 ||
          aclGetTensorDescDimV2(got_desc, 0, &dim) != ACL_SUCCESS || dim != static_cast<int64_t>(n) ||
          aclGetTensorDescSize(got_desc) != n * sizeof(float) || aclGetDataBufferSizeV2(buffer) < n * sizeof(float)) {
        std::printf("size %zu output %s: shape %lld, expected [%zu]\n", n, kOutputNames[j], static_cast<long long>(dim),
                    n);
        result = 0;
        continue;
      }
      std::vector<float> got(n);
      *code = aclrtMemcpy(got.data(), n * sizeof(float), ptr, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
      if (!Ok(*code, "aclrtMemcpy")) {
        result = -1;
        break;
      }
      if (std::memcmp(got.data(), want[j].data(), n * sizeof(float)) != 0) {
        size_t at = 0;
        while (got[at] == want[j][at]) ++at;
        std::printf("size %zu output %s: MISMATCH at %zu: %.9g != %.9g\n", n, kOutputNames[j], at, got[at],
                    want[j][at]);
        result = 0;
      }
    }
  } while (false);
  for (aclDataBuffer *buffer : buffers) aclDestroyDataBuffer(buffer);
  aclmdlDestroyDataset(inputs);
  aclmdlDestroyDataset(outputs);
  aclDestroyTensorDesc(shape);
  for (void *ptr : device) aclrtFree(ptr);
  return result;
}

double NowUs() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median microseconds of `repeat` aclmdlExecute runs at `n` (a shape the model has seen: inputs
// and runtime-allocated outputs made once) and of the host reference on the same data.
bool Bench(uint32_t model_id, size_t n, float scale, int repeat, std::mt19937 *rng, double *model_us, double *host_us) {
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  std::vector<float> x[kInputs];
  std::vector<void *> device;
  aclmdlDataset *inputs = aclmdlCreateDataset(), *outputs = aclmdlCreateDataset();
  const int64_t dims[1] = {static_cast<int64_t>(n)};
  aclTensorDesc *shape = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  bool ok = true;
  for (int k = 0; k < kInputs && ok; ++k) {
    x[k].resize(n);
    for (float &v : x[k]) v = values(*rng);
    void *ptr = nullptr;
    ok = Ok(aclrtMalloc(&ptr, n * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc") &&
         Ok(aclrtMemcpy(ptr, n * sizeof(float), x[k].data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
            "aclrtMemcpy") &&
         Ok(aclmdlAddDatasetBuffer(inputs, aclCreateDataBuffer(ptr, n * sizeof(float))), "aclmdlAddDatasetBuffer") &&
         Ok(aclmdlSetDatasetTensorDesc(inputs, shape, k), "aclmdlSetDatasetTensorDesc");
    device.push_back(ptr);
  }
  for (int j = 0; j < kOutputs && ok; ++j) {
    ok = Ok(aclmdlAddDatasetBuffer(outputs, aclCreateDataBuffer(nullptr, 0)), "aclmdlAddDatasetBuffer");
  }
  std::vector<double> model_times, host_times;
  std::vector<float> want[kOutputs];
  for (int r = 0; ok && r <= repeat; ++r) {  // run 0 allocates the outputs; not timed
    const double start = NowUs();
    ok = Ok(aclmdlExecute(model_id, inputs, outputs), "aclmdlExecute");
    if (r > 0) model_times.push_back(NowUs() - start);
    const double host_start = NowUs();
    Reference(x, scale, want);
    if (r > 0) host_times.push_back(NowUs() - host_start);
  }
  for (int j = 0; j < kOutputs; ++j) device.push_back(aclGetDataBufferAddr(aclmdlGetDatasetBuffer(outputs, j)));
  for (aclmdlDataset *set : {inputs, outputs}) {
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
    aclmdlDestroyDataset(set);
  }
  aclDestroyTensorDesc(shape);
  for (void *ptr : device) aclrtFree(ptr);
  if (!ok) return false;
  *model_us = Median(model_times);
  *host_us = Median(host_times);
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::string static_om;
  int first = 1, bench = 0;
  if (argc > first && std::strncmp(argv[first], "--static_om=", 12) == 0) static_om = argv[first++] + 12;
  if (argc > first && std::strncmp(argv[first], "--bench=", 8) == 0) bench = std::stoi(argv[first++] + 8);
  if (argc - first < 4) {
    std::fprintf(stderr, "usage: three_ops_exec [--static_om=<v1.om>] <model.om> <scale> <seed> [!]<size>...\n");
    return 2;
  }
  const char *model_path = argv[first];
  const float scale = std::stof(argv[first + 1]);
  const unsigned seed = static_cast<unsigned>(std::stoul(argv[first + 2]));
  std::printf("seed=%u scale=%g\n", seed, scale);
  std::mt19937 rng(seed);
  if (!Ok(aclInit(nullptr), "aclInit") || !Ok(aclrtSetDevice(kDevice), "aclrtSetDevice")) return 1;
  bool pass = true;
  double static_load_us = 0, dynamic_load_us = 0;
  if (!static_om.empty()) {
    uint32_t static_id = 0;
    const double start = NowUs();
    if (!Ok(aclmdlLoadFromFile(static_om.c_str(), &static_id), "aclmdlLoadFromFile (static)")) return 1;
    static_load_us = NowUs() - start;
    std::printf("STATIC_OM_LOADED libpython=%d\n", LibpythonLoaded() ? 1 : 0);
    pass &= !LibpythonLoaded();
    aclmdlUnload(static_id);
  }
  uint32_t model_id = 0;
  const double load_start = NowUs();
  if (!Ok(aclmdlLoadFromFile(model_path, &model_id), "aclmdlLoadFromFile")) return 1;
  dynamic_load_us = NowUs() - load_start;
  std::printf("DYNAMIC_OM_LOADED libpython=%d\n", LibpythonLoaded() ? 1 : 0);
  Describe(model_id);
  for (int i = first + 3; i < argc; ++i) {
    const bool out_of_range = argv[i][0] == '!';  // a size the model's range excludes
    const size_t n = std::stoul(argv[i] + (out_of_range ? 1 : 0));
    aclError code = ACL_SUCCESS;
    const int outcome = RunOnce(model_id, n, scale, &rng, &code);
    if (out_of_range) {
      const bool refused = outcome == -1 && code == ACL_ERROR_MODEL_INPUT_NOT_MATCH;
      std::printf("three_backends size %zu: %s code=%d: %s\n", n, refused ? "REFUSED as expected" : "NOT REFUSED",
                  static_cast<int>(code), aclGetRecentErrMsg());
      pass &= refused;
    } else if (outcome == 1) {
      std::printf("three_backends size %zu: e, b, d == reference\n", n);
    } else if (outcome == 0) {
      pass = false;
    } else {
      std::printf("three_backends size %zu: REFUSED code=%d: %s\n", n, static_cast<int>(code), aclGetRecentErrMsg());
      pass = false;
    }
    std::fflush(stdout);
  }
  if (bench > 0 && pass) {
    std::printf("\n| measurement | median | ratio |\n|---|---:|---:|\n");
    if (static_load_us > 0) {
      std::printf(
          "| aclmdlLoadFromFile: static OM (v1) / Python-run OM (v2, starts the interpreter) | %.0f us / %.0f us | "
          "%.0fx |\n",
          static_load_us, dynamic_load_us, dynamic_load_us / static_load_us);
    }
    for (int i = first + 3; i < argc; ++i) {
      if (argv[i][0] == '!') continue;
      const size_t n = std::stoul(argv[i]);
      double model_us = 0, host_us = 0;
      if (!Bench(model_id, n, scale, bench, &rng, &model_us, &host_us)) {
        pass = false;
        break;
      }
      std::printf(
          "| aclmdlExecute (seen shape, %d runs) / host C++ reference, %zu floats | %.0f us / %.0f us | %.1fx |\n",
          bench, n, model_us, host_us, model_us / host_us);
    }
  }
  pass &= Ok(aclmdlUnload(model_id), "aclmdlUnload");
  aclrtResetDevice(kDevice);
  aclFinalize();
  std::printf("PY_COMPILE_OFFLINE_DYNAMIC=%s\n", pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}
