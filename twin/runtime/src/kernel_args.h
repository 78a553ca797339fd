// The host-side argument list behind an aclrtArgsHandle (aclrtKernelArgs*): CANN's layout and
// ordering rules, with nothing device-specific. The launch (acl_kernel_args_api.cc) turns it
// into the packed 8-byte-slot blob of an ordinary launch plus one device copy of the
// placeholder data.
//
// Layout, as CANN's: every parameter starts at the next multiple of 8 bytes of `buffer`; a
// placeholder is an 8-byte slot. Placeholder buffers (the data area) follow the last parameter,
// each at the next multiple of 8; once one is taken no parameter may be appended. Finalize
// closes the list; ParaUpdate reopens it until the next Finalize.
#ifndef TWIN_RUNTIME_SRC_KERNEL_ARGS_H_
#define TWIN_RUNTIME_SRC_KERNEL_ARGS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "twin/runtime/internal/status.h"

namespace asc_twin::rt {

constexpr uint32_t kMaxKernelArgsParams = 128;       // CANN's MAX_PARAM_CNT
constexpr size_t kKernelArgsBufferSize = 64 * 1024;  // CANN's MAX_ARGS_BUFF_SIZE (aclrtKernelArgsInit)

struct KernelArgsParam {
  bool placeholder = false;
  bool has_buffer = false;  // placeholder: aclrtKernelArgsGetPlaceHolderBuffer was called
  uint32_t size = 0;        // bytes appended (8 for a placeholder slot)
  size_t offset = 0;        // of the parameter in the buffer
  size_t data_offset = 0;   // placeholder: of its data in the buffer
};

// Plain data: aclrtKernelArgsInitByUserMem places it in caller memory.
struct KernelArgs {
  uint64_t magic = 0;
  const void *function = nullptr;  // the aclrtFuncHandle it was initialized for
  uint8_t *buffer = nullptr;
  size_t capacity = 0;
  size_t used = 0;        // bytes laid out (parameters, then data)
  size_t params_end = 0;  // end of the parameter area
  size_t data_begin = 0;  // start of the data area (valid once a placeholder buffer was taken)
  uint32_t count = 0;
  uint32_t max_params = 0;
  bool data_started = false;
  bool finalized = false;
  bool updating = false;
  KernelArgsParam params[kMaxKernelArgsParams];
};

// Starts an empty list over buffer[0, capacity). Registers `args` as a live handle.
void InitKernelArgs(KernelArgs *args, const void *function, uint8_t *buffer, size_t capacity, uint32_t max_params);
// This thread's list for aclrtKernelArgsInit (CANN keeps one per thread: each Init reuses it).
KernelArgs *ThreadKernelArgs(uint8_t **buffer);

// The live list at `handle`, or ACL_ERROR_RT_INVALID_HANDLE naming `api` (never dereferences
// an unknown pointer).
StatusOr<KernelArgs *> FindKernelArgs(const char *api, void *handle);
// The parameter `handle` of `args`, or ACL_ERROR_RT_INVALID_HANDLE.
StatusOr<KernelArgsParam *> FindParam(const char *api, KernelArgs &args, void *handle);

// The operations; each fails with CANN's code and one line naming `api` and the cause.
StatusOr<KernelArgsParam *> AppendParam(const char *api, KernelArgs &args, const void *value, size_t size);
StatusOr<KernelArgsParam *> AppendPlaceholder(const char *api, KernelArgs &args);
StatusOr<void *> PlaceholderBuffer(const char *api, KernelArgs &args, KernelArgsParam &param, size_t size);
Status UpdateParam(const char *api, KernelArgs &args, KernelArgsParam &param, const void *value, size_t size);
Status FinalizeKernelArgs(KernelArgs &args);
// Ready to launch: finalized, not being updated, every placeholder has its buffer.
Status CheckLaunchable(const char *api, const KernelArgs &args);

std::string HexAddress(const void *ptr);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_SRC_KERNEL_ARGS_H_
