// The entry shim the bisheng driver appends to every kernel translation
// unit: for each __global__ kernel it emits ASC_TWIN_KERNEL_ENTRY(name), which
// defines the exported symbols described in asc_twin/aicore_abi.h:
//
//   const AscTwinKernelInfo __asc_twin_info_<name>;
//   int __asc_twin_entry_<name>(env, args, args_size, err, err_cap);
//
// The parameter list is deduced from &name: every parameter occupies the next
// 8-byte-aligned slot of `args` (pointers and scalars one slot, a by-value
// struct sizeof rounded up to 8); a value is read from the start of its slot
// in the parameter's own type. No C++ exception leaves the entry function.
//
// Streaming GM stores (see WriteGmBlocks32) are fenced when the block ends unless the host sets
// ASC_TWIN_ENV_HOST_FENCES_STORES in env->flags (the runtime does: it fences once per run of
// blocks); a host that calls the entry directly and leaves flags 0 gets the per-block fence.
#ifndef ASC_TWIN_KERNEL_ENTRY_H_
#define ASC_TWIN_KERNEL_ENTRY_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <type_traits>
#include <utility>

#include "asc_twin/aicore_abi.h"
#include "asc_twin/block_state.h"
#include "asc_twin/trap.h"
#include "kernel_tiling_macros.h"

namespace AscendC {
namespace twin {

template <typename P>
constexpr uint32_t SlotBytes() {
  static_assert(!std::is_reference<P>::value, "kernel parameters cannot be references");
  static_assert(std::is_pointer<P>::value || std::is_arithmetic<P>::value || std::is_enum<P>::value ||
                    std::is_trivially_copyable<P>::value,
                "kernel parameters must be pointers, scalars or trivially copyable structs");
  return static_cast<uint32_t>((sizeof(P) + 7u) / 8u * 8u);
}

template <typename... P>
struct ArgLayout {
  static constexpr uint32_t kCount = sizeof...(P);
  static constexpr uint32_t kSize = (0u + ... + SlotBytes<P>());
  // Offset of parameter I: the slots of all parameters before it.
  template <size_t I>
  static constexpr uint32_t Offset() {
    constexpr uint32_t sizes[] = {SlotBytes<P>()..., 0u};
    uint32_t off = 0;
    for (size_t k = 0; k < I; ++k) off += sizes[k];
    return off;
  }
};

// kernel_type: the ASC_TWIN_KERNEL_TYPE_* bisheng read from the kernel's declaration
// (__mix__, __cube__, __vector__) or KERNEL_TASK_TYPE_DEFAULT in its body.
template <typename... P>
constexpr AscTwinKernelInfo MakeKernelInfo(void (*)(P...), uint32_t kernel_type = ASC_TWIN_KERNEL_TYPE_UNSET) {
  return AscTwinKernelInfo{ASC_TWIN_ABI_VERSION, ArgLayout<P...>::kCount, ArgLayout<P...>::kSize, kernel_type};
}

template <typename P>
inline P ReadSlot(const uint8_t* slot) {
  std::remove_cv_t<P> v;
  std::memcpy(static_cast<void*>(&v), slot, sizeof(P));
  return v;
}

// Not inlined: the kernel's reads of the block slot (SlotBlock, block_state.h) must not be moved
// before the entry publishes the block's state in the slot, nor after it takes it back.
template <typename... P, size_t... I>
__attribute__((noinline)) void InvokeKernel(void (*fn)(P...), const uint8_t* args, std::index_sequence<I...>) {
  (void)args;
  fn(ReadSlot<P>(args + ArgLayout<P...>::template Offset<I>())...);
}

inline void WriteError(char* err, size_t cap, const char* msg) {
  if (err == nullptr || cap == 0) return;
  std::snprintf(err, cap, "%s", msg);
  // One line: the runtime prefixes kernel and block.
  for (char* p = err; *p; ++p) {
    if (*p == '\n' || *p == '\r') *p = ' ';
  }
}

// Installs the block state for one call (and publishes it in the host's block slot) and
// clears it on every exit path; the slot gets its old value back after the clear.
class BlockScope {
 public:
  explicit BlockScope(const AscTwinBlockEnv* env) : state_(g_block), slot_(env, &state_) { InstallBlock(env, state_); }
  ~BlockScope() { ClearBlock(state_); }
  BlockScope(const BlockScope&) = delete;
  BlockScope& operator=(const BlockScope&) = delete;
  BlockState& state() { return state_; }

