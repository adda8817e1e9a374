#!/usr/bin/env python3
"""tilt_osc.py: send the tilt over OSC (UDP) to a visual tool: TouchDesigner, VCV Rack, Resolume, Max, Pure Data.

    python3 tilt_osc.py [--host HOST] [--port PORT] [--prefix /tilt] [--quaternion] [--socket PATH] [--rate HZ]
                        [--frames N]

Each frame becomes OSC messages of 32-bit floats: ``/tilt/x`` and ``/tilt/y`` (the tilt, radians, within ±0.5 at
the daemon's default limit; docs/coordinates.md says which way is which), and with ``--quaternion``
``/tilt/quaternion w x y z`` (the attitude, device to earth). The default target is 127.0.0.1:9000; point the
tool's OSC input there (TouchDesigner: an OSC In CHOP on port 9000). It keeps going across tiltd restarts; Ctrl-C
stops it. ``--frames N`` stops after N frames.

It needs python-osc (``pip install python-osc``, in a virtual environment on Debian); without it it says so and
exits with status 1.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import List, Optional, Tuple

try:
    import tilt_client
except ImportError:  # run from a clone without installing: the package is in the folder above this one
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import tilt_client

PROG = "tilt_osc.py"


def osc_messages(frame: tilt_client.Attitude, prefix: str = "/tilt",
                 quaternion: bool = False) -> List[Tuple[str, List[float]]]:
    """The OSC messages for one frame, as (address, arguments). A message with a NaN (the wire's ``null``) is left
    out: a visual tool would pass it on to every parameter it drives."""
    out = [(prefix + "/x", [frame.tilt.x]), (prefix + "/y", [frame.tilt.y])]
    if quaternion:
        out.append((prefix + "/quaternion", list(frame.quaternion)))
    return [(address, values) for address, values in out if all(math.isfinite(v) for v in values)]


def run(args: argparse.Namespace) -> int:
    try:
        from pythonosc.udp_client import SimpleUDPClient
    except ImportError:
        sys.stderr.write("error: %s needs python-osc: pip install python-osc (in a virtual environment: Debian's "
                         "python3 refuses a system-wide pip install)\n" % PROG)
        return 1
    try:
        osc = SimpleUDPClient(args.host, args.port)
    except OSError as e:
        sys.stderr.write("error: %s: cannot send to %s:%d: %s\n" % (PROG, args.host, args.port, e))
        return 1
    sub = tilt_client.Subscriber(args.socket, args.rate)
    frames = 0
    waiting = False
    try:
        for event in sub:
            if isinstance(event, tilt_client.Disconnected):
                if not waiting:  # once, until it connects again
                    sys.stderr.write("%s: waiting for tiltd: %s\n" % (PROG, event.reason))
                waiting = True
            elif isinstance(event, tilt_client.Connected):
                waiting = False
            elif isinstance(event, tilt_client.Attitude):
                for address, values in osc_messages(event, args.prefix, args.quaternion):
                    osc.send_message(address, values)
                frames += 1
                if frames == args.frames:
                    break
    except OSError as e:
        sys.stderr.write("error: %s: cannot send to %s:%d: %s\n" % (PROG, args.host, args.port, e))
        return 1
    finally:
        sub.close()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog=PROG, description="Send the tilt over OSC (UDP) to a visual tool.")
    p.add_argument("--host", default="127.0.0.1", help="where to send (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=9000, help="the UDP port the tool listens on (default 9000)")
    p.add_argument("--prefix", default="/tilt", help="the addresses' prefix (default /tilt: /tilt/x, /tilt/y)")
    p.add_argument("--quaternion", action="store_true", help="also send PREFIX/quaternion w x y z")
    p.add_argument("--socket", metavar="PATH", help="tiltd's socket (default: $TILTD_SOCKET, else the usual places)")
    p.add_argument("--rate", type=float, default=60.0, metavar="HZ", help="frames a second (default 60)")
    p.add_argument("--frames", type=int, metavar="N", help="stop after N frames")
    args = p.parse_args(argv)
    if not (tilt_client.MIN_RATE <= args.rate <= tilt_client.MAX_RATE):
        p.error("--rate must be from %g to %g" % (tilt_client.MIN_RATE, tilt_client.MAX_RATE))
    if not 0 < args.port < 65536:
        p.error("--port must be from 1 to 65535")
    if not args.prefix.startswith("/"):
        p.error("--prefix must start with /, as OSC addresses do")
    try:
        return run(args)
    except tilt_client.TiltError as e:
        sys.stderr.write("error: %s: %s\n" % (PROG, e.message))
        return 1
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
