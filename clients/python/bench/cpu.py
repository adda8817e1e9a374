#!/usr/bin/env python3
"""The Python client's CPU at a given frame rate: utime + stime of this process (os.times) while it takes frames.

    python3 clients/python/bench/cpu.py [--socket PATH | --bin DIR] [--rate 60] [--seconds 20] [--api blocking|async]
                                        [--predict S] [--extrapolate]

With --bin DIR it starts DIR/tiltd replaying the test fixture in a loop on a socket of its own (and stops it);
otherwise it watches the daemon at --socket (or $TILTD_SOCKET, …). The clock starts at the first frame. Prints
one line: frames, the rate they came at, CPU seconds, the share of one core, and microseconds per frame.
--extrapolate also carries each frame to now (attitude_at), as a renderer would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import tilt_client  # noqa: E402

REPO = HERE.parents[2]
FIXTURE = REPO / "Tests" / "Fixtures" / "broad-01-excerpt.csv.gz"


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def blocking(socket: str, rate: float, seconds: float, predict: float, extrapolate: bool):
    with tilt_client.connect(socket) as c:
        c.watch(rate=rate, predict=predict)
        frames = 0
        start = None
        for f in c.frames():
            if extrapolate:
                f.attitude_at(time.monotonic())
            if start is None:
                start = (time.monotonic(), cpu())
                continue
            frames += 1
            if time.monotonic() - start[0] >= seconds:
                break
        return frames, time.monotonic() - start[0], cpu() - start[1]


async def asynchronous(socket: str, rate: float, seconds: float, predict: float, extrapolate: bool):
    async with tilt_client.AsyncClient(socket) as c:
        await c.watch(rate=rate, predict=predict)
        frames = 0
        start = None
        async for f in c.frames():
            if extrapolate:
                f.attitude_at(time.monotonic())
            if start is None:
                start = (time.monotonic(), cpu())
                continue
            frames += 1
            if time.monotonic() - start[0] >= seconds:
                break
        return frames, time.monotonic() - start[0], cpu() - start[1]


def main() -> int:
    p = argparse.ArgumentParser(prog="clients/python/bench/cpu.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--socket")
    p.add_argument("--bin", metavar="DIR", help="start DIR/tiltd replaying the fixture")
    p.add_argument("--rate", type=float, default=60.0)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--predict", type=float, default=0.0)
    p.add_argument("--api", choices=("blocking", "async"), default="blocking")
    p.add_argument("--extrapolate", action="store_true")
    a = p.parse_args()
    daemon = None
    folder = None
    socket = a.socket
    try:
        if a.bin:
            tiltd = Path(a.bin) / "tiltd"
            if not os.access(str(tiltd), os.X_OK):
                sys.stderr.write("error: clients/python/bench/cpu.py: no tiltd in %s; pass --bin DIR\n" % a.bin)
                return 64
            folder = tempfile.mkdtemp(prefix="tiltpy-bench-")
            socket = os.path.join(folder, "tiltd.sock")
            daemon = subprocess.Popen(
                [str(tiltd), "--replay", str(FIXTURE), "--loop", "--no-power", "--no-calibration", "--socket", socket,
                 "--log-level", "warning"], stdin=subprocess.DEVNULL)
            deadline = time.monotonic() + 15
            while not os.path.exists(socket) and time.monotonic() < deadline:
                time.sleep(0.05)
        run = blocking if a.api == "blocking" else (lambda *x: asyncio.run(asynchronous(*x)))
        frames, wall, used = run(socket, a.rate, a.seconds, a.predict, a.extrapolate)
    except tilt_client.TiltError as e:
        sys.stderr.write("error: clients/python/bench/cpu.py: %s\n" % e)
        return 1
    finally:
        if daemon is not None:
            daemon.terminate()
            daemon.wait(10)
        if folder:
            shutil.rmtree(folder, ignore_errors=True)
    print("python %s, %s API%s: %d frames in %.1f s (%.1f Hz asked %g); CPU %.3f s = %.2f %% of one core, "
          "%.0f µs per frame" % (
              sys.version.split()[0], a.api, " + attitude_at" if a.extrapolate else "", frames, wall, frames / wall,
              a.rate, used, 100 * used / wall, 1e6 * used / max(frames, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