 private:
  BlockState& state_;  // g_block, looked up once per block
  BlockSlotScope slot_;
};

// What the launch trailer gives the block (aicore_abi.h): the tiling key TILING_KEY_IS reads
// and the dynamic UB, taken from the top of the UB the static allocations (TPipe,
// LocalMemAllocator, LocalTensor) may use. Undone on every exit path.
class LaunchScope {
 public:
  LaunchScope(const AscTwinLaunchTrailer& t, BlockState& state) {
    g_tilingKey = t.tiling_key;
    state.ub_size -= t.dyn_ub_size;
  }
  ~LaunchScope() { g_tilingKey = 0; }
  LaunchScope(const LaunchScope&) = delete;
  LaunchScope& operator=(const LaunchScope&) = delete;
};

template <typename... P>
inline int RunKernelBlock(void (*fn)(P...), const AscTwinBlockEnv* env, const void* args, size_t args_size, char* err,
                          size_t err_cap) noexcept {
  char msg[512];
  if (env == nullptr) {
    WriteError(err, err_cap, "kernel entry: env is NULL");
    return 1;
  }
  if (env->struct_size < kMinEnvSize) {
    std::snprintf(msg, sizeof(msg),
                  "kernel entry: env struct_size %u is below the %u bytes every ABI %u env holds (rebuild the host)",
                  env->struct_size, kMinEnvSize, ASC_TWIN_ABI_VERSION);
    WriteError(err, err_cap, msg);
    return 1;
  }
  if (env->abi_version != ASC_TWIN_ABI_VERSION) {
    std::snprintf(msg, sizeof(msg),
                  "kernel entry: env abi_version %u, kernel built for twin ABI %u (rebuild the kernel or the host)",
                  env->abi_version, ASC_TWIN_ABI_VERSION);
    WriteError(err, err_cap, msg);
    return 1;
  }
  AscTwinLaunchTrailer launch{ASC_TWIN_LAUNCH_TRAILER_MAGIC, 0u, 0u, 0u};  // key 0, no dynamic UB
  if (args != nullptr && args_size == ArgLayout<P...>::kSize + sizeof(AscTwinLaunchTrailer)) {
    std::memcpy(&launch, static_cast<const uint8_t*>(args) + ArgLayout<P...>::kSize, sizeof(launch));
    if (launch.magic == ASC_TWIN_LAUNCH_TRAILER_MAGIC) args_size = ArgLayout<P...>::kSize;
  }
  if (args_size != ArgLayout<P...>::kSize || (args == nullptr && args_size != 0)) {
    std::snprintf(msg, sizeof(msg), "kernel entry: argument blob of %zu bytes, kernel takes %u bytes (%u parameters)",
                  args == nullptr ? size_t{0} : args_size, ArgLayout<P...>::kSize, ArgLayout<P...>::kCount);
    WriteError(err, err_cap, msg);
    return 1;
  }
  if (env->core_type != ASC_TWIN_CORE_AIV && env->core_type != ASC_TWIN_CORE_AIC) {
    std::snprintf(msg, sizeof(msg), "kernel entry: env core_type %u is neither AIC (1) nor AIV (2)", env->core_type);
    WriteError(err, err_cap, msg);
    return 1;
  }
  if (env->core_type == ASC_TWIN_CORE_AIV && env->mem[ASC_TWIN_MEM_UB].base == nullptr) {
    WriteError(err, err_cap, "kernel entry: env gives the AIV block no UB (mem[ASC_TWIN_MEM_UB] is NULL)");
    return 1;
  }
  for (uint32_t m = 0; m < ASC_TWIN_MEM_COUNT; ++m) {
    if (reinterpret_cast<uintptr_t>(env->mem[m].base) % 32 != 0) {
      std::snprintf(msg, sizeof(msg), "kernel entry: env local memory %s is not 32-byte aligned",
                    CoreBufferName(static_cast<CoreBuffer>(m)));
      WriteError(err, err_cap, msg);
      return 1;
    }
  }
  const uint32_t block_idx = EnvField(env->block_idx);  // just stored by the runtime: no wide load
  // An AIV of a MIX_AIC_1_2 launch counts [0, 2 * block_num) (GetBlockIdx on the AIVs).
  const uint64_t blocks = uint64_t{env->block_num} *
                          (env->core_type == ASC_TWIN_CORE_AIV && env->sub_block_num > 1 ? env->sub_block_num : 1u);
  if (env->block_num == 0 || block_idx >= blocks) {
    std::snprintf(msg, sizeof(msg), "kernel entry: block_idx %u not below block_num %llu", block_idx,
                  static_cast<unsigned long long>(blocks));
    WriteError(err, err_cap, msg);
    return 1;
  }
#ifdef __NPU_ARCH__
  if (env->npu_arch != static_cast<uint32_t>(__NPU_ARCH__)) {
    std::snprintf(msg, sizeof(msg), "kernel entry: kernel built for NpuArch %u, device is NpuArch %u",
                  static_cast<unsigned>(__NPU_ARCH__), env->npu_arch);
    WriteError(err, err_cap, msg);
    return 1;
  }
#endif
  const uint64_t ub_size = env->mem[ASC_TWIN_MEM_UB].base != nullptr ? env->mem[ASC_TWIN_MEM_UB].size : 0;
  if (launch.dyn_ub_size > ub_size) {
    std::snprintf(msg, sizeof(msg), "kernel entry: dynamic UB of %llu bytes exceeds the block's UB of %llu bytes",
                  static_cast<unsigned long long>(launch.dyn_ub_size), static_cast<unsigned long long>(ub_size));
    WriteError(err, err_cap, msg);
    return 1;
  }
  try {
    BlockScope scope(env);
    LaunchScope launch_scope(launch, scope.state());
    InvokeKernel(fn, static_cast<const uint8_t*>(args), std::index_sequence_for<P...>{});
    CheckNoEventRaised(scope.state().events);  // a SetFlag never waited for would leave the NPU's event set
    return 0;
  } catch (const Trap& t) {
    WriteError(err, err_cap, t.what());
  } catch (const std::exception& e) {
    std::snprintf(msg, sizeof(msg), "C++ exception: %s", e.what());
    WriteError(err, err_cap, msg);
  } catch (...) {
    WriteError(err, err_cap, "unknown C++ exception");
  }
  return 1;
}

}  // namespace twin
}  // namespace AscendC

