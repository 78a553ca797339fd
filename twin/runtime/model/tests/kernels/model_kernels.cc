// A device binary written by hand against asc_twin/aicore_abi.h for the executor tests and the
// benchmark (until bisheng's add_custom is available to them): two float kernels whose
// arguments mix addresses and scalars, so a model can chain them through its feature map.
//   vadd_f32(x, y, z, n)            z = x + y
//   axpy_f32(x, y, z, alpha, n)     z = alpha * x + y   (alpha: float bits in the low 32 bits)
// -DMODEL_TEST_NPU_ARCH=<n> sets the NpuArch written to .ascend.meta (default 2201).
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "asc_twin/aicore_abi.h"

#ifndef MODEL_TEST_NPU_ARCH
#define MODEL_TEST_NPU_ARCH 2201
#endif
#define MODEL_STR2(x) #x
#define MODEL_STR(x) MODEL_STR2(x)

extern "C" __attribute__((used, section(".ascend.meta"))) const char model_test_meta[] =
    "abi=3\n"
    "npu_arch=" MODEL_STR(MODEL_TEST_NPU_ARCH) "\n"
    "npu_arch_flag=dav-" MODEL_STR(MODEL_TEST_NPU_ARCH) "\n"
    "kernel=vadd_f32\n"
    "kernel=axpy_f32\n";

#define MODEL_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

uint64_t Slot(const void *args, size_t index) {
  uint64_t value;
  std::memcpy(&value, static_cast<const uint8_t *>(args) + 8 * index, 8);
  return value;
}

bool Checked(const AscTwinBlockEnv *env, const void *addr, uint64_t bytes, char *err, size_t cap) {
  if (env->gm_check(env->gm_ctx, addr, bytes)) return true;
  std::snprintf(err, cap, "%s: GM access [%p, +%llu) is outside every device allocation", env->kernel_name, addr,
                static_cast<unsigned long long>(bytes));
  return false;
}

// This block's share [begin, end) of n elements.
void Share(const AscTwinBlockEnv *env, uint64_t n, uint64_t *begin, uint64_t *end) {
  const uint64_t per_block = (n + env->block_num - 1) / env->block_num;
  *begin = per_block * env->block_idx < n ? per_block * env->block_idx : n;
  *end = *begin + per_block < n ? *begin + per_block : n;
}

// z = alpha * x + y over this block's share, staged through UB tiles like an Ascend C kernel.
int RunAxpy(const AscTwinBlockEnv *env, const float *x, const float *y, float *z, float alpha, bool use_alpha,
            uint64_t n, char *err, size_t cap) {
  uint64_t begin, end;
  Share(env, n, &begin, &end);
  const uint64_t tile = env->mem[ASC_TWIN_MEM_UB].size / 3 / sizeof(float);
  float *ux = reinterpret_cast<float *>(env->mem[ASC_TWIN_MEM_UB].base);
  float *uy = ux + tile;
  float *uz = uy + tile;
  for (uint64_t at = begin; at < end; at += tile) {
    const uint64_t count = end - at < tile ? end - at : tile;
    const uint64_t bytes = count * sizeof(float);
    if (!Checked(env, x + at, bytes, err, cap) || !Checked(env, y + at, bytes, err, cap) ||
        !Checked(env, z + at, bytes, err, cap)) {
      return 1;
    }
    std::memcpy(ux, x + at, bytes);
    std::memcpy(uy, y + at, bytes);
    if (use_alpha) {
      for (uint64_t i = 0; i < count; ++i) uz[i] = alpha * ux[i] + uy[i];
    } else {
      for (uint64_t i = 0; i < count; ++i) uz[i] = ux[i] + uy[i];
    }
    std::memcpy(z + at, uz, bytes);
  }
  return 0;
}

}  // namespace

MODEL_EXPORT const AscTwinKernelInfo __asc_twin_info_vadd_f32 = {ASC_TWIN_ABI_VERSION, 4, 32, 0};
MODEL_EXPORT int __asc_twin_entry_vadd_f32(const AscTwinBlockEnv *env, const void *args, size_t args_size, char *err,
                                           size_t err_cap) {
  if (args_size < 32) {
    std::snprintf(err, err_cap, "vadd_f32: argument blob of %zu bytes, need 32", args_size);
    return 1;
  }
  return RunAxpy(env, reinterpret_cast<const float *>(Slot(args, 0)), reinterpret_cast<const float *>(Slot(args, 1)),
                 reinterpret_cast<float *>(Slot(args, 2)), 1.0f, false, Slot(args, 3), err, err_cap);
}

MODEL_EXPORT const AscTwinKernelInfo __asc_twin_info_axpy_f32 = {ASC_TWIN_ABI_VERSION, 5, 40, 0};
MODEL_EXPORT int __asc_twin_entry_axpy_f32(const AscTwinBlockEnv *env, const void *args, size_t args_size, char *err,
                                           size_t err_cap) {
  if (args_size < 40) {
    std::snprintf(err, err_cap, "axpy_f32: argument blob of %zu bytes, need 40", args_size);
    return 1;
  }
  const uint32_t alpha_bits = static_cast<uint32_t>(Slot(args, 3));
  float alpha;
  std::memcpy(&alpha, &alpha_bits, 4);
  return RunAxpy(env, reinterpret_cast<const float *>(Slot(args, 0)), reinterpret_cast<const float *>(Slot(args, 1)),
                 reinterpret_cast<float *>(Slot(args, 2)), alpha, true, Slot(args, 4), err, err_cap);
}
