"""The client against a fake server (a Unix socket in this test) that says what tiltd never should: a malformed
line raises ``malformedMessage``, an over-long one ``lineTooLong``, a full daemon ``refused``; unknown classes
and fields pass.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import threading
import unittest
from typing import List

import tiltd_process  # noqa: F401  (puts the package on sys.path)

import tilt_client
from tilt_client import (
    Attitude,
    ClientError,
    ClientErrorKind,
    Connected,
    RefusedError,
    UnknownMessage,
    WireError,
    WireErrorKind,
)

HELLO = (
    b'{"class":"hello","protocol":1,"daemon":"tiltd 0.1.0","sensors":[{"name":"replay","kinds":["accel","anglvel",'
    b'"magn"],"location":"/x.csv.gz","rate":285.714286,"mode":"replay"}],"power":{"onBattery":false,"capacity":null,'
    b'"profile":null,"lowPower":false},"sensor":"idle"}\n'
)
FRAME = (
    b'{"class":"attitude","seq":970,"time":23.3975,"mono":1670.247380218,"quaternion":[0.9997524113667365,'
    b'-0.01848880959733016,0.011651186569755428,-0.004186852945355277],"euler":{"roll":-0.03708445628922088,'
    b'"pitch":0.023143849947730066,"yaw":-0.008804937558895692},"gravity":[0.22694337491579103,0.36349355923085436,'
    b'-9.797282958018489],"rotationRate":[0.0007934828983769916,0.0018407545550680412,-0.0017265770019147353],'
    b'"userAcceleration":[-0.019054025084208975,0.10529565923085438,0.14557604198151175],"tilt":'
    b'[-0.0003993023173578683,-0.0002541826106370705],"flags":{"initializing":false,"rest":true,"accelDisturbed":'
    b'false,"magDisturbed":false},"source":"replay:broad-01-excerpt.csv.gz","axes":"device","reference":"magnetic",'
    b'"headingAccuracy":2.0}\n'
)


class FakeServer:
    """Accepts one connection at a time and sends each client ``script`` (bytes), then waits for it to close
    (or closes itself with ``close_after``).
    """

    def __init__(self, script: bytes, close_after: bool = False) -> None:
        self.folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.path = os.path.join(self.folder, "fake.sock")
        self.script = script
        self.close_after = close_after
        self.received: List[bytes] = []
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.sendall(self.script)
                    if self.close_after:
                        conn.shutdown(socket.SHUT_RDWR)
                        continue
                    while True:
                        data = conn.recv(4096)
                        if not data:
                            break
                        self.received.append(data)
                except OSError:
                    pass

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class FakeServerTests(unittest.TestCase):
    def serve(self, script: bytes, close_after: bool = False) -> FakeServer:
        s = FakeServer(script, close_after)
        self.addCleanup(s.close)
        return s

    def connect(self, server: FakeServer) -> tilt_client.Client:
        c = tilt_client.connect(server.path, timeout=5)
        self.addCleanup(c.close)
        return c

    def test_a_malformed_line_raises_malformed_message(self) -> None:
        server = self.serve(HELLO + FRAME.replace(b'"seq":970', b'"seq":"one"') + b"this is not json\n" + FRAME)
        c = self.connect(server)
        with self.assertRaises(WireError) as e:
            c.read(timeout=5)
        self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)
        self.assertEqual(e.exception.kind, "malformedMessage")  # the Swift case's name
        self.assertIn("'seq'", e.exception.message)
        with self.assertRaises(WireError) as e:
            c.read(timeout=5)
        self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)
        # The connection goes on: the next line is a frame.
        self.assertIsInstance(c.read(timeout=5), Attitude)

    def test_each_kind_of_malformed_line(self) -> None:
        for line in (
            b"[1,2,3]",
            b'{"no":"class"}',
            b'{"class":7}',
            b'{"class":"attitude","seq":1,"time":2,"quaternion":[1,0,0],"tilt":[0,0]}',
            b'{"class":"attitude","seq":1,"time":2,"quaternion":[1,0,0,0],"tilt":[0,0],"axes":"sideways"}',
            b'{"class":"status","daemon":"tiltd"}',
            b'{"class":"sensor","state":1,"reason":"x"}',
            b'{"class":"tare","reference":"identity"}',
            b'{"class":"hello","protocol":1}',
            b'{"class":"power","onBattery":"no","lowPower":false}',
            b'\xff\xfe{"class"',
        ):
            with self.subTest(line=line):
                with self.assertRaises(WireError) as e:
                    tilt_client.decode(line)
                self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)

    def test_a_malformed_answer_fails_the_request(self) -> None:
        c = self.connect(self.serve(HELLO + b'{"class":"status","daemon":"tiltd"}\n'))
        with self.assertRaises(WireError) as e:
            c.status(timeout=5)
        self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)
        # A server that never answers: the request times out.
        silent = self.connect(self.serve(HELLO))
        with self.assertRaises(ClientError) as t:
            silent.status(timeout=0.2)
        self.assertIs(t.exception.kind, ClientErrorKind.TIMEOUT)

    def test_unknown_classes_and_fields_pass(self) -> None:
        frame = FRAME.replace(b'"seq":970', b'"seq":970,"newField":{"a":[1,2]}')
        server = self.serve(HELLO + b'{"class":"weather","rain":true}\n' + frame)
        c = self.connect(server)
        m = c.read(timeout=5)
        self.assertIsInstance(m, UnknownMessage)
        self.assertEqual(m.message_class, "weather")
        f = c.read(timeout=5)
        self.assertIsInstance(f, Attitude)
        self.assertEqual(f.seq, 970)
        self.assertEqual(f.wire["newField"], {"a": [1, 2]})

    def test_an_over_long_line_raises_line_too_long_and_is_skipped(self) -> None:
        long_line = b'{"class":"gap","pad":"' + b"x" * (tilt_client.MAX_LINE_LENGTH + 10) + b'"}\n'
        server = self.serve(HELLO + long_line + FRAME)
        c = self.connect(server)
        with self.assertRaises(WireError) as e:
            c.read(timeout=5)
        self.assertIs(e.exception.kind, WireErrorKind.LINE_TOO_LONG)
        self.assertIsInstance(c.read(timeout=5), Attitude)

    def test_crlf_and_blank_lines(self) -> None:
        server = self.serve(HELLO.replace(b"\n", b"\r\n") + b"  \t\n\n" + FRAME.replace(b"\n", b"\r\n"))
        c = self.connect(server)
        self.assertIsInstance(c.read(timeout=5), Attitude)

    def test_a_full_daemon_is_refused(self) -> None:
        server = self.serve(
            b'{"class":"error","message":"the daemon is full (limit 2 clients); try again later, or raise '
            b'max_clients in the daemon\'s config"}\n',
            close_after=True,
        )
        with self.assertRaises(RefusedError) as e:
            tilt_client.connect(server.path, timeout=5)
        self.assertIs(e.exception.kind, ClientErrorKind.REFUSED)
        self.assertIs(e.exception.wire_kind, WireErrorKind.REPORTED)
        self.assertTrue(e.exception.closing)

    def test_closed_before_answering(self) -> None:
        server = self.serve(HELLO, close_after=True)
        c = self.connect(server)
        with self.assertRaises(ClientError) as e:
            c.status(timeout=5)
        self.assertIs(e.exception.kind, ClientErrorKind.CONNECTION_CLOSED)

    def test_no_hello_times_out(self) -> None:
        server = self.serve(b"")
        with self.assertRaises(ClientError) as e:
            tilt_client.connect(server.path, timeout=0.3)
        self.assertIs(e.exception.kind, ClientErrorKind.TIMEOUT)

    def test_the_subscriber_raises_on_a_malformed_line_unless_told_to_skip(self) -> None:
        server = self.serve(HELLO + b"{broken\n" + FRAME)
        sub = tilt_client.Subscriber(server.path, reconnect=False)
        events = iter(sub)
        self.assertIsInstance(next(events), Connected)
        with self.assertRaises(WireError) as e:
            next(events)
        self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)
        sub.close()
        skipping = tilt_client.Subscriber(server.path, reconnect=False, skip_malformed=True)
        frame = next(skipping.frames())
        skipping.close()
        self.assertEqual(frame.seq, 970)
        # The subscriber said watch on connecting.
        self.assertTrue(any(b'"cmd":"watch"' in d for d in server.received))

    def test_asyncio_malformed_line(self) -> None:
        server = self.serve(HELLO + b'{"class":"gap","count":"many","first":1,"last":2}\n' + FRAME)

        async def run() -> None:
            async with tilt_client.AsyncClient(server.path) as c:
                with self.assertRaises(WireError) as e:
                    await c.read(timeout=5)
                self.assertIs(e.exception.kind, WireErrorKind.MALFORMED_MESSAGE)
                self.assertIsInstance(await c.read(timeout=5), Attitude)

        asyncio.run(asyncio.wait_for(run(), 10))

    def test_connect_failures(self) -> None:
        folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, folder, True)
        with self.assertRaises(ClientError) as e:
            tilt_client.connect(os.path.join(folder, "none.sock"))
        self.assertIs(e.exception.kind, ClientErrorKind.DAEMON_NOT_RUNNING)
        self.assertIn("is tiltd running?", e.exception.message)
        # A socket file nobody listens on (a daemon that died).
        stale = os.path.join(folder, "stale.sock")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(stale)
        s.close()
        with self.assertRaises(ClientError) as e:
            tilt_client.connect(stale)
        self.assertIs(e.exception.kind, ClientErrorKind.DAEMON_NOT_RUNNING)
        with self.assertRaises(ClientError) as e:
            tilt_client.connect("/tmp/" + "x" * 120)
        self.assertIs(e.exception.kind, ClientErrorKind.UNUSABLE_SOCKET)

        async def run() -> None:
            with self.assertRaises(ClientError) as e:
                await tilt_client.connect_async(os.path.join(folder, "none.sock"))
            self.assertIs(e.exception.kind, ClientErrorKind.DAEMON_NOT_RUNNING)

        asyncio.run(run())


if __name__ == "__main__":
    unittest.main()
