// Host side of Ascend C kernel launches in programs built by bisheng (ascend-twin).
//
// bisheng compiles the host code of a .asc in clang's CUDA host mode: `k<<<blocks, l2ctrl,
// stream>>>(args)` calls __cudaPushCallConfiguration (declared in asc_twin/host_prelude.h) and
// then the kernel's host stub, which calls cudaLaunchKernel with the stub's own address and a
// `void*` per argument. Both end in __asc_twin_launch (libascendc_runtime.so), which finds the
// kernel in the device binary registered by the object that defines it (bisheng appends the
// registration, see tools/bisheng/README.md) and calls aclrtLaunchKernel: asynchronous on the
// stream, one block per host thread, traps reported by aclrtSynchronizeStream.
//
// This header also gives the two other launch styles CANN users write:
//   ACLRT_LAUNCH_KERNEL(k)(numBlocks, stream, args...)     -- CANN's generated aclrtlaunch_k
//   ICPU_RUN_KF(k, numBlocks, args...)                      -- CPU-debug (tikicpulib.h), synchronous
// It is included in both passes of bisheng; in the device pass (plain C++) host code is
// compiled but dropped by the linker, so these helpers are never called there.
#ifndef ASC_TWIN_HOST_LAUNCH_H_
#define ASC_TWIN_HOST_LAUNCH_H_

#include <stddef.h>
#include <stdint.h>

#include "asc_twin/host_registry.h"

#ifdef __cplusplus
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace twin_host {

// A launch argument converted to the kernel's parameter type: pointers of any type (CANN's
// generated launchers take GM pointers as void*), scalars, and a by-value struct given by value
// or by pointer (CANN's aclrtlaunch_* take the tiling struct as a pointer).
template <typename P, typename A>
inline P ToParam(A&& a) {
  using D = std::decay_t<A>;
  if constexpr (std::is_class<P>::value && std::is_pointer<D>::value) {
    return *a;
  } else if constexpr (std::is_pointer<P>::value && std::is_pointer<D>::value) {
    return (P)(a);
  } else if constexpr (std::is_pointer<P>::value && std::is_same<D, std::nullptr_t>::value) {
    return nullptr;
  } else {
    return static_cast<P>(std::forward<A>(a));
  }
}

template <typename... P>
struct Launcher {
  void (*fn)(P...);

  template <typename Tuple, size_t... I>
  static void Pointers(Tuple& values, void** argv, std::index_sequence<I...>) {
    ((argv[I] = static_cast<void*>(&std::get<I>(values))), ...);
  }

  template <typename... A>
  uint32_t operator()(uint32_t numBlocks, void* stream, A&&... a) const {
    static_assert(sizeof...(A) == sizeof...(P),
                  "ACLRT_LAUNCH_KERNEL: the argument count does not match the kernel's parameters");
    std::tuple<std::remove_cv_t<P>...> values(ToParam<P>(std::forward<A>(a))...);
    void* argv[sizeof...(P) + 1] = {nullptr};
    Pointers(values, argv, std::index_sequence_for<P...>{});
    return static_cast<uint32_t>(__asc_twin_launch(reinterpret_cast<const void*>(fn), numBlocks, stream, argv));
  }

  template <typename... A>
  int RunSync(uint32_t numBlocks, A&&... a) const {
    static_assert(sizeof...(A) == sizeof...(P),
                  "ICPU_RUN_KF: the argument count does not match the kernel's parameters");
    std::tuple<std::remove_cv_t<P>...> values(ToParam<P>(std::forward<A>(a))...);
    void* argv[sizeof...(P) + 1] = {nullptr};
    Pointers(values, argv, std::index_sequence_for<P...>{});
    return __asc_twin_run_sync(reinterpret_cast<const void*>(fn), numBlocks, argv);
  }
};

template <typename... P>
inline Launcher<P...> MakeLauncher(void (*fn)(P...)) {
  return Launcher<P...>{fn};
}

}  // namespace twin_host
}  // namespace AscendC

// CANN: `ACLRT_LAUNCH_KERNEL(add_custom)(numBlocks, stream, x, y, z)`, returning 0 on success.
// Templated kernels: ACLRT_LAUNCH_KERNEL(add_kernel<float>)(...).
#ifndef ACLRT_LAUNCH_KERNEL
#define ACLRT_LAUNCH_KERNEL(...) ::AscendC::twin_host::MakeLauncher(&__VA_ARGS__)
#endif

#endif  // __cplusplus

#endif  // ASC_TWIN_HOST_LAUNCH_H_
