// The seed's offline runner: loads an OM with the ACL model API and runs it in CANN's canonical
// order (aclInit -> aclrtSetDevice -> aclmdlLoadFromFile -> desc -> inputs (malloc + H2D) ->
// datasets -> aclmdlExecute -> D2H -> check -> destroy -> unload -> reset -> finalize).
// Every input is filled with its index + 1 (x = 1, y = 2); every output element must be 3.
// Links only the ACL runtime (libascendcl.so): no Python in this process.
//
// Usage: model_exec [--pause_after_execute] [model.om]
//   --pause_after_execute  after a successful execute, print "MODEL_EXEC_PAUSED pid=<pid>" and
//                          wait for a line on stdin, so a test can inspect the live process.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <unistd.h>

#include "acl/acl.h"
#include "acl/acl_mdl.h"

namespace {

constexpr int32_t kDeviceId = 0;
constexpr float kExpected = 3.0f;  // 1 + 2

// Prints the failing function, its code and the runtime's recent messages; returns false on error.
// `call` is the call's source text; only the function name before '(' is printed.
bool AclOk(aclError code, const char *call) {
  if (code == ACL_SUCCESS) {
    return true;
  }
  const std::string function(call, std::strcspn(call, "("));
  const char *recent = aclGetRecentErrMsg();
  std::fprintf(stderr, "model_exec: %s failed, error code %d: %s\n", function.c_str(), static_cast<int>(code),
               (recent != nullptr && recent[0] != '\0') ? recent : "(no message)");
  return false;
}

#define ACL_CALL(expr) AclOk((expr), #expr)

// Everything the run allocates, released in CANN's order whatever happened before.
struct RunState {
  bool acl_initialized = false;
  bool device_set = false;
  bool model_loaded = false;
  uint32_t model_id = 0;
  aclmdlDesc *desc = nullptr;
  std::vector<void *> input_mem;
  std::vector<void *> output_mem;
  std::vector<size_t> output_sizes;
  aclmdlDataset *inputs = nullptr;
  aclmdlDataset *outputs = nullptr;

  // Returns false if any release step itself fails.
  bool Release() {
    bool ok = true;
    ok &= DestroyDataset(&inputs);
    ok &= DestroyDataset(&outputs);
    for (void *mem : input_mem) ok &= ACL_CALL(aclrtFree(mem));
    for (void *mem : output_mem) ok &= ACL_CALL(aclrtFree(mem));
    input_mem.clear();
    output_mem.clear();
    if (desc != nullptr) {
      ok &= ACL_CALL(aclmdlDestroyDesc(desc));
      desc = nullptr;
    }
    if (model_loaded) {
      ok &= ACL_CALL(aclmdlUnload(model_id));
      model_loaded = false;
    }
    if (device_set) {
      ok &= ACL_CALL(aclrtResetDevice(kDeviceId));
      device_set = false;
    }
    if (acl_initialized) {
      ok &= ACL_CALL(aclFinalize());
      acl_initialized = false;
    }
    return ok;
  }

 private:
  // The dataset owns neither its data buffers nor the device memory: destroy buffers first.
  static bool DestroyDataset(aclmdlDataset **dataset) {
    if (*dataset == nullptr) return true;
    bool ok = true;
    const size_t count = aclmdlGetDatasetNumBuffers(*dataset);
    for (size_t i = 0; i < count; ++i) {
      ok &= ACL_CALL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(*dataset, i)));
    }
    ok &= ACL_CALL(aclmdlDestroyDataset(*dataset));
    *dataset = nullptr;
    return ok;
  }
};

// Allocates device memory of `size` bytes, wraps it in a data buffer and appends it to `dataset`.
bool AddDeviceBuffer(aclmdlDataset *dataset, size_t size, std::vector<void *> *owned, void **mem_out) {
  void *mem = nullptr;
  if (!ACL_CALL(aclrtMalloc(&mem, size, ACL_MEM_MALLOC_NORMAL_ONLY))) return false;
  owned->push_back(mem);
  aclDataBuffer *buffer = aclCreateDataBuffer(mem, size);
  if (buffer == nullptr) {
    std::fprintf(stderr, "model_exec: aclCreateDataBuffer(%zu bytes) returned nullptr\n", size);
    return false;
  }
  if (!ACL_CALL(aclmdlAddDatasetBuffer(dataset, buffer))) {
    (void)aclDestroyDataBuffer(buffer);
    return false;
  }
  *mem_out = mem;
  return true;
}

