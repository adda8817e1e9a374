"""The client against a real tiltd replaying the fixture: frames at the asked rate, predict, the screen's axes,
status / poll / tare round trips, refusals, and the asyncio API.
"""

from __future__ import annotations

import asyncio
import math
import time
import unittest

from tiltd_process import DaemonTestCase, needs_tiltd

import tilt_client
from tilt_client import (
    Attitude,
    ClientErrorKind,
    ErrorMessage,
    RefusedError,
    Status,
    Tare,
    WireError,
    WireErrorKind,
)


def frames_for(client: tilt_client.Client, seconds: float, cap: float = 15.0):
    """The frames that arrive within ``seconds`` of the first one (monotonic), waiting at most ``cap`` in all."""
    start = time.monotonic()
    first = None
    out = []
    while True:
        now = time.monotonic()
        if now - start > cap:
            break
        if first is not None and now - first >= seconds:
            break
        remaining = (seconds - (now - first)) if first is not None else cap - (now - start)
        try:
            m = client.read(timeout=max(remaining, 0.01))
        except tilt_client.ClientError as e:
            if e.kind is ClientErrorKind.TIMEOUT:
                continue
            raise
        if isinstance(m, Attitude):
            if first is None:
                first = time.monotonic()
            out.append(m)
    return out


