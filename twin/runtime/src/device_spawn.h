// Starting the device executable (DeviceProcess::StartLocked): in new user, PID, mount and
// network namespaces where the kernel allows it without privileges, else in the host's (one
// warning per host process in the log says so, and why). Every start runs on one long-lived
// host thread: the device process's PR_SET_PDEATHSIG fires when the thread that started it
// ends, which must be the host process's end, not that of whichever thread did a launch.
#ifndef TWIN_RUNTIME_SRC_DEVICE_SPAWN_H_
#define TWIN_RUNTIME_SRC_DEVICE_SPAWN_H_

#include <sys/types.h>

#include <string>

namespace asc_twin::rt {

// `fds` become descriptors 3, 4, 5, 6 of the child (GM, control block, socket, executable; see
// device/protocol.h), every other descriptor is closed, signals are reset, and fd 6 is
// executed with `argv`. Returns the pid, or -1 with *error set.
pid_t SpawnDevice(const int fds[4], char *const argv[], std::string *error);

}  // namespace asc_twin::rt

#endif  // TWIN_RUNTIME_SRC_DEVICE_SPAWN_H_
