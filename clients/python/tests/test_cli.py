"""``python3 -m tilt_client``: ends cleanly when its reader goes away (``| head -1``) and on Ctrl-C, prints
the frames, reports errors in the house style.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from tiltd_process import PACKAGE_ROOT, DaemonTestCase, needs_tiltd


def cli_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(PACKAGE_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("TILTD_SOCKET", None)
    return env


CLI = [sys.executable, "-m", "tilt_client"]


def like_a_terminal() -> None:
    """Run in the child before exec: SIGINT acts as Ctrl-C in a terminal does. A shell's background job (the lanes
    of scripts/test) starts with SIGINT ignored, and Python then installs no handler of its own."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@needs_tiltd
class CLITests(DaemonTestCase):
    def test_head_1_ends_with_status_0_and_nothing_on_stderr(self) -> None:
        script = '%s watch --rate 30 --socket "$1" | head -1; exit "${PIPESTATUS[0]}"' % " ".join(CLI)
        p = subprocess.run(
            ["bash", "-c", script, "bash", self.socket_path], env=cli_env(), capture_output=True, timeout=30
        )
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stderr, b"")
        lines = p.stdout.decode().splitlines()
        self.assertEqual(len(lines), 1)
        self.assertRegex(lines[0], r"^roll +-?\d+\.\d°  pitch .* tilt x .* #\d+")

    def test_json_count_and_predict(self) -> None:
        p = subprocess.run(
            CLI + ["watch", "--json", "--count", "4", "--rate", "30", "--predict", "0.03", "--socket",
                   self.socket_path],
            env=cli_env(), capture_output=True, timeout=30,
        )
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stderr, b"")
        frames = [json.loads(line) for line in p.stdout.decode().splitlines()]
        self.assertEqual(len(frames), 4)
        self.assertTrue(all(f["class"] == "attitude" for f in frames))
        self.assertEqual(frames[-1].get("predicted"), 0.03)

    def test_ctrl_c_ends_with_status_0(self) -> None:
        p = subprocess.Popen(
            CLI + ["watch", "--rate", "20", "--socket", self.socket_path], env=cli_env(), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, preexec_fn=like_a_terminal,
        )
        try:
            first = p.stdout.readline()  # it runs and prints
            self.assertTrue(first.startswith(b"roll"), first)
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=15)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 0, err.decode())
        self.assertEqual(err, b"")

    def test_status_poll_tare(self) -> None:
        for command, cls in (("status", "status"), ("poll", "attitude"), ("tare", "tare")):
            with self.subTest(command=command):
                p = subprocess.run(CLI + [command, "--socket", self.socket_path], env=cli_env(),
                                   capture_output=True, timeout=30)
                self.assertEqual(p.returncode, 0, p.stderr.decode())
                self.assertEqual(json.loads(p.stdout)["class"], cls)


class CLIErrorTests(unittest.TestCase):
    def test_no_daemon_and_bad_usage(self) -> None:
        folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, folder, True)
        p = subprocess.run(CLI + ["status", "--socket", os.path.join(folder, "none.sock")], env=cli_env(),
                           capture_output=True, timeout=30)
        self.assertEqual(p.returncode, 1)
        self.assertRegex(p.stderr.decode(), r"^error: cannot connect to tiltd at .*is tiltd running\?")
        self.assertNotIn("Traceback", p.stderr.decode())
        for args in (["watch", "--rate", "0"], ["watch", "--predict", "0.5"], ["watch", "--screen-rotation", "45"],
                     ["fly"]):
            with self.subTest(args=args):
                p = subprocess.run(CLI + args, env=cli_env(), capture_output=True, timeout=30)
                self.assertEqual(p.returncode, 64)
                self.assertTrue(p.stderr.decode().startswith("error: python3 -m tilt_client"), p.stderr)

    def test_watch_waits_for_a_daemon_that_is_not_there_yet(self) -> None:
        folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, folder, True)
        p = subprocess.Popen(CLI + ["watch", "--socket", os.path.join(folder, "none.sock")], env=cli_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=like_a_terminal)
        try:
            line = p.stderr.readline()
            self.assertIn(b"disconnected: cannot connect to tiltd", line)
            self.assertIn(b"retrying", line)
            time.sleep(0.3)
            self.assertIsNone(p.poll())  # still trying, as tilt watch does
            p.send_signal(signal.SIGINT)
            p.communicate(timeout=15)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
        self.assertEqual(p.returncode, 0)


if __name__ == "__main__":
    unittest.main()
