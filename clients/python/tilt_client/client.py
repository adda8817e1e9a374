"""The blocking API: :class:`Client` (one connection) and :class:`Subscriber` (reconnects with backoff)."""

from __future__ import annotations

import errno as _errno
import socket as _socket
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable, Deque, Iterator, Optional, Union

from . import commands
from .commands import Watch
from .errors import (
    ClientError,
    ClientErrorKind,
    RefusedError,
    WireError,
    connect_failure,
    connection_lost,
)
from .lines import LineBuffer
from .messages import (
    DEFAULT_RATE,
    Attitude,
    ErrorMessage,
    Hello,
    Message,
    SensorEvent,
    Status,
    Tare,
)
from .socketpath import resolve_for_client

#: Messages kept for :meth:`Client.messages` while a request waits for its answer (the oldest go first).
BACKLOG = 256


class Backoff:
    """A wait that doubles each time it is taken, from ``initial`` up to ``maximum`` seconds, and starts over after
    a success (``TiltCore.Backoff``; ``TiltSubscriber`` waits from 0.1 s, doubling, up to 5 s).
    """

    def __init__(self, initial: float = 0.1, maximum: float = 5.0) -> None:
        self.initial = initial
        self.maximum = max(maximum, initial)
        self.current = initial

    def next(self) -> float:
        """The wait to take now; the one after is twice as long, at most ``maximum``."""
        wait = self.current
        self.current = min(self.current * 2, self.maximum)
        return wait

    def reset(self) -> None:
        self.current = self.initial

    def __repr__(self) -> str:
        return "Backoff(initial=%r, maximum=%r)" % (self.initial, self.maximum)


@dataclass(frozen=True)
class Connected:
    """A subscriber connected; the daemon's greeting (not also reported as a message)."""

    hello: Hello


@dataclass(frozen=True)
class Disconnected:
    """The connection is gone (or could not be made); the subscriber retries if configured to."""

    reason: str


Event = Union[Connected, Disconnected, Message]


def open_socket(path: str, timeout: float) -> _socket.socket:
    """A stream socket connected to ``path``, with the errors ``tilt`` gives (``DaemonSocket.connect``)."""
    if len(path.encode()) > 107:
        raise ClientError(
            ClientErrorKind.UNUSABLE_SOCKET,
            "socket path %s is too long for a Unix socket (%d bytes; at most 107); pass a shorter --socket PATH"
            % (path, len(path.encode())),
        )
    try:
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except OSError as e:
        raise connect_failure(path, e.errno or _errno.EMFILE) from None
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except _socket.timeout:
        sock.close()
        raise connect_failure(path, _errno.ETIMEDOUT) from None
    except OSError as e:
        sock.close()
        raise connect_failure(path, e.errno or _errno.ECONNREFUSED) from None
    return sock


