"""A Python client for tiltd, the tilt daemon: its wire protocol v1 (docs/protocol.md), standard library only.

Blocking::

    import tilt_client
    with tilt_client.connect() as c:            # --socket, $TILTD_SOCKET, $XDG_RUNTIME_DIR/tiltd.sock, ...
        c.watch(rate=30, predict=0.03)
        for frame in c.frames():
            print(frame.seq, frame.tilt.x, frame.tilt.y)

Reconnecting (as TiltSubscriber)::

    for frame in tilt_client.Subscriber(rate=60).frames():
        ...

asyncio: :class:`AsyncClient`, :class:`AsyncSubscriber` (``tilt_client.aio``).
"""

from .aio import AsyncClient, AsyncSubscriber
from .aio import connect as connect_async
from .client import BACKLOG, Backoff, Client, Connected, Disconnected, Event, Subscriber, connect
from .commands import Watch
from .errors import ClientError, ClientErrorKind, RefusedError, TiltError, WireError, WireErrorKind
from .messages import (
    DEFAULT_RATE,
    DSU,
    MAX_LINE_LENGTH,
    MAX_PREDICT,
    MAX_RATE,
    MESSAGE_CLASSES,
    MIN_RATE,
    PROTOCOL_VERSION,
    STANDARD_GRAVITY,
    Attitude,
    Busy,
    ErrorMessage,
    Euler,
    Flags,
    Gap,
    Hello,
    Message,
    Orientation,
    Power,
    Quaternion,
    Sample,
    SensorEvent,
    SensorInfo,
    Status,
    StatusClient,
    Tare,
    Tilt,
    UnknownMessage,
    Vector,
    decode,
)
from .socketpath import SYSTEM_SOCKET, resolve, resolve_for_client

__version__ = "0.1.0"

__all__ = [
    "AsyncClient", "AsyncSubscriber", "connect_async", "BACKLOG", "Backoff", "Client", "Connected",
    "Disconnected", "Event", "Subscriber", "connect", "Watch", "ClientError", "ClientErrorKind", "RefusedError",
    "TiltError", "WireError", "WireErrorKind", "DEFAULT_RATE", "DSU", "MAX_LINE_LENGTH", "MAX_PREDICT", "MAX_RATE",
    "MESSAGE_CLASSES", "MIN_RATE", "PROTOCOL_VERSION", "STANDARD_GRAVITY", "Attitude", "Busy", "ErrorMessage",
    "Euler", "Flags", "Gap", "Hello", "Message", "Orientation", "Power", "Quaternion", "Sample", "SensorEvent",
    "SensorInfo", "Status", "StatusClient", "Tare", "Tilt", "UnknownMessage", "Vector", "decode", "SYSTEM_SOCKET",
    "resolve", "resolve_for_client", "__version__",
]
