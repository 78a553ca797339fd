// The device process's log lines, written by a relay: the sandboxed device may open no file, so
// a child forked before the filters (unsandboxed, sharing no memory with kernels) receives each
// line as one record over a pipe (kLogFd) and writes it with the twin's logger to CANN's device
// log, debug/device-<id>/device-<host pid>_<stamp>.log. The relay ends when the pipe closes,
// i.e. when the device process ends, and trusts nothing it reads: a malformed record ends it.
#ifndef TWIN_RUNTIME_DEVICE_LOG_RELAY_H_
#define TWIN_RUNTIME_DEVICE_LOG_RELAY_H_

#include <string>

#include "twin/common/log/log.h"

namespace asc_twin::rt::device {

// Forks the relay and makes kLogFd the pipe's write end. Call before any thread starts and
// after ascend_twin::log::SetDeviceProcess. "" or what failed.
std::string StartLogRelay();

// One line to the device log through the relay. Async-signal-safe (the fault handlers use it):
// no allocation, one write(2) of at most PIPE_BUF bytes (longer text is cut). Returns the
// record's number (0: not sent).
uint32_t RelayLine(ascend_twin::log::Level level, const char *module, const char *file, int line, const char *text);

// Waits up to `timeout_ms` until the relay has written record `record` (before the device
// process ends: its end may end the relay too).
void AwaitRelayed(uint32_t record, int timeout_ms);

}  // namespace asc_twin::rt::device

#endif  // TWIN_RUNTIME_DEVICE_LOG_RELAY_H_
