#!/usr/bin/env python3
"""tilt_mouse.py: move the mouse pointer by tilting the device, through a virtual mouse made with /dev/uinput.

    python3 tilt_mouse.py [--socket PATH] [--device PATH] [--rate HZ] [--dead-zone RAD] [--gain PX] [--max-step PX]
                          [--dry-run]

The pointer rolls downhill as a marble on the screen would, the screen held flat: tip the right edge down
(``tilt.y > 0``) and it goes right, lift the top edge (``tilt.x > 0``) and it goes down. Past the dead zone its
speed grows with the tilt: ``--gain`` pixels a second for each radian beyond it, at most ``--max-step`` pixels a
frame. ``tare`` (``tilt tare``) makes the pose you hold now the level one. It keeps going across tiltd restarts;
Ctrl-C stops it (exit status 0).

The virtual mouse needs write access to /dev/uinput (the ``uinput`` module loaded, and your user in the group that
owns the device, or a udev rule that gives it to you). Without it, this says what is missing, on one line, and
exits with status 1. ``--dry-run`` needs none of it: it prints each motion, ``dx DX dy DY tilt X Y``, instead.
"""

from __future__ import annotations

import argparse
import errno
import fcntl
import grp
import math
import os
import struct
import sys
from typing import List, Optional, Tuple

try:
    import tilt_client
except ImportError:  # run from a clone without installing: the package is in the folder above this one
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import tilt_client

PROG = "tilt_mouse.py"


def motion(tilt_x: float, tilt_y: float, dt: float, dead_zone: float = 0.04, gain: float = 2000.0,
           max_step: float = 60.0) -> Tuple[float, float]:
    """The pointer's motion for one frame, pixels ``(dx, dy)`` (screen axes: x right, y down), from a tilt held
    for ``dt`` seconds: on each axis none inside ``dead_zone`` radians (or for a NaN), else ``gain`` pixels a
    second per radian past it, at most ``max_step`` pixels either way. ``dx`` follows ``tilt_y``, ``dy`` ``tilt_x``.
    """

    def axis(t: float) -> float:
        if not abs(t) > dead_zone:  # also NaN
            return 0.0
        return math.copysign(min((abs(t) - dead_zone) * gain * dt, max_step), t)

    return axis(tilt_y), axis(tilt_x)


# --- uinput (<linux/uinput.h>, <linux/input-event-codes.h>) --------------------------------------------------------

def _ioc(direction: int, number: int, size: int) -> int:
    """An ioctl request of uinput's type 'U', in <asm-generic/ioctl.h>'s encoding (direction 1 writes, 2 reads):
    that of x86, arm and riscv, not of powerpc, mips or sparc."""
    return direction << 30 | size << 16 | ord("U") << 8 | number


UI_DEV_CREATE, UI_DEV_DESTROY = _ioc(0, 1, 0), _ioc(0, 2, 0)
UI_DEV_SETUP = _ioc(1, 3, 92)  # struct uinput_setup: struct input_id, char name[80], __u32 ff_effects_max
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_RELBIT = _ioc(1, 100, 4), _ioc(1, 101, 4), _ioc(1, 102, 4)
UI_GET_SYSNAME_64 = _ioc(2, 44, 64)
EV_SYN, EV_KEY, EV_REL = 0x00, 0x01, 0x02
SYN_REPORT, REL_X, REL_Y = 0, 0x00, 0x01
BTN_LEFT, BTN_RIGHT, BTN_MIDDLE = 0x110, 0x111, 0x112
BUS_VIRTUAL = 0x06
INPUT_EVENT = struct.Struct("llHHi")  # struct input_event: struct timeval (two longs), __u16 type, code, __s32 value


class Refused(Exception):
    """No virtual mouse can be made; the message says why and what to do."""


def refusal(path: str, e: OSError) -> str:
    """What to tell the user when ``path`` cannot be opened for writing (``e`` from ``os.open``)."""
    if e.errno in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return ("cannot open %s (%s): load the uinput module, `sudo modprobe uinput` (at every boot: `echo uinput "
                "| sudo tee /etc/modules-load.d/uinput.conf`), or try --dry-run" % (path, e.strerror or e))
    if e.errno in (errno.EACCES, errno.EPERM):
        try:
            st: Optional[os.stat_result] = os.stat(path)
        except OSError:
            st = None
        try:
            group = grp.getgrgid(st.st_gid).gr_name if st is not None else "?"
        except KeyError:
            group = str(st.st_gid) if st is not None else "?"
        if st is not None and st.st_mode & 0o020 and group != "root":  # the group may write: join it
            return ("no permission to write %s (mode %04o, group %s): add yourself to the group (`sudo usermod -aG "
                    "%s $USER`, then log in again), or try --dry-run" % (path, st.st_mode & 0o7777, group, group))
        mode = "mode %04o, group %s" % (st.st_mode & 0o7777, group) if st is not None else "its mode unknown"
        return ("no permission to write %s (%s): give it to a group with a udev rule, `KERNEL==\"uinput\", "
                "GROUP=\"input\", MODE=\"0660\"` in /etc/udev/rules.d/60-uinput.rules, and join that group "
                "(`sudo usermod -aG input $USER`, then log in again); or try --dry-run" % (path, mode))
    return "cannot open %s: %s" % (path, e.strerror or e)


