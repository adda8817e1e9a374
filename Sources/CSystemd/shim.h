#ifndef TILT_CSYSTEMD_SHIM_H
#define TILT_CSYSTEMD_SHIM_H
// sd-bus from libsystemd (Debian: libsystemd-dev), the D-Bus client the power probe uses.
#include <systemd/sd-bus.h>
// sd-daemon: socket activation (sd_listen_fds) and readiness notification (sd_notify) for tiltd.
#include <systemd/sd-daemon.h>
#endif