#define ASC_TWIN_KERNEL_ENTRY(name)                                                                        \
  extern "C" __attribute__((visibility("default"), used)) const AscTwinKernelInfo __asc_twin_info_##name = \
      ::AscendC::twin::MakeKernelInfo(&name, ASC_TWIN_UNDECLARED_KERNEL_TYPE);                             \
  extern "C" __attribute__((visibility("default"), used)) int __asc_twin_entry_##name(                     \
      const AscTwinBlockEnv* env, const void* args, size_t args_size, char* err, size_t err_cap) {         \
    return ::AscendC::twin::RunKernelBlock(&name, env, args, args_size, err, err_cap);                     \
  }

// The same for a kernel the driver names by a function pointer expression (a template
// instantiation `&ns::k<float>`, one of overloads `static_cast<void (*)(uint8_t*)>(&k)`) and a
// symbol suffix (its mangled name):
//   ASC_TWIN_KERNEL_ENTRY_AS(_Z1kIfEvPf, &k<float>)
// and with its kernel type (ASC_TWIN_KERNEL_TYPE_*):
//   ASC_TWIN_KERNEL_ENTRY_TYPED(_Z1kIfEvPf, ASC_TWIN_KERNEL_TYPE_MIX_AIC_1_2, &k<float>)
// A kernel that declares no type gets ASC_TWIN_UNDECLARED_KERNEL_TYPE: unset (vector blocks)
// unless a header the kernel uses says what CANN's compiler would make of it (lib/matmul_intf.h:
// a Matmul kernel is MIX_AIC_1_2); read where the entry is expanded, after every include.
#ifndef ASC_TWIN_UNDECLARED_KERNEL_TYPE
#define ASC_TWIN_UNDECLARED_KERNEL_TYPE ASC_TWIN_KERNEL_TYPE_UNSET
#endif
#define ASC_TWIN_KERNEL_ENTRY_AS(sym, ...)                                                                \
  extern "C" __attribute__((visibility("default"), used)) const AscTwinKernelInfo __asc_twin_info_##sym = \
      ::AscendC::twin::MakeKernelInfo(__VA_ARGS__, ASC_TWIN_UNDECLARED_KERNEL_TYPE);                      \
  extern "C" __attribute__((visibility("default"), used)) int __asc_twin_entry_##sym(                     \
      const AscTwinBlockEnv* env, const void* args, size_t args_size, char* err, size_t err_cap) {        \
    return ::AscendC::twin::RunKernelBlock(__VA_ARGS__, env, args, args_size, err, err_cap);              \
  }

