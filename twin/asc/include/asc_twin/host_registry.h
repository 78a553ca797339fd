/* The C interface of libascendc_runtime.so (twin/runtime/launch) that bisheng's generated code
 * and asc_twin/host_launch.h call: kernel registration and launches. Plain C, no C++ library,
 * so bisheng's registration object compiles it in a few milliseconds. */
#ifndef ASC_TWIN_HOST_REGISTRY_H_
#define ASC_TWIN_HOST_REGISTRY_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One kernel of a device binary, as the host object that defines it registers it. */
typedef struct AscTwinHostKernel {
  const void *stub; /* host handle: the address of the kernel as host code sees it */
  const char *name; /* the kernel's name in the device binary (kernel=<name>) */
  uint32_t param_count;
  const uint32_t *param_sizes; /* sizeof of each parameter, in order */
} AscTwinHostKernel;

/* Called by the static constructor bisheng appends to every object with kernels. */
void __asc_twin_register_binary(const void *data, size_t size, const AscTwinHostKernel *kernels, size_t count);
/* aclrtLaunchKernel for a registered kernel; args[i] points at parameter i. Returns an aclError. */
int __asc_twin_launch(const void *stub, uint32_t blocks, void *stream, void **args);
/* The configuration of the next stub call: `<<<blocks, dynUBufSize, stream>>>` (an l2ctrl
 * pointer in slot 2 is given as dyn_ub_size 0). */
int __asc_twin_push_launch_config(uint32_t blocks, int64_t dyn_ub_size, void *stream);
/* ICPU_SET_TILING_KEY: the tiling key every later direct launch of this process carries. */
void __asc_twin_set_tiling_key(uint64_t key);
/* CPU-debug style: initializes ACL on first use, launches on the default stream and waits;
 * a trap is printed and returned (non-zero). */
int __asc_twin_run_sync(const void *stub, uint32_t blocks, void **args);
void *__asc_twin_gm_alloc(size_t size);
void __asc_twin_gm_free(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* ASC_TWIN_HOST_REGISTRY_H_ */
