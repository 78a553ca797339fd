// The long OM-level mutation run (a command, not a test): OMs whose kernel bytes are mutated,
// with every checksum fixed up (the container is written anew by SerializeOm, so the reader's
// SHA-256 checks pass and the mutated kernel reaches the device process's validator, the loader
// and the launch), loaded with aclmdlLoadFromMem and executed. The host must answer every input
// with a code and never crash or hang. Prints a summary: inputs, outcomes by code, hangs, the
// slowest input, and reports that name no block.
//
//   bazel run -c opt //twin/runtime/tests:om_mutation_run -- [--runs=1000000] [--seconds=S] [--seed=N]
//
// A hang is an input that took longer than --hang_seconds (default 10; the operator execution
// timeout is 2 s, so only a hang the watchdog missed counts). A host crash ends this process:
// a summary printed at all means there was none.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"
#include "twin/om/tests/binding_builders.h"
#include "twin/runtime/tests/mutate_bytes.h"

namespace {

using asc_twin::om::KernelTask;
using asc_twin::om::ModelDef;
namespace omt = asc_twin::om::testing;

constexpr uint64_t kElements = 2048;  // 8 blocks x 2 tiles x 2 buffers x 64 floats for add_custom

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "om_mutation_run: %s\n", what.c_str());
  std::exit(1);
}

std::string ReadFileOrDie(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Die("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string TakeErrMsg() {
  const char *msg = aclGetRecentErrMsg();
  return msg != nullptr ? msg : "";
}

// z = x + y over kElements floats by `kernel` (args x, y, z, then `scalars`).
ModelDef AddModel(const std::string &kernel, uint32_t blocks, const std::vector<uint64_t> &scalars) {
  ModelDef model;
  model.set_format_version(asc_twin::om::kFormatVersion);
  model.set_name("mutation_" + kernel);
  model.set_soc_version("Ascend910B1");
  model.set_npu_arch(2201);
  for (const char *name : {"x", "y", "z"}) {
    auto *tensor = (name[0] == 'z' ? model.mutable_outputs() : model.mutable_inputs())->Add();
    tensor->set_name(name);
    tensor->set_data_type(ACL_FLOAT);
    tensor->set_format(ACL_FORMAT_ND);
    tensor->add_dims(static_cast<int64_t>(kElements));
    tensor->set_size(kElements * sizeof(float));
  }
  KernelTask *task = model.add_tasks()->mutable_kernel();
  task->set_node_name(kernel + "_0");
  task->set_op_type("Custom");
  task->set_kernel_binary_index(0);
  task->set_kernel_name(kernel);
  task->set_block_dim(blocks);
  *task->add_args() = omt::InputBinding(0);
  *task->add_args() = omt::InputBinding(1);
  *task->add_args() = omt::OutputBinding(0);
  for (uint64_t s : scalars) *task->add_args() = omt::ScalarBinding(s);
  return model;
}

struct Seed {
  ModelDef model;
  std::vector<uint8_t> kernel;
};

// Device buffers and datasets for x, y -> z, made once and reused by every input.
class Io {
 public:
  Io() {
    in_ = aclmdlCreateDataset();
    out_ = aclmdlCreateDataset();
    for (aclmdlDataset *set : {in_, in_, out_}) {
      void *device = nullptr;
      if (aclrtMalloc(&device, kElements * sizeof(float), ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS ||
          aclrtMemset(device, kElements * sizeof(float), 0x3f, kElements * sizeof(float)) != ACL_SUCCESS ||
          aclmdlAddDatasetBuffer(set, aclCreateDataBuffer(device, kElements * sizeof(float))) != ACL_SUCCESS) {
        Die("cannot set up the model's buffers: " + TakeErrMsg());
      }
    }
  }
  aclmdlDataset *in() { return in_; }
  aclmdlDataset *out() { return out_; }

 private:
  aclmdlDataset *in_;
  aclmdlDataset *out_;
};

struct Options {
  std::string add_custom, test_kernels;
  long runs = 1000000;
  double seconds = 0;  // 0: no time limit
  double hang_seconds = 10;
  uint64_t seed = 0;
};

Options Parse(int argc, char **argv) {
  Options o;
  o.seed = std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq), value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    if (key == "--add_custom") {
      o.add_custom = value;
    } else if (key == "--test_kernels") {
      o.test_kernels = value;
    } else if (key == "--runs") {
      o.runs = std::atol(value.c_str());
    } else if (key == "--seconds") {
      o.seconds = std::atof(value.c_str());
    } else if (key == "--hang_seconds") {
      o.hang_seconds = std::atof(value.c_str());
    } else if (key == "--seed") {
      o.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else {
      Die("unknown argument '" + arg + "'");
    }
  }
  if (o.add_custom.empty() || o.test_kernels.empty()) Die("--add_custom=<path> and --test_kernels=<path> are required");
  if (o.runs <= 0) Die("--runs must be positive");
  return o;
}

// A report of a failed launch that names no block ("kernel K block B: ...").
bool NamesNoBlock(const std::string &message) { return message.find(" block ") == std::string::npos; }

}  // namespace

