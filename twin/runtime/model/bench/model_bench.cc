// Prints: OM load time (aclmdlLoadFromMem and aclmdlLoadFromFile, median) and aclmdlExecute
// median for a one-kernel add model at 1K and 16M floats — the bisheng-built Ascend C
// add_custom(x, y, z, total_length, tile_num) and the hand-written vadd_f32(x, y, z, n) — with
// the bandwidth of the 16M runs next to a plain multithreaded C++ add. Not a test: no
// assertions on time.
// Usage: model_bench ADD_CUSTOM.o MODEL_KERNELS.so
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "twin/om/om_format.h"
#include "twin/om/om_writer.h"

namespace {

using Clock = std::chrono::steady_clock;

double Micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void Check(aclError code, const char *what) {
  if (code == ACL_SUCCESS) return;
  const char *message = aclGetRecentErrMsg();
  std::fprintf(stderr, "model_bench: %s failed with %d: %s\n", what, code, message ? message : "");
  std::exit(1);
}

// One add task. add_custom takes (x, y, z, total_length, tile_num); vadd_f32 takes (x, y, z, n).
std::string AddModel(const std::string &kernel, uint64_t n, uint32_t blocks, const std::string &binary) {
  asc_twin::om::ModelDef model;
  model.set_format_version(asc_twin::om::kFormatVersion);
  model.set_name(kernel + "_" + std::to_string(n));
  model.set_soc_version(aclrtGetSocName());
  model.set_npu_arch(2201);
  for (const char *name : {"x", "y"}) {
    auto *t = model.add_inputs();
    t->set_name(name);
    t->add_dims(static_cast<int64_t>(n));
    t->set_size(n * 4);
  }
  auto *z = model.add_outputs();
  z->set_name("z");
  z->add_dims(static_cast<int64_t>(n));
  z->set_size(n * 4);
  auto *task = model.add_tasks()->mutable_kernel();
  task->set_node_name("add");
  task->set_op_type("AddCustom");
  task->set_kernel_name(kernel);
  task->set_block_dim(blocks);
  task->add_args()->set_input(0);
  task->add_args()->set_input(1);
  task->add_args()->set_output(0);
  task->add_args()->set_scalar(n);
  if (kernel == "add_custom") {
    // Tiles of at most 4096 floats (16 KiB; 2 buffers x 3 queues fit any SoC's UB).
    const uint64_t per_block = n / blocks;
    task->add_args()->set_scalar(std::max<uint64_t>(1, per_block / 2 / 4096));
  }
  return asc_twin::om::SerializeOm(model, {binary});
}

struct Io {
  aclmdlDataset *in = aclmdlCreateDataset();
  aclmdlDataset *out = aclmdlCreateDataset();
  std::vector<void *> memory;
  explicit Io(uint64_t n) {
    for (int i = 0; i < 3; ++i) {
      void *p = nullptr;
      Check(aclrtMalloc(&p, n * 4, ACL_MEM_MALLOC_NORMAL_ONLY), "aclrtMalloc");
      std::vector<float> host(n, 1.0f + i);
      Check(aclrtMemcpy(p, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
      memory.push_back(p);
      Check(aclmdlAddDatasetBuffer(i < 2 ? in : out, aclCreateDataBuffer(p, n * 4)), "aclmdlAddDatasetBuffer");
    }
  }
  ~Io() {
    for (aclmdlDataset *set : {in, out}) {
      for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(set); ++i) aclDestroyDataBuffer(aclmdlGetDatasetBuffer(set, i));
      aclmdlDestroyDataset(set);
    }
    for (void *p : memory) aclrtFree(p);
  }
};

double ExecuteMedian(uint32_t id, uint64_t n, int iterations) {
  Io io(n);
  for (int i = 0; i < 3; ++i) Check(aclmdlExecute(id, io.in, io.out), "aclmdlExecute");  // warm-up
  std::vector<double> times;
  times.reserve(iterations);
  for (int i = 0; i < iterations; ++i) {
    const auto start = Clock::now();
    Check(aclmdlExecute(id, io.in, io.out), "aclmdlExecute");
    times.push_back(Micros(Clock::now() - start));
  }
  return Median(times);
}

// z = x + y with plain threads, one contiguous share each: the bandwidth reference.
double PlainAddMedian(uint64_t n, unsigned threads, int iterations) {
  std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n);
  std::vector<double> times;
  for (int it = 0; it < iterations; ++it) {
    const auto start = Clock::now();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        const uint64_t begin = n * t / threads, end = n * (t + 1) / threads;
        for (uint64_t i = begin; i < end; ++i) z[i] = x[i] + y[i];
      });
    }
    for (auto &th : pool) th.join();
    times.push_back(Micros(Clock::now() - start));
  }
  return Median(times);
}