class Client:
    """One connection to tiltd, blocking. Use from one thread (:class:`Subscriber` may be steered from others).

    ::

        with tilt_client.connect() as c:
            c.watch(rate=30)
            for frame in c.frames():
                print(frame.tilt)
    """

    def __init__(self, sock: _socket.socket, path: str) -> None:
        self._sock = sock
        self.path = path
        self._lines = LineBuffer()
        self._backlog: Deque[Message] = deque(maxlen=BACKLOG)
        self._timeout: Optional[float] = -1.0
        self._closed = False
        self._eof = False
        self._send_lock = threading.Lock()
        #: The daemon's greeting.
        self.hello: Hello

    @classmethod
    def connect(cls, socket: Optional[str] = None, timeout: float = 5.0) -> "Client":
        """Connects to tiltd (``socket``, else ``$TILTD_SOCKET``, else ``$XDG_RUNTIME_DIR/tiltd.sock``, …) and reads
        its ``hello``. Raises :class:`ClientError` (``daemonNotRunning``, ``permissionDenied``, ``timeout``, …), or
        :class:`RefusedError` when the daemon is full.
        """
        path = resolve_for_client(socket)
        client = cls(open_socket(path, timeout), path)
        try:
            client._greet(timeout)
        except BaseException:
            client.close()
            raise
        return client

    def _greet(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline, what="greet")
            if isinstance(m, Hello):
                self.hello = m
                return
            if isinstance(m, ErrorMessage):
                raise RefusedError(m.message)
            self._backlog.append(m)

    # -- sending ---------------------------------------------------------------------------------------------------

    def send(self, line: bytes) -> None:
        """Sends one command line (with its newline); safe from any thread."""
        with self._send_lock:
            try:
                self._sock.sendall(line)
            except OSError as e:
                raise connection_lost(self.path, e) from None

    def watch(
        self,
        rate: Optional[float] = DEFAULT_RATE,
        *,
        raw: bool = False,
        screen_rotation: int = 0,
        magnetometer: Optional[bool] = None,
        predict: float = 0.0,
    ) -> None:
        """Streams frames at most ``rate`` Hz (the daemon grants 0.1 … 1000; ``None``: its default, 60), in the
        axes of a picture the display turns ``screen_rotation`` degrees, predicted ``predict`` s ahead (0 … 0.1),
        with every raw ``sample`` if ``raw``. No answer comes; frames start with the next fused sample. Raises
        :class:`WireError` (``badValue``) for a value the daemon would refuse.
        """
        self.send(
            Watch(rate, True, raw, screen_rotation, magnetometer, predict).line()
        )

    def unwatch(self) -> None:
        """Stops this connection's frames (``watch`` with ``enable:false``)."""
        self.send(Watch(None, enable=False).line())

    def status(self, timeout: float = 5.0) -> Status:
        """The daemon's state and this connection's counters."""
        return self._request(commands.STATUS, lambda m: isinstance(m, Status), timeout)  # type: ignore[return-value]

    def poll(self, timeout: float = 5.0) -> Attitude:
        """One frame: the latest at once if the sensor runs, else the next fused one (the sensor is started)."""
        return self._request(commands.POLL, lambda m: isinstance(m, Attitude), timeout)  # type: ignore[return-value]

    def tare(self, reset: bool = False, timeout: float = 5.0) -> Tare:
        """Re-centres the tilt on the current pose, for every client (``reset``: undoes every tare). Raises
        :class:`RefusedError` when this user may not (only the daemon's user, root and ``admin_group``).
        """
        return self._request(commands.tare_line(reset), lambda m: isinstance(m, Tare), timeout)  # type: ignore

    def _request(self, line: bytes, accept: Callable[[Message], bool], timeout: float) -> Message:
        # Answers come in the order of the commands; frames and events between them are kept for messages().
        self.send(line)
        deadline = time.monotonic() + timeout
        skipped = []
        try:
            while True:
                m = self._read(deadline, what="answer")
                if isinstance(m, ErrorMessage):
                    raise RefusedError(m.message)
                if accept(m):
                    if isinstance(m, Attitude):
                        skipped.append(m)
                    return m
                skipped.append(m)
        finally:
            self._backlog.extend(skipped)

    # -- receiving -------------------------------------------------------------------------------------------------

    def read(self, timeout: Optional[float] = None) -> Message:
        """The next message (a frame, an event, an answer). Raises :class:`ClientError` ``timeout`` after
        ``timeout`` seconds without one, ``connectionClosed`` when the daemon closes, and :class:`WireError` for a
        line that is not a valid message (the connection goes on).
        """
        if self._backlog:
            return self._backlog.popleft()
        return self._read(None if timeout is None else time.monotonic() + timeout, what="message")

    def messages(self, timeout: Optional[float] = None) -> Iterator[Message]:
        """Every message as it comes, until :meth:`close` (which ends the iteration) or the daemon closes (which
        raises ``connectionClosed``). ``timeout`` bounds the wait for each.
        """
        while not self._closed:
            try:
                yield self.read(timeout)
            except ClientError:
                if self._closed:
                    return
                raise

    def frames(self, timeout: Optional[float] = None) -> Iterator[Attitude]:
        """Only the ``attitude`` frames. An ``error`` from the daemon (a refused ``watch``) raises
        :class:`RefusedError`; a replay that ``finished`` raises ``sensorStopped`` (no frame will come).
        """
        for m in self.messages(timeout):
            if isinstance(m, Attitude):
                yield m
            elif isinstance(m, ErrorMessage):
                raise RefusedError(m.message)
            elif isinstance(m, SensorEvent) and m.state == "finished":
                raise ClientError(ClientErrorKind.SENSOR_STOPPED, "the sensor is %s: %s" % (m.state, m.reason))

    def _read(self, deadline: Optional[float], what: str) -> Message:
        while True:
            m = self._lines.next_message()
            if m is not None:
                return m
            if self._eof:
                raise ClientError(
                    ClientErrorKind.CONNECTION_CLOSED,
                    "tiltd at %s closed the connection%s"
                    % (self.path, " before answering" if what == "answer" else ""),
                )
            if deadline is None:
                timeout = None
            else:
                timeout = deadline - time.monotonic()
                if timeout <= 0:
                    raise self._timed_out(what)
            if timeout != self._timeout:
                self._sock.settimeout(timeout)
                self._timeout = timeout
            try:
                data = self._sock.recv(65536)
            except _socket.timeout:
                raise self._timed_out(what) from None
            except OSError as e:
                if self._closed:
                    data = b""
                else:
                    raise connection_lost(self.path, e) from None
            if not data:
                self._eof = True
                self._lines.feed(b"\n")  # the last line counts without its newline
            else:
                self._lines.feed(data)

    def _timed_out(self, what: str) -> ClientError:
        if what == "answer":
            text = "tiltd at %s did not answer in time" % self.path
        elif what == "greet":
            text = "tiltd at %s did not greet in time (is it tiltd?)" % self.path
        else:
            text = "tiltd at %s sent nothing in time" % self.path
        return ClientError(ClientErrorKind.TIMEOUT, text)

    def fileno(self) -> int:
        """The socket's descriptor, for ``select``/``selectors``; call :meth:`read` when it is readable."""
        return self._sock.fileno()

    def pending(self) -> bool:
        """Whether a message is buffered (:meth:`read` returns it without waiting on the socket)."""
        return bool(self._backlog) or bool(self._lines)

    def close(self) -> None:
        """Closes the connection (from any thread: a blocked :meth:`messages` ends)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._sock.shutdown(_socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(socket: Optional[str] = None, timeout: float = 5.0) -> Client:
    """A :class:`Client` connected to tiltd (see :meth:`Client.connect`)."""
    return Client.connect(socket, timeout)


class Subscriber:
    """A subscriber that reconnects by itself, as ``TiltSubscriber`` does.

    ::

        for frame in tilt_client.Subscriber(rate=60, predict=0.03).frames():
            draw(frame.attitude_at(time.monotonic() + display_latency).tilt)

    Iterating it connects, says ``watch`` at the configured settings, and yields :class:`Connected` (with the
    ``hello``), every message, and :class:`Disconnected` when the daemon goes away; then it waits (0.1 s, doubling
    up to 5 s, back to 0.1 s after each connection) and connects again, watching again with the current settings.
    With ``reconnect=False`` the iteration ends at the first disconnection. A line that is not a valid message
    raises :class:`WireError` (``skip_malformed=True`` skips it, as ``TiltSubscriber`` does). The ``set_*`` methods
    and :meth:`send` may be called from any thread; commands sent while disconnected are dropped, except the
    watch settings, which every connection sends again.
    """

    def __init__(
        self,
        socket: Optional[str] = None,
        rate: float = DEFAULT_RATE,
        *,
        watch: bool = True,
        raw: bool = False,
        screen_rotation: int = 0,
        magnetometer: Optional[bool] = None,
        predict: float = 0.0,
        reconnect: bool = True,
        backoff: Optional[Backoff] = None,
        connect_timeout: float = 5.0,
        skip_malformed: bool = False,
    ) -> None:
        #: The socket path in use (resolved once, as ``TiltSubscriber`` does).
        self.socket_path = resolve_for_client(socket)
        self._watch = Watch(rate, watch, raw, screen_rotation, magnetometer, predict)
        self.reconnect = reconnect
        self.backoff = backoff if backoff is not None else Backoff(0.1, 5.0)
        self.connect_timeout = connect_timeout
        self.skip_malformed = skip_malformed
        self._lock = threading.Lock()
        self._client: Optional[Client] = None
        self._closed = threading.Event()

    # -- steering --------------------------------------------------------------------------------------------------

    @property
    def watch_settings(self) -> Watch:
        return self._watch

    def _change(self, **changes: object) -> None:
        import dataclasses

        with self._lock:
            new = dataclasses.replace(self._watch, **changes)
            if new == self._watch:
                return
            self._watch = new
            client = self._client
        if client is not None:
            try:
                client.send(new.line())
            except ClientError:
                pass  # the connection is going; the next one watches with the new settings

    def set_rate(self, rate: float) -> None:
        """Changes the frame rate (and keeps watching)."""
        self._change(rate=rate, enable=True)

    def set_screen_rotation(self, degrees: int) -> None:
        """Changes the picture axes the frames come in (the display turned)."""
        self._change(screen_rotation=degrees)

    def set_predict(self, seconds: float) -> None:
        """Changes how far ahead of their samples frames are predicted (clamped to 0 … 0.1 s)."""
        value = seconds if seconds == seconds and abs(seconds) != float("inf") else 0.0
        self._change(predict=min(max(value, 0.0), 0.1))

    def set_watching(self, on: bool) -> None:
        """Starts or stops frames."""
        self._change(enable=on)

    def send(self, line: bytes) -> None:
        """Sends a command line (``commands.STATUS``, ``commands.POLL``, ``commands.TARE``); answers arrive as
        messages. Dropped while disconnected.
        """
        with self._lock:
            client = self._client
        if client is not None:
            try:
                client.send(line)
            except ClientError:
                pass

    def close(self) -> None:
        """Disconnects and ends the iteration (from any thread)."""
        self._closed.set()
        with self._lock:
            client = self._client
        if client is not None:
            client.close()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    # -- events ----------------------------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Event]:
        return self.events()

    def events(self) -> Iterator[Event]:
        """The events, as ``TiltSubscriber.events()``: :class:`Connected`, messages, :class:`Disconnected`."""
        backoff = Backoff(self.backoff.initial, self.backoff.maximum)
        while not self._closed.is_set():
            reason = "the daemon closed the connection"
            client: Optional[Client] = None
            try:
                client = Client.connect(self.socket_path, self.connect_timeout)
                backoff.reset()
                with self._lock:
                    self._client = client
                    first = self._watch
                if self._closed.is_set():
                    return
                if first.enable:
                    client.send(first.line())
                yield Connected(client.hello)
                while not self._closed.is_set():
                    try:
                        m = client.read()
                    except WireError:
                        if self.skip_malformed:
                            continue
                        raise
                    yield m
            except ClientError as e:
                if e.kind is ClientErrorKind.CONNECTION_CLOSED and "closed the connection" in e.message:
                    reason = "the daemon closed the connection"
                else:
                    reason = e.message
            finally:
                with self._lock:
                    self._client = None
                if client is not None:
                    client.close()
            if self._closed.is_set():
                return
            yield Disconnected(reason)
            if not self.reconnect:
                return
            self._closed.wait(backoff.next())

    def frames(self) -> Iterator[Attitude]:
        """Only the frames, across reconnections. An ``error`` from the daemon raises :class:`RefusedError` (a
        refused ``watch`` would otherwise wait for ever).
        """
        for event in self.events():
            if isinstance(event, Attitude):
                yield event
            elif isinstance(event, ErrorMessage):
                raise RefusedError(event.message)

    def __enter__(self) -> "Subscriber":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
