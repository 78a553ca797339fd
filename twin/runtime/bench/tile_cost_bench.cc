// What one block of the sample add kernel costs on one thread, and how much of it is the Ascend C
// API's bookkeeping (queues, tensor checks, GM range checks, block state) rather than moving and
// adding the data. Device binaries are dlopened here and their entries called back to back on
// this thread, with the env the runtime gives them (block slot, GM ranges, host fences), so no
// launch, no other thread and no cross-process hand-off is in the number.
//
// Several images may be given (e.g. the same kernel built with two header versions); each is
// timed in alternation with two baselines measured in the same run on the same buffers:
//   staged: the block's data work as the kernel does it, without the API: per 128-float tile
//           copy x and y GM -> UB, add in UB, copy UB -> GM, with the twin's own copy and add loops;
//   fused:  z = x + y over the block's 1024 floats in one AVX2 loop (what a C programmer writes).
// Never asserts on time; exits non-zero when an image cannot be loaded, an entry fails, or a
// kernel's z differs from x + y.
//
//   tile_cost_bench --image=<label>=<device binary> [--image=...] [--kernel=add_custom]
//                   [--blocks=64] [--rounds=300] [--reps=256]
#include <dlfcn.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_copy.h"
#include "asc_twin/elementwise.h"
#include "twin/runtime/bench/bench_flags.h"

namespace {

constexpr uint32_t kBlockElems = 1024;  // the sample's block
constexpr uint32_t kTileElems = 128;    // the sample's tile: 1024 / (4 tiles x 2 buffers)
constexpr uint32_t kTileNum = 4;        // tiles per buffer round (runtime-tiled variant's argument)
constexpr uint64_t kUbSize = 196608;    // Ascend910B1's UB
constexpr uint32_t kNpuArch = 2201;

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "tile_cost_bench: %s\n", what.c_str());
  std::exit(1);
}

struct Image {
  std::string label, path;
  AscTwinEntryFn entry = nullptr;
  std::vector<uint8_t> args;  // x, y, z [, total_length, tile_num], cut to the kernel's args_size
};

struct Options {
  std::vector<Image> images;
  std::string kernel = "add_custom";
  uint32_t blocks = 64;  // the 64K-float run_graph case: the blocks cycle through 256 KiB per tensor
  int rounds = 300;
  int reps = 256;
};

Options ParseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char *flag) { return asc_twin::bench::FlagValue(arg, flag); };
    if (const char *v = value("--image=")) {
      const char *eq = std::strchr(v, '=');
      if (eq == nullptr || eq == v || eq[1] == '\0') Die("--image: '" + std::string(v) + "' is not <label>=<path>");
      Image image;
      image.label.assign(v, eq);
      image.path = eq + 1;
      o.images.push_back(image);
    } else if (const char *v = value("--kernel=")) {
      o.kernel = v;
    } else if (const char *v = value("--blocks=")) {
      o.blocks = static_cast<uint32_t>(std::atoi(v));
    } else if (const char *v = value("--rounds=")) {
      o.rounds = std::atoi(v);
    } else if (const char *v = value("--reps=")) {
      o.reps = std::atoi(v);
    } else {
      Die("unknown argument '" + arg + "'");
    }
  }
  if (o.images.empty()) Die("at least one --image=<label>=<device binary> is required");
  if (o.blocks == 0 || o.blocks > 65535) Die("--blocks must be in [1, 65535]");
  if (o.rounds < 1 || o.reps < 1) Die("--rounds and --reps must be positive");
  return o;
}

// The device memory of the run: three allocations the kernels' GM checks must find.
struct Gm {
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  uint64_t generation = 1;  // nothing is ever freed during the run
};

const Gm *Table(const void *ctx) { return static_cast<const Gm *>(ctx); }

int GmRange(const void *ctx, const void *addr, uint64_t len, uintptr_t *lo, uintptr_t *hi, uint64_t *generation) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  for (const auto &r : Table(ctx)->ranges) {
    if (a >= r.first && a <= r.second && len <= r.second - a) {
      *lo = r.first;
      *hi = r.second;
      *generation = Table(ctx)->generation;
      return 1;
    }
  }
  return 0;
}

int GmCheck(const void *ctx, const void *addr, uint64_t len) {
  uintptr_t lo = 0, hi = 0;
  uint64_t generation = 0;
  return GmRange(ctx, addr, len, &lo, &hi, &generation);
}

