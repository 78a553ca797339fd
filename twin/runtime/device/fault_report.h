// The device process's fault reports: which block each thread runs (for the host's watchdog and
// for a fault's message), the fatal-signal and exit() handlers, and the one crash line a dying
// device process leaves in the control block ("kernel K block B: cause").
#ifndef TWIN_RUNTIME_DEVICE_FAULT_REPORT_H_
#define TWIN_RUNTIME_DEVICE_FAULT_REPORT_H_

#include <cstdint>

#include "twin/runtime/internal/launch.h"

namespace asc_twin::rt::device {

// Gives the calling thread its running-block slot, its stack bounds and a signal stack.
void PrepareThread();
// launch.h's BlockMarkFn: the block the calling thread runs (UINT32_MAX: none).
void MarkBlock(const LaunchRequest &request, uint32_t block);
// The kernel (nullptr: none) and launch slot the calling thread works for, outside any block.
void SetThreadLaunch(const char *kernel, uint32_t launch_slot);
// Publishes `line` as the fault of launch slot `launch_slot` (the first fault wins), logs it,
// and wakes every waiting host thread.
void PublishCrash(uint32_t launch_slot, const char *line);
// The same with the calling thread's kernel and block in front of the cause.
void WriteCrash(const char *cause_format, ...) __attribute__((format(printf, 1, 2)));
void InstallFaultHandlers();

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_FAULT_REPORT_H_
