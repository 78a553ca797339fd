// A device binary written by hand against asc_twin/aicore_abi.h, standing in for bisheng's
// output so the runtime can be tested end to end: .ascend.meta, one entry + info per kernel,
// arguments in 8-byte slots, UB used as a per-block scratch, every GM access checked.
//
// Build variants (see BUILD.bazel): -DTEST_NPU_ARCH=<n> sets the arch in the meta;
// -DTEST_NO_META drops the .ascend.meta section.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "asc_twin/aicore_abi.h"

#ifndef TEST_NPU_ARCH
#define TEST_NPU_ARCH 2201
#endif
#define STR2(x) #x
#define STR(x) STR2(x)

#ifndef TEST_NO_META
extern "C" __attribute__((used, section(".ascend.meta"))) const char asc_twin_meta[] =
    "abi=3\n"
    "npu_arch=" STR(TEST_NPU_ARCH) "\n"
    "npu_arch_flag=dav-" STR(TEST_NPU_ARCH) "\n"
    "kernel=vadd_f32\n"
    "kernel=empty_kernel\n"
    "kernel=trap_on_block\n"
    "kernel=block_env\n"
    "kernel=gm_overrun\n";
#endif

#define EXPORT extern "C" __attribute__((visibility("default")))

#ifdef TEST_IFUNC
// A crafted image: an IFUNC, whose resolver the loader would run while mapping the image.
extern "C" void abort(void);
extern "C" void Chosen() {}
extern "C" void (*ResolveChosen())() {
  abort();
  return Chosen;
}
extern "C" __attribute__((visibility("default"), ifunc("ResolveChosen"))) void PickedAtLoad();
#endif

#ifdef TEST_CONSTRUCTOR
// A crafted image: code that would run when the image is mapped. The loader must refuse it.
extern "C" void abort(void);
__attribute__((constructor)) static void RunsAtLoad() { abort(); }
#endif

namespace {

uint64_t Slot(const void *args, size_t index) {
  uint64_t value;
  std::memcpy(&value, static_cast<const uint8_t *>(args) + 8 * index, 8);
  return value;
}

int Trap(char *err, size_t cap, const char *text) {
  std::snprintf(err, cap, "%s", text);
  return 1;
}

int GmChecked(const AscTwinBlockEnv *env, const void *addr, uint64_t len, char *err, size_t cap) {
  if (env->gm_check(env->gm_ctx, addr, len)) return 0;
  std::snprintf(err, cap, "GM access out of bounds: [%p, +%llu) is not inside one device allocation", addr,
                static_cast<unsigned long long>(len));
  return 1;
}

}  // namespace

// z[i] = x[i] + y[i] for i < n; block b handles a contiguous share, staged through UB tiles.
EXPORT const AscTwinKernelInfo __asc_twin_info_vadd_f32 = {ASC_TWIN_ABI_VERSION, 4, 32, 0};
EXPORT int __asc_twin_entry_vadd_f32(const AscTwinBlockEnv *env, const void *args, size_t args_size, char *err,
                                     size_t err_cap) {
  if (args_size < 32) return Trap(err, err_cap, "vadd_f32: argument blob too small");
  auto *x = reinterpret_cast<const float *>(Slot(args, 0));
  auto *y = reinterpret_cast<const float *>(Slot(args, 1));
  auto *z = reinterpret_cast<float *>(Slot(args, 2));
  const uint64_t n = Slot(args, 3);
  const uint64_t per_block = (n + env->block_num - 1) / env->block_num;
  const uint64_t begin = per_block * env->block_idx;
  const uint64_t end = begin + per_block < n ? begin + per_block : n;
  if (begin >= end) return 0;
  // Three tiles (x, y, z) of equal size in UB.
  const uint64_t tile = env->mem[ASC_TWIN_MEM_UB].size / 3 / sizeof(float);
  auto *ux = reinterpret_cast<float *>(env->mem[ASC_TWIN_MEM_UB].base);
  float *uy = ux + tile, *uz = uy + tile;
  for (uint64_t at = begin; at < end; at += tile) {
    const uint64_t count = end - at < tile ? end - at : tile;
    const uint64_t bytes = count * sizeof(float);
    if (GmChecked(env, x + at, bytes, err, err_cap) || GmChecked(env, y + at, bytes, err, err_cap) ||
        GmChecked(env, z + at, bytes, err, err_cap)) {
      return 1;
    }
    std::memcpy(ux, x + at, bytes);
    std::memcpy(uy, y + at, bytes);
    for (uint64_t i = 0; i < count; ++i) uz[i] = ux[i] + uy[i];
    std::memcpy(z + at, uz, bytes);
  }
  return 0;
}