int main(int argc, char **argv) {
  const Options o = Parse(argc, argv);
  std::printf("om_mutation_run: seed %llu (--seed=%llu reproduces), up to %ld inputs%s\n",
              static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.seed), o.runs,
              o.seconds > 0 ? (", at most " + std::to_string(static_cast<long>(o.seconds)) + " s").c_str() : "");
  std::fflush(stdout);
  std::mt19937_64 rng(o.seed);
  const std::string add = ReadFileOrDie(o.add_custom), vadd = ReadFileOrDie(o.test_kernels);
  const Seed seeds[] = {
      {AddModel("add_custom", 8, {kElements, 2}), std::vector<uint8_t>(add.begin(), add.end())},
      {AddModel("vadd_f32", 3, {kElements}), std::vector<uint8_t>(vadd.begin(), vadd.end())},
  };
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) Die("ACL setup: " + TakeErrMsg());
  if (aclrtSetOpExecuteTimeOut(2) != ACL_SUCCESS) Die("aclrtSetOpExecuteTimeOut: " + TakeErrMsg());
  Io io;
  std::map<aclError, long> outcomes;
  long hangs = 0, no_block = 0, runs = 0;
  double slowest = 0;
  std::string slowest_message, no_block_example;
  const auto started = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
  for (; runs < o.runs && (o.seconds <= 0 || elapsed() < o.seconds); ++runs) {
    if (runs > 0 && runs % 50000 == 0) {
      std::printf("[om_mutation] %ld inputs, %.0f s, %ld hangs\n", runs, elapsed(), hangs);
      std::fflush(stdout);
    }
    const Seed &seed = seeds[rng() % 2];
    std::vector<uint8_t> kernel = seed.kernel;
    asc_twin::rt::testing::MutateBytes(&kernel, rng);
    const std::string om =
        asc_twin::om::SerializeOm(seed.model, {std::string(kernel.begin(), kernel.end())});  // checksums fixed up
    const auto run_start = std::chrono::steady_clock::now();
    uint32_t id = 0;
    aclError code = aclmdlLoadFromMem(om.data(), om.size(), &id);
    if (code == ACL_SUCCESS) {
      code = aclmdlExecute(id, io.in(), io.out());
      if (aclmdlUnload(id) != ACL_SUCCESS) Die("aclmdlUnload of a loaded model failed: " + TakeErrMsg());
    }
    const std::string message = TakeErrMsg();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
    ++outcomes[code];
    if (seconds > o.hang_seconds) {
      ++hangs;
      std::printf("[om_mutation] input %ld took %.1f s: %d %s\n", runs, seconds, code, message.c_str());
    }
    if ((code == ACL_ERROR_RT_AICORE_TIMEOUT || code == ACL_ERROR_RT_AICORE_EXCEPTION) && NamesNoBlock(message)) {
      ++no_block;
      if (no_block_example.empty()) no_block_example = message;
    }
    if (seconds > slowest) {
      slowest = seconds;
      slowest_message = std::to_string(code) + " " + message;
    }
  }
  std::printf("\nom_mutation_run summary: %ld inputs in %.0f s (seed %llu)\n", runs, elapsed(),
              static_cast<unsigned long long>(o.seed));
  std::printf("  host crashes: 0 (this process finished every input)\n");
  std::printf("  hangs (> %.0f s): %ld\n", o.hang_seconds, hangs);
  std::printf("  slowest input: %.2f s (%s)\n", slowest, slowest_message.c_str());
  std::printf("  launch failures naming no block: %ld%s%s\n", no_block, no_block > 0 ? ", e.g. " : "",
              no_block_example.c_str());
  for (const auto &[code, count] : outcomes) std::printf("  code %d: %ld\n", code, count);
  aclrtSetOpExecuteTimeOut(0);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
