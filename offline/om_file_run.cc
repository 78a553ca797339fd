// om_file_run MODEL.om IN_0.bin ... IN_n.bin -- OUT_0.bin ... OUT_m.bin: runs an offline model
// with the ACL model API on inputs read from files and writes its outputs to files, so a test can
// make the data and check the result with numpy while the model runs in a process with no Python
// (it links only libascendcl.so). Each input file must hold exactly the model's input size
// (aclmdlGetInputSizeByIndex); each output is written to a temporary file and renamed, so a
// failed run leaves no half-written output. Prints "OM_FILE_RUN=PASS <model>" on success.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

namespace {

constexpr int32_t kDeviceId = 0;

bool AclOk(aclError code, const char *function) {
  if (code == ACL_SUCCESS) return true;
  const char *recent = aclGetRecentErrMsg();
  std::fprintf(stderr, "om_file_run: %s failed, error code %d: %s\n", function, static_cast<int>(code),
               (recent != nullptr && recent[0] != '\0') ? recent : "(no message)");
  return false;
}

bool ReadFile(const std::string &path, std::vector<char> *data) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "om_file_run: cannot read input file '%s'\n", path.c_str());
    return false;
  }
  data->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

bool WriteFile(const std::string &path, const std::vector<char> &data) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out.write(data.data(), static_cast<std::streamsize>(data.size())) || !out.flush()) {
      std::fprintf(stderr, "om_file_run: cannot write output file '%s'\n", path.c_str());
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::fprintf(stderr, "om_file_run: cannot rename '%s' to '%s'\n", tmp.c_str(), path.c_str());
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

// Device memory and datasets of one run, released in CANN's order whatever happened.
struct Run {
  uint32_t model_id = 0;
  bool loaded = false;
  aclmdlDesc *desc = nullptr;
  std::vector<void *> device;
  aclmdlDataset *datasets[2] = {nullptr, nullptr};  // inputs, outputs

  ~Run() {
    for (aclmdlDataset *dataset : datasets) {
      if (dataset == nullptr) continue;
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(dataset); ++i) {
        (void)aclDestroyDataBuffer(aclmdlGetDatasetBuffer(dataset, i));
      }
      (void)aclmdlDestroyDataset(dataset);
    }
    for (void *mem : device) (void)aclrtFree(mem);
    if (desc != nullptr) (void)aclmdlDestroyDesc(desc);
    if (loaded) (void)aclmdlUnload(model_id);
  }

  void *Add(int which, size_t size) {
    void *mem = nullptr;
    if (!AclOk(aclrtMalloc(&mem, size, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc")) return nullptr;
    device.push_back(mem);
    aclDataBuffer *buffer = aclCreateDataBuffer(mem, size);
    if (buffer == nullptr || !AclOk(aclmdlAddDatasetBuffer(datasets[which], buffer), "aclmdlAddDatasetBuffer")) {
      if (buffer != nullptr) (void)aclDestroyDataBuffer(buffer);
      return nullptr;
    }
    return mem;
  }
};

bool Execute(const char *model, const std::vector<std::string> &inputs, const std::vector<std::string> &outputs) {
  Run run;
  if (!AclOk(aclmdlLoadFromFile(model, &run.model_id), "aclmdlLoadFromFile")) return false;
  run.loaded = true;
  run.desc = aclmdlCreateDesc();
  if (run.desc == nullptr || !AclOk(aclmdlGetDesc(run.desc, run.model_id), "aclmdlGetDesc")) return false;
  if (aclmdlGetNumInputs(run.desc) != inputs.size() || aclmdlGetNumOutputs(run.desc) != outputs.size()) {
    std::fprintf(stderr, "om_file_run: model '%s' has %zu inputs and %zu outputs, %zu and %zu files were given\n",
                 model, aclmdlGetNumInputs(run.desc), aclmdlGetNumOutputs(run.desc), inputs.size(), outputs.size());
    return false;
  }
  run.datasets[0] = aclmdlCreateDataset();
  run.datasets[1] = aclmdlCreateDataset();
  if (run.datasets[0] == nullptr || run.datasets[1] == nullptr) return false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<char> data;
    if (!ReadFile(inputs[i], &data)) return false;
    const size_t size = aclmdlGetInputSizeByIndex(run.desc, i);
    if (data.size() != size) {
      std::fprintf(stderr, "om_file_run: input %zu file '%s' holds %zu bytes, the model's input %zu is %zu bytes\n", i,
                   inputs[i].c_str(), data.size(), i, size);
      return false;
    }
    void *mem = run.Add(0, size);
    if (mem == nullptr ||
        !AclOk(aclrtMemcpy(mem, size, data.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy(H2D)")) {
      return false;
    }
  }
  std::vector<void *> out_mem;
  for (size_t i = 0; i < outputs.size(); ++i) {
    out_mem.push_back(run.Add(1, aclmdlGetOutputSizeByIndex(run.desc, i)));
    if (out_mem.back() == nullptr) return false;
  }
  if (!AclOk(aclmdlExecute(run.model_id, run.datasets[0], run.datasets[1]), "aclmdlExecute")) return false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    std::vector<char> data(aclmdlGetOutputSizeByIndex(run.desc, i));
    if (!AclOk(aclrtMemcpy(data.data(), data.size(), out_mem[i], data.size(), ACL_MEMCPY_DEVICE_TO_HOST),
               "aclrtMemcpy(D2H)") ||
        !WriteFile(outputs[i], data)) {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> inputs, outputs;
  bool after_separator = false;
  for (int i = 2; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0 && !after_separator) {
      after_separator = true;
    } else {
      (after_separator ? outputs : inputs).emplace_back(argv[i]);
    }
  }
  if (argc < 2 || !after_separator || outputs.empty()) {
    std::fprintf(stderr, "usage: om_file_run MODEL.om IN_0.bin ... -- OUT_0.bin ...\n");
    return 2;
  }
  if (!AclOk(aclInit(nullptr), "aclInit")) return 1;
  bool ok = AclOk(aclrtSetDevice(kDeviceId), "aclrtSetDevice");
  if (ok) {
    ok = Execute(argv[1], inputs, outputs);
    ok &= AclOk(aclrtResetDevice(kDeviceId), "aclrtResetDevice");
  }
  ok &= AclOk(aclFinalize(), "aclFinalize");
  if (ok) std::printf("OM_FILE_RUN=PASS %s\n", argv[1]);
  return ok ? 0 : 1;
}