@needs_tiltd
class DaemonTests(DaemonTestCase):
    def connect(self) -> tilt_client.Client:
        c = tilt_client.connect(self.socket_path)
        self.addCleanup(c.close)
        return c

    def test_hello(self) -> None:
        c = self.connect()
        self.assertEqual(c.hello.protocol, tilt_client.PROTOCOL_VERSION)
        self.assertTrue(c.hello.daemon.startswith("tiltd "))
        self.assertEqual(c.hello.sensors[0].mode, "replay")
        self.assertEqual(set(c.hello.sensors[0].kinds), {"accel", "anglvel", "magn"})
        self.assertFalse(c.hello.power.on_battery)  # --no-power: mains
        self.assertIsNone(c.hello.power.capacity)

    def test_frames_at_the_asked_rate(self) -> None:
        # The daemon sends the first fused frame at or after each due time, due times one period apart: at most
        # rate × window (+1 for where the window falls); at least half of it on a loaded two-core machine.
        c = self.connect()
        rate, window = 20.0, 3.0
        c.watch(rate=rate)
        frames = frames_for(c, window)
        expected = rate * window
        self.assertLessEqual(len(frames), expected + 2, "more frames than the asked rate")
        self.assertGreaterEqual(len(frames), expected * 0.5, "far fewer frames than the asked rate")
        seqs = [f.seq for f in frames]
        self.assertEqual(seqs, sorted(set(seqs)), "seq must increase")
        # The sensor runs at 285.7 Hz; at 20 Hz a frame is every ~14th sample, never two of one period.
        monos = [f.mono for f in frames]
        self.assertTrue(all(m is not None for m in monos))
        s = c.status()
        self.assertEqual(s.client.rate, rate)
        self.assertTrue(s.client.watching)
        self.assertGreaterEqual(s.watchers, 1)
        f = frames[-1]
        self.assertEqual(len(f.quaternion), 4)
        self.assertAlmostEqual(math.sqrt(sum(x * x for x in f.quaternion)), 1.0, places=6)
        self.assertEqual(f.axes, "device")
        self.assertEqual(f.source, "replay:broad-01-excerpt.csv.gz")
        self.assertIsNone(f.predicted)

    def test_predict(self) -> None:
        c = self.connect()
        c.watch(rate=30, predict=0.0304)  # the daemon keeps whole milliseconds
        frames = frames_for(c, 1.0)
        self.assertGreater(len(frames), 5)
        # A frame fused before the horizon took hold may come without it; the rest carry it.
        predicted = [f.predicted for f in frames[2:]]
        self.assertTrue(predicted and all(p == 0.03 for p in predicted), predicted)
        self.assertEqual(c.status().client.predict, 0.03)
        c.watch(rate=30)  # predict 0: none
        later = frames_for(c, 0.6)
        self.assertIsNone(later[-1].predicted)

    def test_screen_rotation(self) -> None:
        c = self.connect()
        c.watch(rate=30, screen_rotation=90)
        f = frames_for(c, 0.3)[-1]
        self.assertEqual(f.axes, "screen-90")
        self.assertEqual(f.screen_rotation, 90)
        self.assertEqual(c.status().client.screen_rotation, 90)

    def test_status_poll_tare(self) -> None:
        c = self.connect()
        s = c.status()
        self.assertIsInstance(s, Status)
        self.assertEqual(s.protocol, 1)
        self.assertFalse(s.client.watching)
        self.assertFalse(s.calibrated)
        self.assertTrue(s.calibration.startswith("none"))
        self.assertEqual(s.source, "replay:broad-01-excerpt.csv.gz")
        self.assertEqual(len(s.gyro_bias), 3)
        f = c.poll()
        self.assertIsInstance(f, Attitude)
        t = c.tare()
        self.assertIsInstance(t, Tare)
        self.assertAlmostEqual(math.sqrt(sum(x * x for x in t.reference)), 1.0, places=6)
        r = c.tare(reset=True)
        self.assertIsInstance(r, Tare)
        self.assertEqual(c.status().client.errors, 0)

    def test_requests_while_watching_keep_the_frames(self) -> None:
        c = self.connect()
        c.watch(rate=60)
        frames_for(c, 0.2)
        s = c.status()
        self.assertTrue(s.client.watching)
        # Frames that came while status was awaited are still there to read, in order.
        m = c.read(timeout=5)
        self.assertIsInstance(m, Attitude)

    def test_refusals_carry_the_wire_kind(self) -> None:
        c = self.connect()
        with self.assertRaises(WireError) as e:
            c.watch(rate=0)  # refused here, in the daemon's words, before it is sent
        self.assertIs(e.exception.kind, WireErrorKind.BAD_VALUE)
        self.assertEqual(e.exception.field, "rate")
        with self.assertRaises(WireError) as e:
            c.watch(predict=0.25)
        self.assertEqual(e.exception.field, "predict")
        c.send(b'{"cmd":"fly"}\n')
        with self.assertRaises(RefusedError) as r:
            c.status()
        self.assertIs(r.exception.kind, ClientErrorKind.REFUSED)
        self.assertIs(r.exception.wire_kind, WireErrorKind.UNKNOWN_COMMAND)
        self.assertEqual(r.exception.command, "fly")
        self.assertFalse(r.exception.closing)
        c.send(b'{"cmd":"watch","rate":"fast"}\n')
        m = c.read(timeout=5)
        while not isinstance(m, ErrorMessage):
            m = c.read(timeout=5)
        self.assertIs(m.kind, WireErrorKind.WRONG_TYPE)
        # The connection goes on.
        self.assertGreaterEqual(c.status().client.errors, 2)
        # frames() raises on an error: a refused watch would otherwise wait for ever.
        c.send(b'{"cmd":"watch","screenRotation":45}\n')
        with self.assertRaises(RefusedError) as r:
            for _ in c.frames(timeout=5):
                pass
        self.assertIs(r.exception.wire_kind, WireErrorKind.BAD_VALUE)
        self.assertEqual(r.exception.field, "screenRotation")

    def test_asyncio(self) -> None:
        async def run() -> None:
            async with tilt_client.AsyncClient(self.socket_path) as c:
                self.assertEqual(c.hello.protocol, 1)
                await c.watch(rate=30, predict=0.02)
                got = []

                async def take() -> None:
                    async for f in c.frames():
                        got.append(f)
                        if len(got) >= 10:
                            return

                reader = asyncio.ensure_future(take())
                # A request from another task while one iterates: the answer goes to it, frames to the iterator.
                s = await c.status()
                self.assertEqual(s.client.rate, 30.0)
                self.assertEqual(s.client.predict, 0.02)
                t = await c.tare()
                self.assertEqual(len(t.reference), 4)
                await asyncio.wait_for(reader, 10)
                self.assertEqual(len(got), 10)
                self.assertEqual(got[-1].predicted, 0.02)
                p = await c.poll()
                self.assertIsInstance(p, Attitude)
                with self.assertRaises(RefusedError) as r:
                    await c.send(b'{"nocmd":1}\n')
                    await c.status()
                self.assertIs(r.exception.wire_kind, WireErrorKind.MISSING_COMMAND)
            # Closed: iteration ends quietly.
            n = 0
            async for _ in c.messages():
                n += 1
            self.assertEqual(n, 0)

        asyncio.run(asyncio.wait_for(run(), 20))


if __name__ == "__main__":
    unittest.main()