EXPORT const AscTwinKernelInfo __asc_twin_info_empty_kernel = {ASC_TWIN_ABI_VERSION, 0, 0, 0};
EXPORT int __asc_twin_entry_empty_kernel(const AscTwinBlockEnv *, const void *, size_t, char *, size_t) { return 0; }

// Traps in block `bad` (slot 0) with a UB-capacity cause, as the Ascend C twin would.
EXPORT const AscTwinKernelInfo __asc_twin_info_trap_on_block = {ASC_TWIN_ABI_VERSION, 1, 8, 0};
EXPORT int __asc_twin_entry_trap_on_block(const AscTwinBlockEnv *env, const void *args, size_t, char *err,
                                          size_t err_cap) {
  if (env->block_idx != Slot(args, 0)) return 0;
  std::snprintf(err, err_cap, "UB capacity exceeded: TBuf of %llu bytes needs more than the %llu-byte UB",
                static_cast<unsigned long long>(env->mem[ASC_TWIN_MEM_UB].size) + 32,
                static_cast<unsigned long long>(env->mem[ASC_TWIN_MEM_UB].size));
  return 1;
}

// out[block_idx * 6 ...] = block_idx, block_num, npu_arch, ub_size, ub 4K-aligned with the
// runtime's env abi/flags/kernel name, strlen(soc).
EXPORT const AscTwinKernelInfo __asc_twin_info_block_env = {ASC_TWIN_ABI_VERSION, 1, 8, 0};
EXPORT int __asc_twin_entry_block_env(const AscTwinBlockEnv *env, const void *args, size_t, char *err, size_t err_cap) {
  auto *out = reinterpret_cast<uint64_t *>(Slot(args, 0)) + 6 * env->block_idx;
  if (GmChecked(env, out, 6 * sizeof(uint64_t), err, err_cap)) return 1;
  // Write all of UB: it must be this block's own memory.
  std::memset(env->mem[ASC_TWIN_MEM_UB].base, static_cast<int>(env->block_idx), env->mem[ASC_TWIN_MEM_UB].size);
  out[0] = env->block_idx;
  out[1] = env->block_num;
  out[2] = env->npu_arch;
  out[3] = env->mem[ASC_TWIN_MEM_UB].size;
  out[4] = (reinterpret_cast<uintptr_t>(env->mem[ASC_TWIN_MEM_UB].base) % 4096 == 0) &&
           env->abi_version == ASC_TWIN_ABI_VERSION && (env->flags & ASC_TWIN_ENV_HOST_FENCES_STORES) != 0 &&
           std::strcmp(env->kernel_name, "block_env") == 0;
  out[5] = std::strlen(env->soc_version);
  return 0;
}

// Reads `len` (slot 1) bytes at `ptr` (slot 0) through the GM checker; traps when outside.
EXPORT const AscTwinKernelInfo __asc_twin_info_gm_overrun = {ASC_TWIN_ABI_VERSION, 2, 16, 0};
EXPORT int __asc_twin_entry_gm_overrun(const AscTwinBlockEnv *env, const void *args, size_t, char *err,
                                       size_t err_cap) {
  return GmChecked(env, reinterpret_cast<const void *>(Slot(args, 0)), Slot(args, 1), err, err_cap);
}