bool PrepareInputs(RunState *state) {
  const size_t count = aclmdlGetNumInputs(state->desc);
  state->inputs = aclmdlCreateDataset();
  if (state->inputs == nullptr) {
    std::fprintf(stderr, "model_exec: aclmdlCreateDataset returned nullptr\n");
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t size = aclmdlGetInputSizeByIndex(state->desc, i);
    if (size == 0 || size % sizeof(float) != 0) {
      std::fprintf(stderr, "model_exec: input %zu has size %zu, not a float32 tensor\n", i, size);
      return false;
    }
    const std::vector<float> host(size / sizeof(float), static_cast<float>(i + 1));
    void *mem = nullptr;
    if (!AddDeviceBuffer(state->inputs, size, &state->input_mem, &mem)) return false;
    if (!ACL_CALL(aclrtMemcpy(mem, size, host.data(), size, ACL_MEMCPY_HOST_TO_DEVICE))) return false;
  }
  std::printf("model_exec: %zu inputs filled with x=1, y=2, ...\n", count);
  return true;
}

bool PrepareOutputs(RunState *state) {
  const size_t count = aclmdlGetNumOutputs(state->desc);
  state->outputs = aclmdlCreateDataset();
  if (state->outputs == nullptr) {
    std::fprintf(stderr, "model_exec: aclmdlCreateDataset returned nullptr\n");
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t size = aclmdlGetOutputSizeByIndex(state->desc, i);
    if (size == 0 || size % sizeof(float) != 0) {
      std::fprintf(stderr, "model_exec: output %zu has size %zu, not a float32 tensor\n", i, size);
      return false;
    }
    void *mem = nullptr;
    if (!AddDeviceBuffer(state->outputs, size, &state->output_mem, &mem)) return false;
    state->output_sizes.push_back(size);
  }
  return true;
}

bool CheckOutputs(const RunState &state) {
  bool all_ok = true;
  for (size_t i = 0; i < state.output_mem.size(); ++i) {
    const size_t size = state.output_sizes[i];
    std::vector<float> host(size / sizeof(float), 0.0f);
    if (!ACL_CALL(aclrtMemcpy(host.data(), size, state.output_mem[i], size, ACL_MEMCPY_DEVICE_TO_HOST))) {
      return false;
    }
    size_t mismatches = 0;
    for (size_t k = 0; k < host.size(); ++k) {
      if (host[k] != kExpected) {
        if (mismatches < 5) {
          std::fprintf(stderr, "model_exec: output %zu element %zu is %g, expected %g\n", i, k,
                       static_cast<double>(host[k]), static_cast<double>(kExpected));
        }
        ++mismatches;
      }
    }
    if (mismatches != 0) {
      std::fprintf(stderr, "model_exec: output %zu: %zu of %zu elements differ from %g\n", i, mismatches, host.size(),
                   static_cast<double>(kExpected));
      all_ok = false;
    } else {
      std::printf("model_exec: output %zu: all %zu elements are %g\n", i, host.size(), static_cast<double>(kExpected));
    }
  }
  return all_ok;
}

void PauseForInspection() {
  std::printf("MODEL_EXEC_PAUSED pid=%d\n", static_cast<int>(getpid()));
  std::fflush(stdout);
  std::string line;
  std::getline(std::cin, line);
}

bool Run(const char *model_path, bool pause_after_execute, RunState *state) {
  if (!ACL_CALL(aclInit(nullptr))) return false;
  state->acl_initialized = true;
  if (!ACL_CALL(aclrtSetDevice(kDeviceId))) return false;
  state->device_set = true;
  if (!ACL_CALL(aclmdlLoadFromFile(model_path, &state->model_id))) return false;
  state->model_loaded = true;
  state->desc = aclmdlCreateDesc();
  if (state->desc == nullptr) {
    std::fprintf(stderr, "model_exec: aclmdlCreateDesc returned nullptr\n");
    return false;
  }
  if (!ACL_CALL(aclmdlGetDesc(state->desc, state->model_id))) return false;
  if (!PrepareInputs(state) || !PrepareOutputs(state)) return false;
  if (!ACL_CALL(aclmdlExecute(state->model_id, state->inputs, state->outputs))) return false;
  if (pause_after_execute) PauseForInspection();
  return CheckOutputs(*state);
}

}  // namespace

int main(int argc, char **argv) {
  bool pause_after_execute = false;
  const char *model_path = "model.om";
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--pause_after_execute") == 0) {
      pause_after_execute = true;
    } else if (argv[i][0] == '-' || ++positional > 1) {
      std::fprintf(stderr, "usage: %s [--pause_after_execute] [model.om]\n", argv[0]);
      return 2;
    } else {
      model_path = argv[i];
    }
  }
  std::printf("model_exec: model %s\n", model_path);
  RunState state;
  const bool ran = Run(model_path, pause_after_execute, &state);
  const bool released = state.Release();
  if (!ran || !released) {
    std::printf("PY_COMPILE_OFFLINE_OM=FAIL\n");
    return 1;
  }
  std::printf("PY_COMPILE_OFFLINE_OM=PASS\n");
  return 0;
}
