"""Reconnecting with backoff, as TiltSubscriber does: a restart of tiltd survived, the watch sent again with the
current settings; the waits between attempts (0.1 s doubling up to 5 s).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
import unittest

from tiltd_process import Tiltd, needs_tiltd

import tilt_client
from tilt_client import Attitude, Backoff, Connected, Disconnected, Status, Subscriber, commands


class BackoffTests(unittest.TestCase):
    def test_the_subscribers_waits(self) -> None:
        b = Subscriber("/nonexistent/tiltd.sock").backoff
        self.assertEqual((b.initial, b.maximum), (0.1, 5.0))  # TiltSubscriber's
        waits = [b.next() for _ in range(9)]
        self.assertEqual(waits, [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0, 5.0])
        b.reset()
        self.assertEqual(b.next(), 0.1)

    def test_waits_between_attempts(self) -> None:
        # Nobody listens: each attempt fails at once, and the subscriber waits 0.1, 0.2, 0.4 s between them.
        folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, folder, True)
        sub = Subscriber(os.path.join(folder, "none.sock"))
        times = []
        for event in sub:
            self.assertIsInstance(event, Disconnected)
            self.assertIn("is tiltd running?", event.reason)
            times.append(time.monotonic())
            if len(times) == 4:
                sub.close()
        gaps = [b - a for a, b in zip(times, times[1:])]
        for gap, wait in zip(gaps, (0.1, 0.2, 0.4)):
            self.assertGreaterEqual(gap, wait * 0.95)
        self.assertGreater(gaps[2], gaps[0] * 2)

    def test_no_reconnect_ends(self) -> None:
        events = list(Subscriber("/nonexistent/tiltd.sock", reconnect=False))
        self.assertEqual(len(events), 1)
        self.assertIsInstance(events[0], Disconnected)


@needs_tiltd
class RestartTests(unittest.TestCase):
    def setUp(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.socket_path = os.path.join(self.folder, "tiltd.sock")
        self.daemon = Tiltd(self.socket_path).start()
        self.addCleanup(self.daemon.stop)

    def test_a_restart_of_tiltd_is_survived(self) -> None:
        sub = Subscriber(self.socket_path, rate=30, predict=0.02, backoff=Backoff(0.05, 0.5))
        self.addCleanup(sub.close)
        deadline = time.monotonic() + 18
        phase = "first"
        frames = {"first": 0, "second": 0}
        disconnected = connected = 0
        status = None
        for event in sub:
            self.assertLess(time.monotonic(), deadline, "phase %s took too long" % phase)
            if isinstance(event, Connected):
                connected += 1
            elif isinstance(event, Attitude):
                frames[phase] += 1
                if phase == "first" and frames["first"] == 5:
                    sub.set_rate(15)  # changed while connected: kept for the next connection
                    self.daemon.stop()
                if phase == "second":
                    self.assertEqual(event.predicted if frames["second"] > 3 else 0.02, 0.02)
                    if frames["second"] == 5:
                        sub.send(commands.STATUS)
            elif isinstance(event, Disconnected):
                disconnected += 1
                if phase == "first":
                    phase = "restarting"
                    self.daemon.start()
                    phase = "second"
            elif isinstance(event, Status):
                status = event
                break
        self.assertEqual(connected, 2)
        self.assertGreaterEqual(disconnected, 1)
        self.assertGreaterEqual(frames["first"], 5)
        self.assertGreaterEqual(frames["second"], 5)
        assert status is not None
        # The new connection watches with the settings as they are now.
        self.assertEqual(status.client.rate, 15.0)
        self.assertEqual(status.client.predict, 0.02)

    def test_the_async_subscriber_survives_a_restart(self) -> None:
        async def run() -> None:
            sub = tilt_client.AsyncSubscriber(self.socket_path, rate=30, backoff=Backoff(0.05, 0.5))
            counts = [0, 0]
            index = 0
            kinds = []
            async for event in sub:
                kinds.append(type(event).__name__)
                if isinstance(event, Attitude):
                    counts[index] += 1
                    if index == 0 and counts[0] == 5:
                        await asyncio.get_running_loop().run_in_executor(None, self.daemon.stop)
                    if index == 1 and counts[1] == 5:
                        sub.close()
                elif isinstance(event, Disconnected) and index == 0:
                    index = 1
                    await asyncio.get_running_loop().run_in_executor(None, self.daemon.start)
            self.assertEqual(kinds.count("Connected"), 2)
            self.assertGreaterEqual(counts[0], 5)
            self.assertEqual(counts[1], 5)

        asyncio.run(asyncio.wait_for(run(), 20))


if __name__ == "__main__":
    unittest.main()