#define ASC_TWIN_KERNEL_ENTRY_TYPED(sym, type, ...)                                                       \
  extern "C" __attribute__((visibility("default"), used)) const AscTwinKernelInfo __asc_twin_info_##sym = \
      ::AscendC::twin::MakeKernelInfo(__VA_ARGS__, type);                                                 \
  extern "C" __attribute__((visibility("default"), used)) int __asc_twin_entry_##sym(                     \
      const AscTwinBlockEnv* env, const void* args, size_t args_size, char* err, size_t err_cap) {        \
    return ::AscendC::twin::RunKernelBlock(__VA_ARGS__, env, args, args_size, err, err_cap);              \
  }

namespace AscendC {
namespace twin {

// sizeof and kind of each parameter, for the host side's registration of the kernel and the
// generated aclrtlaunch_<kernel> functions (bisheng reads these records back from the compiled
// entries and does not keep them in the device binary). Kinds: 0 pointer, 1 signed integer,
// 2 unsigned integer (and bool), 3 floating point, 4 other (struct, half, enum class ...).
struct ParamSizeRecord {
  uint32_t count;
  uint32_t sizes[63];
  uint32_t kinds[63];
  uint32_t reserved;
};

template <typename P>
constexpr uint32_t ParamKind() {
  using T = std::remove_cv_t<P>;
  if constexpr (std::is_pointer<T>::value) {
    return 0u;
  } else if constexpr (std::is_integral<T>::value) {
    return std::is_signed<T>::value ? 1u : 2u;
  } else if constexpr (std::is_floating_point<T>::value) {
    return 3u;
  } else {
    return 4u;
  }
}

template <typename... P>
constexpr ParamSizeRecord MakeParamSizeRecord(void (*)(P...)) {
  static_assert(sizeof...(P) <= 63, "a kernel takes at most 63 parameters");
  ParamSizeRecord r{
      static_cast<uint32_t>(sizeof...(P)), {static_cast<uint32_t>(sizeof(P))...}, {ParamKind<P>()...}, 0u};
  return r;
}

}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_ENTRY_H_
