// What the parts of the device process share: the control block the host mapped for it and
// the device memory range (device_main.cc sets them at start-up, before any thread starts).
#ifndef TWIN_RUNTIME_DEVICE_DEVICE_STATE_H_
#define TWIN_RUNTIME_DEVICE_DEVICE_STATE_H_

#include <cstdint>

#include "twin/runtime/device/protocol.h"

namespace asc_twin::rt::device {

extern proto::ControlBlock *g_control;
extern uintptr_t g_gm_base;
extern uint64_t g_gm_size;

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_DEVICE_STATE_H_
