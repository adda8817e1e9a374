"""The examples in clients/python/examples, each run as a program against a real tiltd replaying the fixture: the
maze's ball follows the tilt and never enters a wall, the mouse's dry run moves with the tilt and the mouse refuses
clearly without /dev/uinput, the OSC bridge sends the frames (or says python-osc is missing); and their pure parts.

The class's tiltd replays at ten times real time, so the fixture's stretch at rest (its first 15 s) passes quickly;
each run reads what the example prints until it has seen what it must, by a monotonic deadline, and then stops it
with SIGINT as Ctrl-C would.
"""

from __future__ import annotations

import ast
import errno
import importlib.util
import math
import os
import queue
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import unittest.mock
from typing import List, Optional, Tuple

from test_cli import cli_env, like_a_terminal
from tiltd_process import PACKAGE_ROOT, REPO, DaemonTestCase, needs_tiltd, wait_until

import tilt_client

EXAMPLES = PACKAGE_ROOT / "examples"
NAMES = ("tilt_maze", "tilt_mouse", "tilt_osc")
#: How long a run may take to see what it must: generous, as the replay is shared with a busy machine.
DEADLINE = 120.0
HAS_PYTHON_OSC = importlib.util.find_spec("pythonosc") is not None


def example(name: str):
    """The example ``name`` imported as a module (its ``main`` does not run)."""
    spec = importlib.util.spec_from_file_location(name, str(EXAMPLES / (name + ".py")))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


maze = example("tilt_maze")
mouse = example("tilt_mouse")
osc = example("tilt_osc")


def command(name: str, *args: str) -> List[str]:
    return [sys.executable, str(EXAMPLES / (name + ".py"))] + list(args)


def sign(v: float) -> int:
    return (v > 0) - (v < 0)


class Lines:
    """The lines a process writes, read on a thread so that the test can wait for each by a deadline."""

    def __init__(self, stream) -> None:
        self._queue: "queue.Queue[Optional[str]]" = queue.Queue()
        self.seen: List[str] = []
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream) -> None:
        try:
            for line in iter(stream.readline, b""):
                self._queue.put(line.decode("utf-8", "replace").rstrip("\n"))
        except (OSError, ValueError):
            pass  # closed by the test's cleanup
        self._queue.put(None)

    def next(self, deadline: float) -> Optional[str]:
        """The next line, or ``None`` at the end; fails the test if none comes by ``deadline`` (monotonic)."""
        try:
            line = self._queue.get(timeout=max(deadline - time.monotonic(), 0.0))
        except queue.Empty:
            raise AssertionError("nothing more within the deadline; so far: %r" % self.seen[-20:]) from None
        if line is not None:
            self.seen.append(line)
        return line


