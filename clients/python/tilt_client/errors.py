"""The client's exceptions: a kind to branch on, and a message that says what went wrong and what to do.

The kinds are those of the Swift side, spelled as its enum cases are (``TiltClientErrorKind`` and
``TiltWire.WireErrorKind``), so ``err.kind == "daemonNotRunning"`` reads the same in both. Catch the exception
and switch over ``kind`` rather than matching the text.
"""

from __future__ import annotations

import enum
import errno as _errno
import os
import re
from typing import Optional, Tuple


class ClientErrorKind(str, enum.Enum):
    """What went wrong with the connection or the exchange (Swift's ``TiltClientErrorKind``)."""

    #: No daemon listens at the path: the socket file is missing (ENOENT) or nobody accepts (ECONNREFUSED).
    DAEMON_NOT_RUNNING = "daemonNotRunning"
    #: The socket exists but this user may not connect to it (EACCES, EPERM).
    PERMISSION_DENIED = "permissionDenied"
    #: The daemon did not accept, answer or send within the time allowed.
    TIMEOUT = "timeout"
    #: The daemon closed the connection before the exchange was over.
    CONNECTION_CLOSED = "connectionClosed"
    #: The daemon answered with an ``error`` message (see :class:`RefusedError`).
    REFUSED = "refused"
    #: The daemon's sensor stopped (a replay ``finished``) while frames were wanted.
    SENSOR_STOPPED = "sensorStopped"
    #: The connection could not be set up for another reason (path too long, no descriptors left).
    UNUSABLE_SOCKET = "unusableSocket"


class WireErrorKind(str, enum.Enum):
    """What is wrong with a protocol line (``TiltWire.WireErrorKind``, and the protocol's table of errors)."""

    #: Longer than the limit (the daemon's 64 KiB for commands; this client accepts 1 MiB from the daemon).
    LINE_TOO_LONG = "lineTooLong"
    #: Not JSON, or not one JSON object.
    NOT_AN_OBJECT = "notAnObject"
    #: A field has the wrong JSON type (``field`` names it).
    WRONG_TYPE = "wrongType"
    #: A command without ``cmd``.
    MISSING_COMMAND = "missingCommand"
    #: A command the protocol does not know (``command`` names it).
    UNKNOWN_COMMAND = "unknownCommand"
    #: A field's value is out of range (``field`` names it).
    BAD_VALUE = "badValue"
    #: A line from the daemon that is not a valid message of its class.
    MALFORMED_MESSAGE = "malformedMessage"
    #: The daemon's own complaint that is none of the above (tare refused, rate limit, daemon full).
    REPORTED = "reported"