ASC_TWIN_DEFINE_BLOCK_SLOT(g_bench_block_slot);  // what libascendcl offers its block threads

float *AllocFloats(uint64_t n, Gm &gm) {
  const uint64_t bytes = (n * sizeof(float) + 4095) / 4096 * 4096;
  auto *p = static_cast<float *>(std::aligned_alloc(4096, bytes));
  if (p == nullptr) Die("out of memory");
  gm.ranges.emplace_back(reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + n * sizeof(float));
  return p;
}

void Load(Image &image, const Options &o, float *x, float *y, float *z) {
  void *handle = dlopen(image.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) Die("cannot load " + image.path + ": " + dlerror());
  const std::string entry = ASC_TWIN_ENTRY_PREFIX + o.kernel, info_name = ASC_TWIN_INFO_PREFIX + o.kernel;
  image.entry = reinterpret_cast<AscTwinEntryFn>(dlsym(handle, entry.c_str()));
  const auto *info = static_cast<const AscTwinKernelInfo *>(dlsym(handle, info_name.c_str()));
  if (image.entry == nullptr || info == nullptr) Die(image.path + " has no kernel " + o.kernel);
  // (x, y, z): the sample's signature; (x, y, z, total_length, tile_num): the runtime-tiled one.
  const uint64_t slots[5] = {reinterpret_cast<uint64_t>(x), reinterpret_cast<uint64_t>(y),
                             reinterpret_cast<uint64_t>(z), uint64_t{o.blocks} * kBlockElems, kTileNum};
  if (info->args_size != 24 && info->args_size != 40) {
    Die(o.kernel + " in " + image.path + " takes " + std::to_string(info->args_size) +
        " argument bytes: expected (x, y, z) or (x, y, z, total_length, tile_num)");
  }
  image.args.assign(reinterpret_cast<const uint8_t *>(slots),
                    reinterpret_cast<const uint8_t *>(slots) + info->args_size);
}

AscTwinBlockEnv MakeEnv(const Options &o, uint8_t *ub, const Gm &gm) {
  AscTwinBlockEnv env;
  AscTwinEnvInit(&env);
  env.block_num = o.blocks;
  env.npu_arch = kNpuArch;
  env.flags = ASC_TWIN_ENV_HOST_FENCES_STORES;
  env.mem[ASC_TWIN_MEM_UB].base = ub;
  env.mem[ASC_TWIN_MEM_UB].size = kUbSize;
  env.gm_check = &GmCheck;
  env.gm_ctx = &gm;
  env.soc_version = "Ascend910B1";
  env.kernel_name = o.kernel.c_str();
  env.gm_range = &GmRange;
  env.gm_generation = &gm.generation;
  AscTwinEnvUseBlockSlot(&env, &g_bench_block_slot);
  return env;
}

void RunBlock(const Image &image, AscTwinBlockEnv &env, uint32_t block) {
  char err[512] = "";
  env.block_idx = block;
  if (image.entry(&env, image.args.data(), image.args.size(), err, sizeof(err)) != 0) {
    Die(image.label + ": block " + std::to_string(block) + " failed: " + err);
  }
}

// The block's data work as the kernel does it, with the twin's own loops and no API around them.
void StagedBlock(const float *x, const float *y, float *z, uint8_t *ub) {
  auto *ux = reinterpret_cast<float *>(ub), *uy = ux + kTileElems, *uz = uy + kTileElems;
  const auto add = [](float a, float b) { return a + b; };
  for (uint32_t t = 0; t < kBlockElems / kTileElems; ++t) {
    const uint64_t at = uint64_t{t} * kTileElems, bytes = kTileElems * sizeof(float);
    AscendC::twin::CopyBlocks32(ux, x + at, bytes);
    AscendC::twin::CopyBlocks32(uy, y + at, bytes);
    if (AscendC::twin::HasAvx2()) {
      AscendC::twin::BinaryLoopAvx2(uz, ux, uy, kTileElems, add);
    } else {
      AscendC::twin::BinaryLoop(uz, ux, uy, kTileElems, add);
    }
    AscendC::twin::CopyBlocks32(z + at, uz, bytes);
  }
}