class Run:
    """An example running in the background, with its standard output read line by line."""

    def __init__(self, test: unittest.TestCase, args: List[str], env: Optional[dict] = None) -> None:
        self.process = subprocess.Popen(args, env=env or cli_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, preexec_fn=like_a_terminal)
        test.addCleanup(self.kill)
        self.lines = Lines(self.process.stdout)

    def interrupt(self) -> Tuple[int, str]:
        """Ctrl-C: its exit status and what it wrote on stderr (its stdout goes on to :attr:`lines`)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        self.process.wait(30)
        return self.process.returncode, self.process.stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


class Pure(unittest.TestCase):
    """The parts a test can call: the maze's step, the mouse's mapping and refusals, the OSC messages."""

    def test_each_example_has_a_docstring_and_help(self) -> None:
        for name in NAMES:
            with self.subTest(example=name):
                source = (EXAMPLES / (name + ".py")).read_text()
                doc = ast.get_docstring(ast.parse(source))
                self.assertTrue(doc and doc.startswith(name + ".py: "), doc)
                p = subprocess.run(command(name, "--help"), env=cli_env(), capture_output=True, timeout=30)
                self.assertEqual(p.returncode, 0, p.stderr.decode())
                self.assertTrue(p.stdout.decode().startswith("usage: %s.py" % name), p.stdout)
                self.assertIn("--socket PATH", p.stdout.decode())

    def test_maze_step(self) -> None:
        m = maze.MAZE
        start = maze.find(m, "S")
        self.assertEqual(start, (1, 1))
        T = tilt_client.Tilt
        self.assertEqual(maze.step(m, start, T(0.0, 0.3), 0.08), (1, 2))  # right edge down: right
        self.assertEqual(maze.step(m, start, T(0.3, 0.0), 0.08), (2, 1))  # top edge up: down
        self.assertEqual(maze.step(m, start, T(0.3, 0.3), 0.08), (1, 2))  # across, then not down: (2, 2) is a wall
        self.assertEqual(maze.step(m, start, T(-0.3, -0.3), 0.08), start)  # walls up and left
        self.assertEqual(maze.step(m, start, T(0.05, -0.07), 0.08), start)  # inside the dead zone
        self.assertEqual(maze.step(m, start, T(math.nan, math.nan), 0.08), start)

    def test_mouse_mapping(self) -> None:
        motion = mouse.motion
        self.assertEqual(motion(0.03, -0.04, 0.01), (0.0, 0.0))  # inside the dead zone (0.04)
        self.assertEqual(motion(math.nan, math.nan, 0.01), (0.0, 0.0))
        dx, dy = motion(0.2, -0.3, 0.01)  # dx follows tilt.y, dy tilt.x
        self.assertAlmostEqual(dx, -(0.3 - 0.04) * 2000 * 0.01)
        self.assertAlmostEqual(dy, (0.2 - 0.04) * 2000 * 0.01)
        self.assertEqual(motion(-0.2, 0.3, 0.01), (-dx, -dy))  # odd
        self.assertEqual(motion(0.5, -0.5, 1.0), (-60.0, 60.0))  # clamped to max_step
        self.assertEqual(motion(0.5, 0.5, 1.0, dead_zone=0.1, gain=10.0, max_step=100.0), (4.0, 4.0))
        self.assertEqual(motion(0.5, 0.5, 0.01, gain=0.0), (0.0, 0.0))

    def test_mouse_refusal_messages(self) -> None:
        folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, folder, True)
        missing = mouse.refusal("/dev/uinput", OSError(errno.ENOENT, os.strerror(errno.ENOENT)))
        self.assertIn("/dev/uinput", missing)
        self.assertIn("sudo modprobe uinput", missing)
        self.assertIn("--dry-run", missing)
        node = os.path.join(folder, "uinput")
        open(node, "w").close()
        os.chmod(node, 0o600)  # as /dev/uinput is where nobody set it up: only root may write
        denied = mouse.refusal(node, OSError(errno.EACCES, os.strerror(errno.EACCES)))
        self.assertIn("no permission to write %s (mode 0600, group " % node, denied)
        self.assertIn('KERNEL=="uinput", GROUP="input", MODE="0660"', denied)
        self.assertIn("sudo usermod -aG input $USER", denied)
        for text in (missing, denied):
            self.assertNotIn("\n", text)

    def test_mouse_speaks_uinput(self) -> None:
        # The calls VirtualMouse makes, recorded instead of made. The numbers are <linux/uinput.h>'s and
        # <linux/input-event-codes.h>'s in the generic ioctl encoding (x86, arm, riscv); a real /dev/uinput is tested
        # in Refusals.test_mouse_makes_a_virtual_mouse, where there is one.
        calls = []

        def ioctl(fd, request, arg=0, mutate=False):
            calls.append((request, arg if not isinstance(arg, bytearray) else "buffer"))
            if request == 0x8040552C:  # UI_GET_SYSNAME(64)
                arg[:7] = b"input7\0"
            return 0

        with unittest.mock.patch.object(mouse.os, "open", lambda path, flags: 99), \
                unittest.mock.patch.object(mouse.fcntl, "ioctl", ioctl), \
                unittest.mock.patch.object(mouse.os, "write", lambda fd, data: calls.append(("write", data))), \
                unittest.mock.patch.object(mouse.os, "close", lambda fd: calls.append(("close", fd))):
            m = mouse.VirtualMouse("/dev/uinput")
            self.assertEqual(m.sysname, "input7")
            m.move(3, -2)
            m.move(0, 5)
            m.close()
        setup = struct.pack("4H80sI", 0x06, 0, 0, 1, b"tilt mouse", 0)
        self.assertEqual(calls[:10], [
            (0x40045566, 0x00), (0x40045566, 0x01),  # UI_SET_RELBIT REL_X, REL_Y
            (0x40045565, 0x110), (0x40045565, 0x111), (0x40045565, 0x112),  # UI_SET_KEYBIT BTN_LEFT, RIGHT, MIDDLE
            (0x40045564, 0x02), (0x40045564, 0x01), (0x40045564, 0x00),  # UI_SET_EVBIT EV_REL, EV_KEY, EV_SYN
            (0x405C5503, setup),  # UI_DEV_SETUP, a struct uinput_setup of 92 bytes
            (0x5501, 0),  # UI_DEV_CREATE
        ])
        self.assertEqual(len(setup), 92)

        def events(data):
            size = struct.calcsize("llHHi")  # struct input_event: a struct timeval, then type, code, value
            self.assertEqual(len(data) % size, 0)
            return [struct.unpack("llHHi", data[i:i + size])[2:] for i in range(0, len(data), size)]

        self.assertEqual(calls[10], (0x8040552C, "buffer"))
        self.assertEqual(events(calls[11][1]), [(2, 0, 3), (2, 1, -2), (0, 0, 0)])  # EV_REL REL_X 3, REL_Y -2, SYN
        self.assertEqual(events(calls[12][1]), [(2, 1, 5), (0, 0, 0)])
        self.assertEqual(calls[13:], [(0x5502, 0), ("close", 99)])  # UI_DEV_DESTROY

    def test_osc_messages(self) -> None:
        line = ('{"class":"attitude","seq":3,"time":1.5,"quaternion":[1,0,0,0],"tilt":[0.125,-0.25],'
                '"source":"replay"}')
        frame = tilt_client.decode(line)
        self.assertEqual(osc.osc_messages(frame), [("/tilt/x", [0.125]), ("/tilt/y", [-0.25])])
        self.assertEqual(osc.osc_messages(frame, "/phone", quaternion=True),
                         [("/phone/x", [0.125]), ("/phone/y", [-0.25]), ("/phone/quaternion", [1.0, 0.0, 0.0, 0.0])])
        nan = tilt_client.decode(line.replace("0.125", "null"))  # null reads as NaN: that message is left out
        self.assertEqual(osc.osc_messages(nan), [("/tilt/y", [-0.25])])


class Refusals(unittest.TestCase):
    """What the examples say when what they need is not there. No daemon needed: they refuse before connecting."""

    def setUp(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="tiltpy-")
        self.addCleanup(shutil.rmtree, self.folder, True)
        self.no_daemon = os.path.join(self.folder, "none.sock")

    def refused(self, args: List[str], env: Optional[dict] = None) -> str:
        """Runs ``args``, which must exit with status 1 and one line on stderr (no traceback); that line."""
        p = subprocess.run(args, env=env or cli_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        err = p.stderr.decode()
        self.assertEqual(p.returncode, 1, err)
        self.assertEqual(p.stdout, b"")
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.splitlines()), 1, err)
        return err

    def test_mouse_without_uinput(self) -> None:
        missing = os.path.join(self.folder, "uinput")
        err = self.refused(command("tilt_mouse", "--device", missing, "--socket", self.no_daemon))
        self.assertEqual(err, "error: tilt_mouse.py: cannot open %s (%s): load the uinput module, `sudo modprobe "
                              "uinput` (at every boot: `echo uinput | sudo tee /etc/modules-load.d/uinput.conf`), or "
                              "try --dry-run\n" % (missing, os.strerror(errno.ENOENT)))

    def test_mouse_on_a_file_that_is_not_uinput(self) -> None:
        plain = os.path.join(self.folder, "uinput")
        open(plain, "w").close()
        err = self.refused(command("tilt_mouse", "--device", plain, "--socket", self.no_daemon))
        self.assertEqual(err, "error: tilt_mouse.py: %s is not a uinput device (%s); pass --device /dev/uinput\n"
                         % (plain, os.strerror(errno.ENOTTY)))

    @unittest.skipIf(os.geteuid() == 0, "root may write any file, so a device without permission cannot be made "
                                        "here (test_mouse_refusal_messages checks the message)")
    def test_mouse_without_permission(self) -> None:
        node = os.path.join(self.folder, "uinput")
        open(node, "w").close()
        os.chmod(node, 0o400)  # not even its owner may write
        err = self.refused(command("tilt_mouse", "--device", node, "--socket", self.no_daemon))
        self.assertTrue(err.startswith("error: tilt_mouse.py: no permission to write %s (mode 0400" % node), err)
        self.assertIn("udev rule", err)

    def test_osc_without_python_osc(self) -> None:
        # A pythonosc that cannot be imported, ahead of any installed one: the run is the same with and without it.
        fake = os.path.join(self.folder, "site", "pythonosc")
        os.makedirs(fake)
        with open(os.path.join(fake, "__init__.py"), "w") as f:
            f.write('raise ImportError("No module named \'pythonosc\'")\n')
        env = cli_env()
        env["PYTHONPATH"] = os.path.dirname(fake) + os.pathsep + env["PYTHONPATH"]
        err = self.refused(command("tilt_osc", "--socket", self.no_daemon), env)
        self.assertEqual(err, "error: tilt_osc.py needs python-osc: pip install python-osc (in a virtual "
                              "environment: Debian's python3 refuses a system-wide pip install)\n")

    def test_maze_without_daemon(self) -> None:
        err = self.refused(command("tilt_maze", "--socket", self.no_daemon))
        self.assertTrue(err.startswith("error: cannot connect to tiltd at %s" % self.no_daemon), err)

    @unittest.skipUnless(os.access("/dev/uinput", os.W_OK), "/dev/uinput is missing or not writable here")
    def test_mouse_makes_a_virtual_mouse(self) -> None:
        run = Run(self, command("tilt_mouse", "--gain", "0", "--socket", self.no_daemon))  # it never moves
        err = Lines(run.process.stderr)
        deadline = time.monotonic() + DEADLINE
        line = err.next(deadline) or ""
        self.assertRegex(line, r"^tilt_mouse\.py: the virtual mouse 'tilt mouse' is input\d+; Ctrl-C stops it$")
        node = "/sys/devices/virtual/input/" + line.split(" is ")[1].split(";")[0]
        with open(node + "/name") as f:
            self.assertEqual(f.read().strip(), "tilt mouse")
        with open(node + "/capabilities/rel") as f:
            self.assertEqual(int(f.read().strip(), 16) & 3, 3)  # REL_X, REL_Y
        run.process.send_signal(signal.SIGINT)
        self.assertEqual(run.process.wait(30), 0)
        self.assertTrue(wait_until(lambda: not os.path.exists(node), 10), "%s is still there" % node)


@needs_tiltd
class AgainstTiltd(DaemonTestCase):
    tiltd_extra = ["--speed", "10"]

    def test_maze_ball_follows_the_tilt_and_never_enters_a_wall(self) -> None:
        dead_zone = 0.08
        run = Run(self, command("tilt_maze", "--no-tty", "--rate", "30", "--dead-zone", str(dead_zone),
                                "--socket", self.socket_path))
        deadline = time.monotonic() + DEADLINE
        board = [run.lines.next(deadline) for _ in maze.MAZE]
        self.assertEqual(board, maze.board(maze.MAZE, maze.find(maze.MAZE, "S")).splitlines())
        ball = maze.find(maze.MAZE, "S")
        moves = 0
        won = False
        while moves < 8:
            line = run.lines.next(deadline)
            self.assertIsNotNone(line, "it ended early: %r" % run.lines.seen[-5:])
            if line.startswith("won after "):
                won = True
                break
            _, _, _, tx, ty, _, row, col = line.split()  # frame N tilt X Y ball ROW COL
            tilt_x, tilt_y, new = float(tx), float(ty), (int(row), int(col))
            self.assertIn(maze.MAZE[new[0]][new[1]], " SG", "the ball is in a wall: %s" % line)
            across, down = new[1] - ball[1], new[0] - ball[0]
            self.assertIn(across, (-1, 0, 1), line)
            self.assertIn(down, (-1, 0, 1), line)
            # The printed tilt is rounded to 0.0001: allow that much at the dead zone's edge.
            if across:
                self.assertEqual(across, sign(tilt_y), "rolled against the tilt: %s" % line)
                self.assertGreater(abs(tilt_y), dead_zone - 1e-4, line)
            elif abs(tilt_y) > dead_zone + 1e-4:
                self.assertEqual(maze.MAZE[ball[0]][ball[1] + sign(tilt_y)], "#", "did not roll: %s" % line)
            if down:
                self.assertEqual(down, sign(tilt_x), "rolled against the tilt: %s" % line)
                self.assertGreater(abs(tilt_x), dead_zone - 1e-4, line)
            elif abs(tilt_x) > dead_zone + 1e-4:
                self.assertEqual(maze.MAZE[ball[0] + sign(tilt_x)][new[1]], "#", "did not roll: %s" % line)
            moves += abs(across) + abs(down)
            ball = new
        if won:
            self.assertEqual(ball, maze.find(maze.MAZE, "G"))
        status, err = run.interrupt()
        self.assertEqual(status, 0, err)
        self.assertEqual(err, "")

    def test_maze_frames_ends_by_itself_and_reads_TILTD_SOCKET(self) -> None:
        env = cli_env()
        env["TILTD_SOCKET"] = self.socket_path
        p = subprocess.run(command("tilt_maze", "--frames", "5", "--rate", "20"), env=env, capture_output=True,
                           timeout=DEADLINE)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stderr, b"")
        lines = p.stdout.decode().splitlines()
        self.assertEqual(len(lines), len(maze.MAZE) + 6, lines)
        frames = lines[len(maze.MAZE):-1]
        self.assertEqual([f.split()[1] for f in frames], ["1", "2", "3", "4", "5"])
        last = frames[-1].split()
        # Five frames take the ball at most ten cells: not to the goal, twenty-two away.
        self.assertEqual(lines[-1], "stopped after 5 frames at %s %s" % (last[-2], last[-1]))

    def test_mouse_dry_run_moves_with_the_tilt(self) -> None:
        dead_zone, max_step = 0.04, 25
        run = Run(self, command("tilt_mouse", "--dry-run", "--rate", "60", "--dead-zone", str(dead_zone), "--gain",
                                "3000", "--max-step", str(max_step), "--device", "/nonexistent/uinput",
                                "--socket", self.socket_path))
        deadline = time.monotonic() + DEADLINE
        across = down = 0
        while across < 5 or down < 5:
            line = run.lines.next(deadline)
            self.assertIsNotNone(line, "it ended early: %r" % run.lines.seen[-5:])
            word_x, dx, word_y, dy, word_t, tx, ty = line.split()
            self.assertEqual((word_x, word_y, word_t), ("dx", "dy", "tilt"), line)
            dx, dy, tilt_x, tilt_y = int(dx), int(dy), float(tx), float(ty)
            self.assertTrue(dx or dy, "a motion of nothing: %s" % line)
            self.assertLessEqual(max(abs(dx), abs(dy)), max_step, line)
            if dx:  # right edge down: right; the printed tilt is rounded to 0.0001
                self.assertEqual(sign(dx), sign(tilt_y), "moved against the tilt: %s" % line)
                self.assertGreater(abs(tilt_y), dead_zone - 1e-4, line)
            if dy:  # top edge up: down
                self.assertEqual(sign(dy), sign(tilt_x), "moved against the tilt: %s" % line)
                self.assertGreater(abs(tilt_x), dead_zone - 1e-4, line)
            across += dx != 0
            down += dy != 0
        status, err = run.interrupt()
        self.assertEqual(status, 0, err)
        self.assertEqual(err, "")

    def test_blender_snippet_in_the_docs_tips_the_cube(self) -> None:
        code = snippet("## Blender", "python")
        self.assertIn("bpy.app.timers.register(follow_tilt)", code)
        env = cli_env()
        env["TILTD_SOCKET"] = self.socket_path
        p = subprocess.run([sys.executable, "-c", BLENDER, code, str(DEADLINE)], env=env, capture_output=True,
                           timeout=DEADLINE + 30)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertRegex(p.stdout.decode(), r"^tipped [-+]0\.\d{3} [-+]0\.\d{3} \+0\.000\n$")

    @unittest.skipUnless(HAS_PYTHON_OSC, "python-osc is not installed for %s (pip install python-osc in a virtual "
                                         "environment; Debian has no package of it)" % sys.executable)
    def test_osc_sends_the_frames(self) -> None:
        receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.addCleanup(receiver.close)
        receiver.bind(("127.0.0.1", 0))
        port = receiver.getsockname()[1]
        p = subprocess.run(command("tilt_osc", "--port", str(port), "--quaternion", "--frames", "5", "--rate", "30",
                                   "--socket", self.socket_path), env=cli_env(), capture_output=True, timeout=DEADLINE)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stderr, b"")
        receiver.settimeout(10)  # all were sent before it exited; on loopback they wait in the socket's buffer
        messages = [decode_osc(receiver.recv(65536)) for _ in range(15)]
        self.assertEqual([a for a, _ in messages], ["/tilt/x", "/tilt/y", "/tilt/quaternion"] * 5)
        for address, values in messages:
            self.assertTrue(all(math.isfinite(v) for v in values), (address, values))
            if address == "/tilt/quaternion":
                self.assertEqual(len(values), 4)
                self.assertAlmostEqual(math.sqrt(sum(v * v for v in values)), 1.0, places=4)
            else:
                self.assertEqual(len(values), 1)
                self.assertLess(abs(values[0]), 0.5)  # the daemon's soft clamp
        receiver.setblocking(False)
        with self.assertRaises(BlockingIOError):
            receiver.recv(65536)  # nothing more


def snippet(heading: str, language: str) -> str:
    """The first ``language`` code block after ``heading`` in docs/examples.md."""
    text = (REPO / "docs" / "examples.md").read_text()
    start = text.index("```%s\n" % language, text.index("\n" + heading)) + len(language) + 4
    return text[start:text.index("\n```\n", start) + 1]


# Blender as far as the snippet uses it: bpy.data.objects["Cube"] and bpy.app.timers.register, which this calls
# as Blender would, each time after the seconds the function returned, until the cube has tipped.
BLENDER = """
import sys, time, types
bpy = types.ModuleType("bpy")
cube = types.SimpleNamespace(rotation_euler=(0.0, 0.0, 0.0))
timers = []
bpy.data = types.SimpleNamespace(objects={"Cube": cube})
bpy.app = types.SimpleNamespace(timers=types.SimpleNamespace(register=timers.append))
sys.modules["bpy"] = bpy
exec(compile(sys.argv[1], "docs/examples.md (Blender)", "exec"), {"__name__": "__main__"})
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    again = timers[0]()
    if not (isinstance(again, float) and again > 0):
        sys.exit("the timer returned %r" % (again,))
    if max(abs(v) for v in cube.rotation_euler) > 0.05:
        print("tipped %+.3f %+.3f %+.3f" % cube.rotation_euler)
        sys.exit(0)
    time.sleep(again)
sys.exit("the cube never tipped: %r" % (cube.rotation_euler,))
"""


def decode_osc(packet: bytes) -> Tuple[str, List[float]]:
    """One OSC 1.0 message of float32 arguments: its address and values (written here, not python-osc's)."""

    def string(at: int) -> Tuple[str, int]:
        end = packet.index(b"\0", at)
        return packet[at:end].decode("ascii"), (end + 4) & ~3  # padded with NULs to a multiple of four

    address, at = string(0)
    tags, at = string(at)
    if not tags.startswith(",") or set(tags[1:]) != {"f"}:
        raise AssertionError("not float32 arguments: %r in %r" % (tags, packet))
    values = list(struct.unpack(">%df" % (len(tags) - 1), packet[at:]))
    return address, values


if __name__ == "__main__":
    unittest.main()
