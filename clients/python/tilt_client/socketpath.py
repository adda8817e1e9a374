"""Where the daemon's socket is, resolved as tiltd and ``tilt`` resolve it (``TiltWire.SocketPath``)."""

from __future__ import annotations

import os
import stat
from typing import Callable, Mapping, Optional

#: The system service's socket (``dist/tiltd.socket``).
SYSTEM_SOCKET = "/run/tiltd/tiltd.sock"

#: The longest path a Unix socket address holds (``sun_path`` less its terminating NUL), bytes.
MAX_LENGTH = 107


def is_socket(path: str) -> bool:
    """Whether ``path`` names a Unix socket file."""
    try:
        return stat.S_ISSOCK(os.stat(path).st_mode)
    except OSError:
        return False


def resolve(explicit: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """The path the daemon uses: ``explicit`` (``--socket``) if given, else ``$TILTD_SOCKET``, else
    ``$XDG_RUNTIME_DIR/tiltd.sock``, else ``/run/tiltd/tiltd.sock`` for root and ``/tmp/tiltd-UID.sock`` for others.
    """
    if explicit:
        return explicit
    env = os.environ if environ is None else environ
    named = env.get("TILTD_SOCKET")
    if named:
        return named
    runtime = env.get("XDG_RUNTIME_DIR")
    if runtime:
        return runtime + "/tiltd.sock"
    uid = os.getuid()
    return SYSTEM_SOCKET if uid == 0 else "/tmp/tiltd-%d.sock" % uid


def resolve_for_client(
    explicit: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    exists: Callable[[str], bool] = is_socket,
) -> str:
    """The path a client connects to: as :func:`resolve`, except that when neither ``explicit`` nor
    ``$TILTD_SOCKET`` names a socket and none is at the per-user path, the system service's socket is used if one
    is there. So a per-user daemon is found first, and the one started by ``tiltd.socket`` otherwise.
    """
    path = resolve(explicit, environ)
    if explicit:
        return path
    env = os.environ if environ is None else environ
    if env.get("TILTD_SOCKET"):
        return path
    if not exists(path) and exists(SYSTEM_SOCKET):
        return SYSTEM_SOCKET
    return path