class TiltError(Exception):
    """The base of every error this package raises: ``kind`` and ``message``."""

    def __init__(self, kind: enum.Enum, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return "%s(%s, %r)" % (type(self).__name__, self.kind.value, self.message)


class ClientError(TiltError):
    """A client-side failure; ``kind`` is a :class:`ClientErrorKind`."""

    kind: ClientErrorKind

    def __init__(self, kind: ClientErrorKind, message: str) -> None:
        super().__init__(ClientErrorKind(kind), message)


class WireError(TiltError):
    """A line that could not be understood; ``kind`` is a :class:`WireErrorKind`.

    Raised for a line from the daemon that is not a valid message (``malformedMessage``, ``lineTooLong``), and
    before sending for a command the daemon would refuse (``badValue``), with the daemon's own words.
    ``field`` names the field of ``wrongType`` and ``badValue``, ``command`` the command of ``unknownCommand``.
    """

    kind: WireErrorKind

    def __init__(
        self, kind: WireErrorKind, message: str, *, field: Optional[str] = None, command: Optional[str] = None
    ) -> None:
        super().__init__(WireErrorKind(kind), message)
        self.field = field
        self.command = command


class RefusedError(ClientError):
    """The daemon answered a command with an ``error`` message (kind ``refused``).

    ``wire_kind`` says what the daemon found wrong (a :class:`WireErrorKind` read off its message, as the
    protocol's table of errors words them), ``field`` / ``command`` what it named, ``closing`` whether the daemon
    closes the connection after it (daemon full, still flooding), and ``daemon_message`` its words.
    """

    def __init__(self, daemon_message: str) -> None:
        super().__init__(ClientErrorKind.REFUSED, "tiltd answered: " + daemon_message)
        self.daemon_message = daemon_message
        self.wire_kind, self.field, self.command = classify(daemon_message)
        self.closing = closes_connection(daemon_message)


_WRONG_TYPE = re.compile(r"^'([^']*)' has the wrong type")
_BAD_VALUE = re.compile(r"^'([^']*)' must be")
_UNKNOWN = re.compile(r"^unknown command '(.*)'; known commands")


def classify(message: str) -> Tuple[WireErrorKind, Optional[str], Optional[str]]:
    """The kind of a daemon ``error`` message, with the field and command it names: ``(kind, field, command)``.

    The words are the contract (docs/protocol.md, ``error``): each situation's message starts the same way.
    """
    m = _WRONG_TYPE.match(message)
    if m:
        return WireErrorKind.WRONG_TYPE, m.group(1), None
    m = _BAD_VALUE.match(message)
    if m:
        return WireErrorKind.BAD_VALUE, m.group(1), None
    if message.startswith("no magnetometer:"):
        return WireErrorKind.BAD_VALUE, "magnetometer", None
    m = _UNKNOWN.match(message)
    if m:
        return WireErrorKind.UNKNOWN_COMMAND, None, m.group(1)
    if message.startswith('missing "cmd"'):
        return WireErrorKind.MISSING_COMMAND, None, None
    if message.startswith("not a JSON object"):
        return WireErrorKind.NOT_AN_OBJECT, None, None
    if message.startswith("line too long"):
        return WireErrorKind.LINE_TOO_LONG, None, None
    return WireErrorKind.REPORTED, None, None


def closes_connection(message: str) -> bool:
    """Whether the daemon closes the connection after this ``error`` (daemon full, flooding past the limit)."""
    return message.startswith("the daemon is full") or (
        message.startswith("rate limit:") and message.endswith("disconnecting")
    )


def connect_failure(path: str, code: int) -> ClientError:
    """The failure to connect to ``path`` from the errno of connect(2), worded as ``tilt`` words it."""
    reason = os.strerror(code)
    if code in (_errno.ENOENT, _errno.ECONNREFUSED):
        return ClientError(
            ClientErrorKind.DAEMON_NOT_RUNNING,
            "cannot connect to tiltd at %s (%s); is tiltd running? Start it with `tiltd`, or pass --socket PATH"
            % (path, reason),
        )
    if code in (_errno.EACCES, _errno.EPERM):
        return ClientError(
            ClientErrorKind.PERMISSION_DENIED,
            "cannot connect to tiltd at %s (%s); this user may not use that socket: join the group that owns it "
            "(ls -l %s), or pass --socket PATH" % (path, reason, path),
        )
    if code in (_errno.EAGAIN, _errno.ETIMEDOUT):
        return ClientError(
            ClientErrorKind.TIMEOUT,
            "cannot connect to tiltd at %s (%s); the daemon does not accept connections, it may be overloaded or "
            "stuck (tilt status, journalctl -u tiltd)" % (path, reason),
        )
    if code in (_errno.EMFILE, _errno.ENFILE):
        return ClientError(
            ClientErrorKind.UNUSABLE_SOCKET, "cannot open a socket (%s); raise the open-file limit (ulimit -n)" % reason
        )
    return ClientError(
        ClientErrorKind.UNUSABLE_SOCKET,
        "cannot connect to tiltd at %s (%s); check the path, or pass --socket PATH" % (path, reason),
    )


def connection_lost(path: str, error: BaseException) -> ClientError:
    """A failure of the connection after it was made, in the user's words (the system's reason, the socket)."""
    if isinstance(error, ClientError):
        return error
    if isinstance(error, (ConnectionResetError, BrokenPipeError)):
        return ClientError(
            ClientErrorKind.CONNECTION_CLOSED, "tiltd at %s closed the connection (%s)" % (path, os.strerror(error.errno))
        )
    if isinstance(error, OSError) and error.errno is not None:
        return ClientError(
            ClientErrorKind.UNUSABLE_SOCKET,
            "the connection to tiltd at %s failed (%s); try again" % (path, os.strerror(error.errno)),
        )
    return ClientError(
        ClientErrorKind.UNUSABLE_SOCKET, "the connection to tiltd at %s failed unexpectedly (%s); try again" % (path, error)
    )