class VirtualMouse:
    """A relative mouse made through uinput: two axes and three buttons (without a button it is no mouse)."""

    def __init__(self, path: str = "/dev/uinput", name: str = "tilt mouse") -> None:
        try:
            self.fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as e:
            raise Refused(refusal(path, e)) from None
        try:
            for bit, codes in ((UI_SET_RELBIT, (REL_X, REL_Y)), (UI_SET_KEYBIT, (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE))):
                for code in codes:
                    fcntl.ioctl(self.fd, bit, code)
            for kind in (EV_REL, EV_KEY, EV_SYN):
                fcntl.ioctl(self.fd, UI_SET_EVBIT, kind)
            fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("4H80sI", BUS_VIRTUAL, 0, 0, 1, name.encode()[:79], 0))
            fcntl.ioctl(self.fd, UI_DEV_CREATE)
        except OSError as e:
            os.close(self.fd)
            raise Refused("%s is not a uinput device (%s); pass --device /dev/uinput" % (path, e.strerror)) from None
        buffer = bytearray(64)
        try:
            fcntl.ioctl(self.fd, UI_GET_SYSNAME_64, buffer, True)
            self.sysname = buffer.split(b"\0", 1)[0].decode()  # input17: /sys/devices/virtual/input/input17
        except OSError:
            self.sysname = "?"

    def move(self, dx: int, dy: int) -> None:
        events = [INPUT_EVENT.pack(0, 0, EV_REL, code, v) for code, v in ((REL_X, dx), (REL_Y, dy)) if v]
        os.write(self.fd, b"".join(events) + INPUT_EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0))

    def close(self) -> None:
        try:
            fcntl.ioctl(self.fd, UI_DEV_DESTROY)
        finally:
            os.close(self.fd)


def run(args: argparse.Namespace) -> int:
    mouse = None if args.dry_run else VirtualMouse(args.device)  # before connecting: refuse at once
    if mouse is not None:
        sys.stderr.write("%s: the virtual mouse 'tilt mouse' is %s; Ctrl-C stops it\n" % (PROG, mouse.sysname))
    sub = tilt_client.Subscriber(args.socket, args.rate)
    carry_x = carry_y = 0.0  # what is left of a pixel, so that slow motion still moves
    last: Optional[float] = None
    waiting = False
    try:
        for event in sub:
            if isinstance(event, tilt_client.Disconnected):
                if not waiting:  # once, until it connects again
                    sys.stderr.write("%s: waiting for tiltd: %s\n" % (PROG, event.reason))
                waiting = True
            elif isinstance(event, tilt_client.Connected):
                waiting = False
            if not isinstance(event, tilt_client.Attitude):
                continue
            # The frame's time apart from the last one, on the daemon's clock; 1/rate when it cannot tell.
            dt = event.mono - last if event.mono is not None and last is not None else 0.0
            dt = dt if 0 < dt <= 0.1 else 1.0 / args.rate
            last = event.mono
            fx, fy = motion(event.tilt.x, event.tilt.y, dt, args.dead_zone, args.gain, args.max_step)
            carry_x, carry_y = carry_x + fx, carry_y + fy
            dx, dy = int(carry_x), int(carry_y)  # towards zero: never against the tilt
            carry_x, carry_y = carry_x - dx, carry_y - dy
            if dx or dy:
                if mouse is None:
                    print("dx %+d dy %+d tilt %+.4f %+.4f" % (dx, dy, event.tilt.x, event.tilt.y), flush=True)
                else:
                    mouse.move(dx, dy)
    finally:
        sub.close()
        if mouse is not None:
            mouse.close()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog=PROG, description="Move the mouse pointer by tilting the device (uinput).")
    p.add_argument("--socket", metavar="PATH", help="tiltd's socket (default: $TILTD_SOCKET, else the usual places)")
    p.add_argument("--device", default="/dev/uinput", metavar="PATH", help="the uinput device (default /dev/uinput)")
    p.add_argument("--rate", type=float, default=100.0, metavar="HZ", help="frames a second (default 100)")
    p.add_argument("--dead-zone", type=float, default=0.04, metavar="RAD",
                   help="a tilt this small does not move the pointer, radians (default 0.04)")
    p.add_argument("--gain", type=float, default=2000.0, metavar="PX",
                   help="pixels a second per radian of tilt past the dead zone (default 2000)")
    p.add_argument("--max-step", type=float, default=60.0, metavar="PX", help="at most this many pixels a frame "
                   "on each axis (default 60)")
    p.add_argument("--dry-run", action="store_true", help="print the motions (dx DX dy DY tilt X Y) instead of "
                   "moving the pointer; needs no /dev/uinput")
    args = p.parse_args(argv)
    if not (tilt_client.MIN_RATE <= args.rate <= tilt_client.MAX_RATE):
        p.error("--rate must be from %g to %g" % (tilt_client.MIN_RATE, tilt_client.MAX_RATE))
    try:
        return run(args)
    except Refused as e:
        sys.stderr.write("error: %s: %s\n" % (PROG, e))
        return 1
    except tilt_client.TiltError as e:
        sys.stderr.write("error: %s: %s\n" % (PROG, e.message))
        return 1
    except KeyboardInterrupt:
        return 0
    except BrokenPipeError:  # --dry-run | head: its reader went away
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the flush at exit does not fail again
        return 0
    except OSError as e:  # the virtual mouse refused a write
        sys.stderr.write("error: %s: cannot move the pointer through %s: %s\n" % (PROG, args.device, e.strerror or e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
