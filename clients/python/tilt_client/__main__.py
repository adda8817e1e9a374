"""``python3 -m tilt_client``: watch the frames, ask for status, poll, tare.

    python3 -m tilt_client watch [--socket PATH] [--rate HZ] [--predict S] [--count N] [--json]
                                 [--screen-rotation 0|90|180|270] [--magnetometer | --no-magnetometer] [-v]
    python3 -m tilt_client status|poll [--socket PATH]
    python3 -m tilt_client tare [--reset] [--socket PATH]

``watch`` prints one line per frame (JSON with --json: the daemon's object), keeps going across daemon restarts,
and ends with status 0 when its reader goes away (``| head -1``) or on Ctrl-C; 1 on an error, 64 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import sys
from typing import List, Optional, TextIO

from .client import Client, Connected, Disconnected, Subscriber, open_socket
from .errors import ClientError, ClientErrorKind, TiltError
from .messages import MAX_PREDICT, MAX_RATE, MIN_RATE, Attitude, ErrorMessage, Orientation, Power, SensorEvent

PROG = "python3 -m tilt_client"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> "None":  # type: ignore[override]
        sys.stderr.write("error: %s: %s; see %s --help\n" % (PROG, message, PROG))
        raise SystemExit(64)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="A client of tiltd, the tilt daemon (its wire protocol v1).")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def common(q: argparse.ArgumentParser) -> None:
        q.add_argument("--socket", metavar="PATH", help="the daemon's Unix socket (default: $TILTD_SOCKET, else "
                       "$XDG_RUNTIME_DIR/tiltd.sock, else the system service's)")

    w = sub.add_parser("watch", help="print the live frames, one line each")
    common(w)
    w.add_argument("--rate", type=float, default=10.0, metavar="HZ", help="frames per second to ask for (default 10)")
    w.add_argument("--predict", type=float, default=0.0, metavar="S",
                   help="frames predicted this far ahead of their sample, 0 to 0.1 s (default 0: none)")
    w.add_argument("--count", type=int, metavar="N", help="stop after this many frames")
    w.add_argument("--json", action="store_true", help="print the frames as JSON lines")
    w.add_argument("--screen-rotation", type=int, default=0, metavar="0|90|180|270",
                   help="frames in the axes of a picture the display turns this many degrees counter-clockwise")
    g = w.add_mutually_exclusive_group()
    g.add_argument("--magnetometer", dest="magnetometer", action="store_const", const=True, default=None,
                   help="the 9D attitude (heading from the magnetometer)")
    g.add_argument("--no-magnetometer", dest="magnetometer", action="store_const", const=False,
                   help="the 6D attitude (heading free)")
    w.add_argument("-v", "--verbose", action="store_true",
                   help="also say on stderr when it connects and when the sensor, power or orientation change")
    for name, text in (("status", "print the daemon's status as JSON"), ("poll", "print one frame as JSON")):
        common(sub.add_parser(name, help=text))
    t = sub.add_parser("tare", help="re-centre the tilt on the current pose (prints the new reference)")
    common(t)
    t.add_argument("--reset", action="store_true", help="undo every tare instead")
    return p


def human_line(f: Attitude) -> str:
    """One frame for people, as ``tilt watch`` prints it."""
    deg = 180 / math.pi
    flags = [n for n, on in (("init", f.flags.initializing), ("rest", f.flags.rest),
                             ("acc!", f.flags.accel_disturbed), ("mag!", f.flags.mag_disturbed)) if on]
    e = f.euler
    return "roll %7.1f°  pitch %7.1f°  yaw %7.1f°  tilt x %6.3f y %6.3f  #%d %s" % (
        e.roll * deg, e.pitch * deg, e.yaw * deg, f.tilt.x, f.tilt.y, f.seq, " ".join(flags))


def _compact(o: object) -> str:
    return json.dumps(o, separators=(",", ":"))


def _watch(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.screen_rotation not in (0, 90, 180, 270):
        raise _usage("--screen-rotation must be 0, 90, 180 or 270, not %d" % args.screen_rotation)
    if not (MIN_RATE <= args.rate <= MAX_RATE):
        raise _usage("--rate must be from %g to %d frames per second, the rates tiltd grants" % (MIN_RATE, MAX_RATE))
    if not (0 <= args.predict <= MAX_PREDICT):
        raise _usage("--predict must be from 0 to %g seconds" % MAX_PREDICT)
    if args.count is not None and args.count <= 0:
        raise _usage("--count must be positive")
    sub = Subscriber(args.socket, args.rate, screen_rotation=args.screen_rotation, magnetometer=args.magnetometer,
                     predict=args.predict)
    interactive = out.isatty() and not args.json
    frames = 0
    warned = False
    nl = "\n" if interactive else ""
    try:
        for event in sub:
            if isinstance(event, Attitude):
                frames += 1
                if args.json:
                    out.write(_compact(event.wire) + "\n")
                elif interactive:
                    out.write("\r\x1b[K" + human_line(event))
                else:
                    out.write(human_line(event) + "\n")
                out.flush()
                if args.count is not None and frames >= args.count:
                    if interactive:
                        out.write("\n")
                    return 0
            elif isinstance(event, Connected):
                warned = False
                if args.verbose:
                    h = event.hello
                    sensors = ", ".join("%s (%s)" % (s.name, s.mode) for s in h.sensors)
                    err.write("connected to %s, protocol %d, sensors: %s\n" % (h.daemon, h.protocol, sensors))
            elif isinstance(event, SensorEvent):
                if args.verbose:
                    err.write("%ssensor %s: %s\n" % (nl, event.state, event.reason))
                if args.count is not None and event.state == "finished":
                    err.write("error: the sensor finished after %d of %d frames\n" % (frames, args.count))
                    return 1
            elif isinstance(event, Power):
                if args.verbose:
                    err.write("%spower: %s%s\n" % (nl, "battery" if event.on_battery else "mains",
                                                   ", low power" if event.low_power else ""))
            elif isinstance(event, Orientation):
                if args.verbose:
                    err.write("%sorientation: %s, %s\n" % (nl, event.orientation, event.tilt))
            elif isinstance(event, ErrorMessage):
                err.write("error: tiltd answered: %s\n" % event.message)
            elif isinstance(event, Disconnected):
                if not warned:
                    _give_up_if_retrying_cannot_help(sub)
                    err.write("%sdisconnected: %s; retrying…\n" % (nl, event.reason))
                    warned = True
    finally:
        sub.close()
    return 0


def _give_up_if_retrying_cannot_help(sub: Subscriber) -> None:
    """Retrying helps while the daemon is not running, not when this user may not use the socket."""
    try:
        open_socket(sub.socket_path, 1.0).close()
    except ClientError as e:
        if e.kind in (ClientErrorKind.PERMISSION_DENIED, ClientErrorKind.UNUSABLE_SOCKET):
            raise


class _Usage(Exception):
    pass


def _usage(text: str) -> _Usage:
    return _Usage(text)


def _once(args: argparse.Namespace, out: TextIO) -> int:
    with Client.connect(args.socket) as c:
        if args.command == "status":
            m: object = c.status()
        elif args.command == "poll":
            m = c.poll()
        else:
            m = c.tare(reset=args.reset)
        out.write(_compact(m.wire) + "\n")  # type: ignore[attr-defined]
        out.flush()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    args = _parser().parse_args(argv)
    out, err = sys.stdout, sys.stderr
    try:
        if args.command == "watch":
            return _watch(args, out, err)
        return _once(args, out)
    except _Usage as e:
        err.write("error: %s: %s; see %s %s --help\n" % (PROG, e, PROG, args.command))
        return 64
    except TiltError as e:
        err.write("error: %s\n" % e.message)
        return 1
    except KeyboardInterrupt:
        # Ctrl-C is how one stops watching: not an error.
        if out.isatty() and args.command == "watch":
            try:
                out.write("\n")
                out.flush()
            except OSError:
                pass
        return 0
    except BrokenPipeError:
        # The reader went away (`| head -1`): stop quietly. Point stdout at /dev/null so the interpreter's own
        # flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 0


if __name__ == "__main__":
    sys.exit(main())
