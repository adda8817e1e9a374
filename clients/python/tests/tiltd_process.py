"""A real tiltd for the tests: ``$TILTD_BIN`` (default: the repository's ``.build/debug/tiltd``) replaying the
fixture in a loop on a socket in a temporary folder. Tests that need it skip, saying why, when none is built.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path
from typing import List, Optional

HERE = Path(__file__).resolve().parent
PACKAGE_ROOT = HERE.parent  # clients/python
REPO = HERE.parents[2]
TILTD = Path(os.environ.get("TILTD_BIN") or REPO / ".build" / "debug" / "tiltd")
FIXTURE = REPO / "Tests" / "Fixtures" / "broad-01-excerpt.csv.gz"

if str(PACKAGE_ROOT) not in sys.path:
    sys.path.insert(0, str(PACKAGE_ROOT))


def tiltd_missing() -> Optional[str]:
    """Why no daemon can be started, or ``None`` when one can."""
    if not (TILTD.is_file() and os.access(str(TILTD), os.X_OK)):
        return "no tiltd built at %s (build it with `swift build`, or set TILTD_BIN)" % TILTD
    if not FIXTURE.is_file():
        return "the fixture %s is missing" % FIXTURE
    return None


def needs_tiltd(cls: type) -> type:
    """Skips the test class, saying why, when no tiltd is built."""
    reason = tiltd_missing()
    return unittest.skip(reason)(cls) if reason else cls


def wait_until(condition, timeout: float, step: float = 0.02) -> bool:
    """Polls ``condition`` until it holds or ``timeout`` seconds pass (a monotonic deadline)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return bool(condition())


class Tiltd:
    """One tiltd process on ``socket_path``; :meth:`start` returns once it accepts connections."""

    def __init__(self, socket_path: str, extra: List[str] = ()) -> None:  # type: ignore[assignment]
        self.socket_path = socket_path
        self.extra = list(extra)
        self.process: Optional[subprocess.Popen] = None
        self.log_path = socket_path + ".log"

    def start(self, timeout: float = 15.0) -> "Tiltd":
        args = [
            str(TILTD), "--replay", str(FIXTURE), "--loop", "--no-power", "--no-calibration",
            "--socket", self.socket_path, "--log-level", "warning", "--log-format", "plain",
        ] + self.extra
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=str(REPO))
        log.close()
        if not wait_until(self._accepts, timeout):
            self.stop()
            raise AssertionError("tiltd did not accept on %s within %s s; its log: %s" % (
                self.socket_path, timeout, self.log()))
        return self

    def _accepts(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError("tiltd exited with %s; its log: %s" % (self.process.returncode, self.log()))
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(1)
            s.connect(self.socket_path)
            return True
        except OSError:
            return False
        finally:
            s.close()

    def stop(self) -> None:
        p = self.process
        if p is None:
            return
        self.process = None
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)

    def log(self) -> str:
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")[-2000:]
        except OSError:
            return "(none)"


class DaemonTestCase(unittest.TestCase):
    """A test case with one tiltd for the class (``cls.daemon``, ``cls.socket_path``)."""

    daemon: Tiltd
    socket_path: str
    #: More arguments for the class's tiltd (``["--speed", "10"]``).
    tiltd_extra: List[str] = []

    @classmethod
    def setUpClass(cls) -> None:
        cls.folder = tempfile.mkdtemp(prefix="tiltpy-")
        cls.socket_path = os.path.join(cls.folder, "tiltd.sock")
        cls.daemon = Tiltd(cls.socket_path, cls.tiltd_extra).start()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.daemon.stop()
        shutil.rmtree(cls.folder, ignore_errors=True)
