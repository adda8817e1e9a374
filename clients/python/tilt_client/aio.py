"""The asyncio API: :class:`AsyncClient` (one connection) and :class:`AsyncSubscriber` (reconnects with backoff).

::

    async with tilt_client.AsyncClient() as c:
        await c.watch(rate=60)
        async for frame in c.frames():
            print(frame.tilt)
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno as _errno
import time
from collections import deque
from typing import Any, AsyncIterator, Callable, Deque, List, Optional, Tuple, Union

from . import commands
from .client import Backoff, Connected, Disconnected, Event
from .commands import Watch
from .errors import (
    ClientError,
    ClientErrorKind,
    RefusedError,
    TiltError,
    WireError,
    connect_failure,
    connection_lost,
)
from .lines import LineBuffer
from .messages import DEFAULT_RATE, Attitude, ErrorMessage, Hello, Message, SensorEvent, Status, Tare
from .socketpath import resolve_for_client

_END = object()


class AsyncClient:
    """One connection to tiltd, for asyncio. ``async with AsyncClient(socket) as c`` connects and reads ``hello``.

    One task reads the socket: answers go to the request that waits for them (``await c.status()`` while another
    task iterates :meth:`frames`), everything else to :meth:`messages`, which keeps the newest ``queue_size`` of
    them for a consumer that falls behind (the daemon itself never queues frames).
    """

    def __init__(self, socket: Optional[str] = None, *, timeout: float = 5.0, queue_size: int = 256) -> None:
        self.path = resolve_for_client(socket)
        self.timeout = timeout
        self._queue: Deque[Any] = deque()
        self._queue_size = queue_size
        self._ready: Optional[asyncio.Event] = None
        self._pending: List[Tuple[Callable[[Message], bool], "asyncio.Future[Message]"]] = []
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._task: Optional["asyncio.Task[None]"] = None
        self._failure: Optional[TiltError] = None
        self._closed = False
        #: The daemon's greeting, once connected.
        self.hello: Hello

    async def open(self) -> "AsyncClient":
        """Connects and reads the greeting; raises :class:`ClientError` as :meth:`Client.connect` does."""
        path = self.path
        if len(path.encode()) > 107:
            raise ClientError(
                ClientErrorKind.UNUSABLE_SOCKET,
                "socket path %s is too long for a Unix socket (%d bytes; at most 107); pass a shorter --socket PATH"
                % (path, len(path.encode())),
            )
        try:
            self._reader, self._writer = await asyncio.wait_for(asyncio.open_unix_connection(path), self.timeout)
        except asyncio.TimeoutError:
            raise connect_failure(path, _errno.ETIMEDOUT) from None
        except OSError as e:
            raise connect_failure(path, e.errno or _errno.ECONNREFUSED) from None
        self._ready = asyncio.Event()
        self._task = asyncio.ensure_future(self._read_loop())
        try:
            greeting = await self._wait(lambda m: isinstance(m, Hello), self.timeout, "greet")
        except BaseException:
            await self.close()
            raise
        assert isinstance(greeting, Hello)
        self.hello = greeting
        return self

    async def __aenter__(self) -> "AsyncClient":
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- sending ---------------------------------------------------------------------------------------------------

    def send_nowait(self, line: bytes) -> None:
        """Queues one command line for sending (no wait for the socket to take it)."""
        if self._writer is None or self._closed:
            raise ClientError(ClientErrorKind.CONNECTION_CLOSED, "the connection to tiltd at %s is closed" % self.path)
        if self._failure is not None and isinstance(self._failure, ClientError):
            raise self._failure
        self._writer.write(line)

    async def send(self, line: bytes) -> None:
        """Sends one command line (with its newline)."""
        self.send_nowait(line)
        assert self._writer is not None
        try:
            await self._writer.drain()
        except OSError as e:
            raise connection_lost(self.path, e) from None

    async def watch(
        self,
        rate: Optional[float] = DEFAULT_RATE,
        *,
        raw: bool = False,
        screen_rotation: int = 0,
        magnetometer: Optional[bool] = None,
        predict: float = 0.0,
    ) -> None:
        """As :meth:`tilt_client.Client.watch`."""
        await self.send(Watch(rate, True, raw, screen_rotation, magnetometer, predict).line())

    async def unwatch(self) -> None:
        await self.send(Watch(None, enable=False).line())

    async def status(self, timeout: Optional[float] = None) -> Status:
        m = await self._request(commands.STATUS, lambda m: isinstance(m, Status), timeout)
        assert isinstance(m, Status)
        return m

    async def poll(self, timeout: Optional[float] = None) -> Attitude:
        m = await self._request(commands.POLL, lambda m: isinstance(m, Attitude), timeout)
        assert isinstance(m, Attitude)
        return m

    async def tare(self, reset: bool = False, timeout: Optional[float] = None) -> Tare:
        m = await self._request(commands.tare_line(reset), lambda m: isinstance(m, Tare), timeout)
        assert isinstance(m, Tare)
        return m

    async def _request(self, line: bytes, accept: Callable[[Message], bool], timeout: Optional[float]) -> Message:
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[Message]" = loop.create_future()
        entry = (accept, future)
        self._pending.append(entry)
        try:
            await self.send(line)
            return await self._await(future, self.timeout if timeout is None else timeout, "answer")
        finally:
            if entry in self._pending:
                self._pending.remove(entry)

    async def _wait(self, accept: Callable[[Message], bool], timeout: float, what: str) -> Message:
        loop = asyncio.get_running_loop()
        future: "asyncio.Future[Message]" = loop.create_future()
        entry = (accept, future)
        self._pending.append(entry)
        try:
            return await self._await(future, timeout, what)
        finally:
            if entry in self._pending:
                self._pending.remove(entry)

    async def _await(self, future: "asyncio.Future[Message]", timeout: float, what: str) -> Message:
        if self._failure is not None and not future.done():
            raise self._failure
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except asyncio.TimeoutError:
            text = {
                "answer": "tiltd at %s did not answer in time",
                "greet": "tiltd at %s did not greet in time (is it tiltd?)",
            }.get(what, "tiltd at %s sent nothing in time")
            raise ClientError(ClientErrorKind.TIMEOUT, text % self.path) from None

    # -- receiving -------------------------------------------------------------------------------------------------

    async def _read_loop(self) -> None:
        assert self._reader is not None
        lines = LineBuffer()
        failure: TiltError
        try:
            while True:
                data = await self._reader.read(65536)
                lines.feed(data if data else b"\n")
                while lines:
                    try:
                        m = lines.next_message()
                    except WireError as e:
                        self._dispatch_error(e)
                        continue
                    if m is not None:
                        self._dispatch(m)
                if not data:
                    failure = ClientError(
                        ClientErrorKind.CONNECTION_CLOSED, "tiltd at %s closed the connection" % self.path
                    )
                    break
        except asyncio.CancelledError:
            failure = ClientError(ClientErrorKind.CONNECTION_CLOSED, "the connection to tiltd at %s is closed" % self.path)
        except OSError as e:
            failure = connection_lost(self.path, e)
        self._failure = failure
        for _, future in self._pending:
            if not future.done():
                future.set_exception(failure)
        self._put(_END)

    def _dispatch(self, m: Message) -> None:
        if isinstance(m, ErrorMessage):
            for _, future in self._pending:
                if not future.done():
                    future.set_exception(RefusedError(m.message))
                    return
            self._put(m)
            return
        for accept, future in self._pending:
            if not future.done() and accept(m):
                future.set_result(m)
                if not isinstance(m, Attitude):
                    return
                break
        self._put(m)

    def _dispatch_error(self, e: WireError) -> None:
        for _, future in self._pending:
            if not future.done():
                future.set_exception(e)
                return
        self._put(e)

    def _put(self, item: Any) -> None:
        if item is not _END and len(self._queue) >= self._queue_size:
            self._queue.popleft()
        self._queue.append(item)
        if self._ready is not None:
            self._ready.set()

    async def read(self, timeout: Optional[float] = None) -> Message:
        """The next message; raises as :meth:`tilt_client.Client.read` does."""
        assert self._ready is not None, "open() the client first"
        if self._closed:
            raise ClientError(ClientErrorKind.CONNECTION_CLOSED, "the connection to tiltd at %s is closed" % self.path)
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._queue:
            self._ready.clear()
            if deadline is None:
                await self._ready.wait()
            else:
                try:
                    await asyncio.wait_for(self._ready.wait(), max(deadline - time.monotonic(), 0))
                except asyncio.TimeoutError:
                    raise ClientError(ClientErrorKind.TIMEOUT, "tiltd at %s sent nothing in time" % self.path) from None
        item = self._queue[0]
        if item is _END:
            assert self._failure is not None
            raise self._failure
        self._queue.popleft()
        if isinstance(item, WireError):
            raise item
        return item  # type: ignore[no-any-return]

    async def messages(self, timeout: Optional[float] = None) -> AsyncIterator[Message]:
        """Every message as it comes, until :meth:`close` (which ends it) or the daemon closes (which raises
        ``connectionClosed``).
        """
        while not self._closed:
            try:
                yield await self.read(timeout)
            except ClientError:
                if self._closed:
                    return
                raise

    async def frames(self, timeout: Optional[float] = None) -> AsyncIterator[Attitude]:
        """Only the frames; raises as :meth:`tilt_client.Client.frames` does."""
        async for m in self.messages(timeout):
            if isinstance(m, Attitude):
                yield m
            elif isinstance(m, ErrorMessage):
                raise RefusedError(m.message)
            elif isinstance(m, SensorEvent) and m.state == "finished":
                raise ClientError(ClientErrorKind.SENSOR_STOPPED, "the sensor is %s: %s" % (m.state, m.reason))

    async def close(self) -> None:
        """Closes the connection; a :meth:`messages` iteration ends."""
        if self._closed:
            return
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except BaseException:
                pass
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except (OSError, asyncio.CancelledError):
                pass


async def connect(socket: Optional[str] = None, timeout: float = 5.0) -> AsyncClient:
    """An :class:`AsyncClient`, connected."""
    return await AsyncClient(socket, timeout=timeout).open()


class AsyncSubscriber:
    """The asyncio twin of :class:`tilt_client.Subscriber`: ``async for event in AsyncSubscriber(rate=60)``, with
    the same events, backoff and settings. The ``set_*`` methods and :meth:`send` are plain calls (they queue the
    command on the current connection).
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
        self.socket_path = resolve_for_client(socket)
        self._watch = Watch(rate, watch, raw, screen_rotation, magnetometer, predict)
        self.reconnect = reconnect
        self.backoff = backoff if backoff is not None else Backoff(0.1, 5.0)
        self.connect_timeout = connect_timeout
        self.skip_malformed = skip_malformed
        self._client: Optional[AsyncClient] = None
        self._closed = False
        self._wake: Optional[asyncio.Event] = None

    @property
    def watch_settings(self) -> Watch:
        return self._watch

    def _change(self, **changes: object) -> None:
        new = dataclasses.replace(self._watch, **changes)
        if new == self._watch:
            return
        self._watch = new
        self.send(new.line())

    def set_rate(self, rate: float) -> None:
        self._change(rate=rate, enable=True)

    def set_screen_rotation(self, degrees: int) -> None:
        self._change(screen_rotation=degrees)

    def set_predict(self, seconds: float) -> None:
        value = seconds if seconds == seconds and abs(seconds) != float("inf") else 0.0
        self._change(predict=min(max(value, 0.0), 0.1))

    def set_watching(self, on: bool) -> None:
        self._change(enable=on)

    def send(self, line: bytes) -> None:
        """Queues a command on the current connection; dropped while disconnected."""
        client = self._client
        if client is not None:
            try:
                client.send_nowait(line)
            except ClientError:
                pass

    def close(self) -> None:
        """Disconnects and ends the iteration."""
        self._closed = True
        if self._wake is not None:
            self._wake.set()
        client = self._client
        if client is not None and client._task is not None:
            client._task.cancel()

    def __aiter__(self) -> AsyncIterator[Event]:
        return self.events()

    async def events(self) -> AsyncIterator[Event]:
        backoff = Backoff(self.backoff.initial, self.backoff.maximum)
        self._wake = asyncio.Event()
        while not self._closed:
            reason = "the daemon closed the connection"
            client = AsyncClient(self.socket_path, timeout=self.connect_timeout)
            try:
                await client.open()
                backoff.reset()
                self._client = client
                if self._closed:
                    return
                first = self._watch
                if first.enable:
                    await client.send(first.line())
                yield Connected(client.hello)
                while not self._closed:
                    try:
                        m = await client.read()
                    except WireError:
                        if self.skip_malformed:
                            continue
                        raise
                    yield m
            except ClientError as e:
                if not (e.kind is ClientErrorKind.CONNECTION_CLOSED and "closed the connection" in e.message):
                    reason = e.message
            finally:
                self._client = None
                await client.close()
            if self._closed:
                return
            yield Disconnected(reason)
            if not self.reconnect:
                return
            try:
                await asyncio.wait_for(self._wake.wait(), backoff.next())
            except asyncio.TimeoutError:
                pass

    async def frames(self) -> AsyncIterator[Attitude]:
        async for event in self.events():
            if isinstance(event, Attitude):
                yield event
            elif isinstance(event, ErrorMessage):
                raise RefusedError(event.message)