std::string ReadFile(const char *path) {
  std::ifstream file(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    std::fprintf(stderr, "model_bench: cannot read %s\n", path);
    std::exit(1);
  }
  return bytes;
}

void Row(const std::string &what, double micros, double bytes) {
  char gbps[32] = "";
  if (bytes > 0) std::snprintf(gbps, sizeof(gbps), "%10.2f", bytes / micros / 1e3);
  std::printf("| %-52s | %11.2f us | %10s |\n", what.c_str(), micros, gbps);
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: model_bench ADD_CUSTOM.o MODEL_KERNELS.so\n");
    return 2;
  }
  const std::string add_custom = ReadFile(argv[1]);
  const std::string hand_written = ReadFile(argv[2]);
  Check(aclInit(nullptr), "aclInit");
  Check(aclrtSetDevice(0), "aclrtSetDevice");
  const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
  unsigned blocks = 1;  // a power of two <= threads, so 16M splits evenly
  while (blocks * 2 <= threads && blocks < 64) blocks *= 2;

  const uint64_t small = 1024, large = 16ull << 20;
  const std::string om_small = AddModel("add_custom", small, 1, add_custom);

  std::vector<double> load_mem, load_file;
  char path[] = "/tmp/model_bench_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0 || write(fd, om_small.data(), om_small.size()) != static_cast<ssize_t>(om_small.size())) {
    std::fprintf(stderr, "model_bench: cannot write %s\n", path);
    return 1;
  }
  close(fd);
  for (int i = 0; i < 50; ++i) {
    uint32_t id = 0;
    auto start = Clock::now();
    Check(aclmdlLoadFromMem(om_small.data(), om_small.size(), &id), "aclmdlLoadFromMem");
    load_mem.push_back(Micros(Clock::now() - start));
    Check(aclmdlUnload(id), "aclmdlUnload");
    start = Clock::now();
    Check(aclmdlLoadFromFile(path, &id), "aclmdlLoadFromFile");
    load_file.push_back(Micros(Clock::now() - start));
    Check(aclmdlUnload(id), "aclmdlUnload");
  }
  unlink(path);

  std::printf("model executor benchmark: SoC %s, %u host threads, add_custom OM %zu bytes (kernel binary %zu)\n",
              aclrtGetSocName(), threads, om_small.size(), add_custom.size());
  std::printf("| %-52s | %14s | %10s |\n", "measurement", "median", "GB/s");
  std::printf("|%s|%s|%s|\n", std::string(54, '-').c_str(), std::string(16, '-').c_str(), std::string(12, '-').c_str());
  Row("aclmdlLoadFromMem (add_custom model)", Median(load_mem), 0);
  Row("aclmdlLoadFromFile (add_custom model)", Median(load_file), 0);
  for (const auto &[kernel, binary] : {std::pair<std::string, const std::string *>{"add_custom", &add_custom},
                                       std::pair<std::string, const std::string *>{"vadd_f32", &hand_written}}) {
    uint32_t id_small = 0, id_large = 0;
    const std::string small_om = AddModel(kernel, small, 1, *binary);
    const std::string large_om = AddModel(kernel, large, blocks, *binary);
    Check(aclmdlLoadFromMem(small_om.data(), small_om.size(), &id_small), "aclmdlLoadFromMem");
    Check(aclmdlLoadFromMem(large_om.data(), large_om.size(), &id_large), "aclmdlLoadFromMem");
    Row("aclmdlExecute " + kernel + " 1K floats (1 block)", ExecuteMedian(id_small, small, 20000), 12.0 * small);
    Row("aclmdlExecute " + kernel + " 16M floats (" + std::to_string(blocks) + " blocks)",
        ExecuteMedian(id_large, large, 20), 12.0 * large);
    Check(aclmdlUnload(id_small), "aclmdlUnload");
    Check(aclmdlUnload(id_large), "aclmdlUnload");
  }
  Row("plain C++ add 16M floats (" + std::to_string(blocks) + " threads)", PlainAddMedian(large, blocks, 20),
      12.0 * large);
  Check(aclrtResetDevice(0), "aclrtResetDevice");
  Check(aclFinalize(), "aclFinalize");
  return 0;
}