ASC_TWIN_TARGET_AVX2 __attribute__((noinline)) void FusedBlockAvx2(const float *__restrict x, const float *__restrict y,
                                                                   float *__restrict z) {
  for (uint32_t i = 0; i < kBlockElems; ++i) z[i] = x[i] + y[i];
}

double NowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// ns per block of `reps` blocks run back to back, cycling through the launch's blocks.
template <typename F>
double NsPerBlock(int reps, uint32_t blocks, F &&run) {
  const double start = NowNs();
  for (int r = 0; r < reps; ++r) run(static_cast<uint32_t>(r) % blocks);
  return (NowNs() - start) / reps;
}

}  // namespace

int main(int argc, char **argv) {
  Options o = ParseOptions(argc, argv);
  Gm gm;
  const uint64_t n = uint64_t{o.blocks} * kBlockElems;
  float *x = AllocFloats(n, gm), *y = AllocFloats(n, gm), *z = AllocFloats(n, gm);
  const unsigned seed = static_cast<unsigned>(std::random_device{}());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  for (uint64_t i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  auto *ub = static_cast<uint8_t *>(std::aligned_alloc(4096, kUbSize));
  std::memset(ub, 0xA5, kUbSize);  // stale, as on the NPU
  for (Image &image : o.images) Load(image, o, x, y, z);
  AscTwinBlockEnv env = MakeEnv(o, ub, gm);

  // Each image once over every block, checked against x + y.
  for (const Image &image : o.images) {
    std::memset(z, 0, n * sizeof(float));
    for (uint32_t b = 0; b < o.blocks; ++b) RunBlock(image, env, b);
    for (uint64_t i = 0; i < n; ++i) {
      if (z[i] != x[i] + y[i]) Die(image.label + ": z differs from x + y at " + std::to_string(i));
    }
  }

  // Rounds: every contender once per round, in the same order, so all see the same machine.
  const size_t contenders = o.images.size() + 2;
  std::vector<std::vector<double>> ns(contenders);
  for (int round = 0; round < o.rounds; ++round) {
    for (size_t k = 0; k < o.images.size(); ++k) {
      ns[k].push_back(NsPerBlock(o.reps, o.blocks, [&](uint32_t b) { RunBlock(o.images[k], env, b); }));
    }
    const auto at = [&](uint32_t b) { return uint64_t{b} * kBlockElems; };
    ns[contenders - 2].push_back(
        NsPerBlock(o.reps, o.blocks, [&](uint32_t b) { StagedBlock(x + at(b), y + at(b), z + at(b), ub); }));
    ns[contenders - 1].push_back(
        NsPerBlock(o.reps, o.blocks, [&](uint32_t b) { FusedBlockAvx2(x + at(b), y + at(b), z + at(b)); }));
  }

  std::vector<double> med(contenders);
  for (size_t k = 0; k < contenders; ++k) med[k] = Median(ns[k]);
  const double staged = med[contenders - 2], fused = med[contenders - 1];
  std::printf(
      "kernel %s: one thread, %u blocks of %u floats cycled (%u tiles of %u), %d rounds x %d blocks; "
      "seed %u\n\n",
      o.kernel.c_str(), o.blocks, kBlockElems, kBlockElems / kTileElems, kTileElems, o.rounds, o.reps, seed);
  std::printf("| %-32s | %13s | %13s | %9s | %8s | %20s |\n", "contender", "ns per block", "x first image", "x staged",
              "x fused", "API ns per tile");
  std::printf(
      "|----------------------------------|--------------:|--------------:|----------:|---------:|"
      "---------------------:|\n");
  for (size_t k = 0; k < contenders; ++k) {
    std::string label = k < o.images.size()   ? "image " + o.images[k].label
                        : k == contenders - 2 ? "staged (data work only)"
                                              : "fused C add";
    char api[32] = "";
    if (k < o.images.size())
      std::snprintf(
          api, sizeof(api), "%.1f",
          (med[k] - staged) / (kBlockElems / kTileElems));  // NOLINT(bugprone-integer-division): 1024 / 128, exact
    std::printf("| %-32s | %13.1f | %13.2f | %9.2f | %8.2f | %20s |\n", label.c_str(), med[k], med[k] / med[0],
                med[k] / staged, med[k] / fused, api);
  }
  std::printf(
      "\n\"API ns per tile\" = (block - staged) / %u tiles: what the Ascend C calls add around the data work.\n",
      kBlockElems / kTileElems);
  return 0;
}
