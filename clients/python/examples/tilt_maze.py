#!/usr/bin/env python3
"""tilt_maze.py: roll a ball through a small maze by tilting the device, in a plain terminal.

    python3 tilt_maze.py [--socket PATH] [--rate HZ] [--dead-zone RAD] [--frames N] [--no-tty]

The ball rolls downhill as on a tray held flat, screen up: tip the right edge down (``tilt.y > 0``) and it rolls
right, lift the top edge (``tilt.x > 0``) and it rolls down the screen. Each frame it takes at most one cell along
each axis whose tilt is past the dead zone, so ``--rate`` is its speed in cells a second. Walls (``#``) stop it;
reaching ``G`` wins. Ctrl-C quits.

Without a terminal (or with ``--no-tty``) it prints the board once, then one line per frame, ``frame N tilt X Y
ball ROW COL``, and a last line ``won after N frames`` or ``stopped after N frames at ROW COL``. ``--frames N``
stops after N frames. Exit status 0, or 1 when tiltd cannot be reached (the message says what to do).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional, Sequence, Tuple

try:
    import tilt_client
except ImportError:  # run from a clone without installing: the package is in the folder above this one
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import tilt_client

MAZE = [
    "###################",
    "#S    #       #   #",
    "# ### # ##### # # #",
    "#   #   #   #   # #",
    "### ##### # ##### #",
    "#   #     #     # #",
    "# ### ######### # #",
    "#         #      G#",
    "###################",
]

Cell = Tuple[int, int]


def find(maze: Sequence[str], mark: str) -> Cell:
    """The (row, column) of the first ``mark`` in ``maze``."""
    return next((r, line.index(mark)) for r, line in enumerate(maze) if mark in line)


def step(maze: Sequence[str], ball: Cell, tilt: tilt_client.Tilt, dead_zone: float) -> Cell:
    """The ball's next cell: one cell along each axis whose tilt is past ``dead_zone``, across then down, unless a
    wall is there. (A NaN tilt is inside every dead zone.)"""
    row, col = ball
    across = (tilt.y > dead_zone) - (tilt.y < -dead_zone)  # right edge down: it rolls right
    down = (tilt.x > dead_zone) - (tilt.x < -dead_zone)  # top edge up: it rolls down the screen
    if maze[row][col + across] != "#":
        col += across
    if maze[row + down][col] != "#":
        row += down
    return row, col


def board(maze: Sequence[str], ball: Cell) -> str:
    rows = [list(line.replace("S", " ")) for line in maze]
    rows[ball[0]][ball[1]] = "o"
    return "\n".join("".join(r) for r in rows)


def play(args: argparse.Namespace, out) -> int:
    ball, goal = find(MAZE, "S"), find(MAZE, "G")
    plain = args.no_tty or not out.isatty()
    frames = 0
    with tilt_client.connect(args.socket) as c:
        c.watch(rate=args.rate)
        out.write(board(MAZE, ball) + "\n" if plain else "\x1b[2J\x1b[?25l")  # clear the screen, hide the cursor
        try:
            for frame in c.frames():
                frames += 1
                ball = step(MAZE, ball, frame.tilt, args.dead_zone)
                if plain:
                    out.write("frame %d tilt %+.4f %+.4f ball %d %d\n" % (frames, frame.tilt.x, frame.tilt.y, *ball))
                else:
                    out.write("\x1b[H%s\ntilt x %+.2f y %+.2f   frame %d   Ctrl-C quits\x1b[K\n" % (
                        board(MAZE, ball), frame.tilt.x, frame.tilt.y, frames))
                out.flush()
                if ball == goal or frames == args.frames:
                    break
        finally:
            if not plain:
                out.write("\x1b[?25h")  # the cursor back
    out.write("won after %d frames\n" % frames if ball == goal else
              "stopped after %d frames at %d %d\n" % (frames, *ball))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="tilt_maze.py", description="Roll a ball through a maze by tilting the device.")
    p.add_argument("--socket", metavar="PATH", help="tiltd's socket (default: $TILTD_SOCKET, else the usual places)")
    p.add_argument("--rate", type=float, default=8.0, metavar="HZ", help="frames a second: the ball's speed, cells "
                   "a second (default 8)")
    p.add_argument("--dead-zone", type=float, default=0.08, metavar="RAD", help="a tilt this small does not move "
                   "the ball, radians (default 0.08)")
    p.add_argument("--frames", type=int, metavar="N", help="stop after N frames")
    p.add_argument("--no-tty", action="store_true", help="print one line per frame instead of drawing (the default "
                   "when the output is not a terminal)")
    args = p.parse_args(argv)
    try:
        return play(args, sys.stdout)
    except tilt_client.TiltError as e:
        sys.stderr.write("error: %s\n" % e.message)
        return 1
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        return 0


if __name__ == "__main__":
    sys.exit(main())
