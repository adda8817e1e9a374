"""The commands a client sends (``ClientCommand`` in TiltWire), checked here as the daemon would check them, so a
bad value fails at the call with the daemon's words instead of coming back as an ``error`` line.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Optional

from .errors import WireError, WireErrorKind
from .messages import MAX_PREDICT, SCREEN_ROTATIONS


@dataclass(frozen=True)
class Watch:
    """A ``watch`` command's settings (``TiltSubscriber``'s watch state)."""

    #: Frames per second wanted; ``None`` for the daemon's default (60). Granted within 0.1 … 1000.
    rate: Optional[float] = 60.0
    enable: bool = True
    #: Also stream every raw ``sample``.
    raw: bool = False
    #: The display's picture rotation, degrees counter-clockwise (0, 90, 180, 270): the wire's ``screenRotation``.
    screen_rotation: int = 0
    #: ``False``: 6D (game) attitude; ``True``: 9D; ``None``: the daemon's default.
    magnetometer: Optional[bool] = None
    #: Seconds ahead of each sample to predict the attitude (0 … 0.1; 0 is none).
    predict: float = 0.0

    def __post_init__(self) -> None:
        rate = self.rate
        if rate is not None and (
            isinstance(rate, bool) or not isinstance(rate, (int, float)) or not (rate > 0 and math.isfinite(rate))
        ):
            raise WireError(
                WireErrorKind.BAD_VALUE, "'rate' must be a positive number of frames per second", field="rate"
            )
        if self.screen_rotation not in SCREEN_ROTATIONS or isinstance(self.screen_rotation, bool):
            raise WireError(
                WireErrorKind.BAD_VALUE,
                "'screenRotation' must be 0, 90, 180 or 270 (degrees counter-clockwise the display turns its "
                "picture), not %s" % (self.screen_rotation,),
                field="screenRotation",
            )
        p = self.predict
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not (math.isfinite(p) and 0 <= p <= MAX_PREDICT):
            raise WireError(
                WireErrorKind.BAD_VALUE,
                "'predict' must be from 0 to %s seconds (how far ahead of each sample to predict the attitude, "
                "e.g. 0.03), not %s" % (MAX_PREDICT, p),
                field="predict",
            )

    def line(self) -> bytes:
        """The command's JSON line, with its newline (fields as ``ClientCommand.jsonLine`` writes them)."""
        o: dict = {"cmd": "watch"}
        if not self.enable:
            o["enable"] = False
        if self.rate is not None:
            o["rate"] = float(self.rate)
        if self.raw:
            o["raw"] = True
        if self.screen_rotation:
            o["screenRotation"] = int(self.screen_rotation)
        if self.magnetometer is not None:
            o["magnetometer"] = bool(self.magnetometer)
        if self.predict > 0:
            o["predict"] = float(self.predict)
        return json.dumps(o, separators=(",", ":")).encode() + b"\n"


POLL = b'{"cmd":"poll"}\n'
STATUS = b'{"cmd":"status"}\n'
TARE = b'{"cmd":"tare"}\n'
RESET_TARE = b'{"cmd":"tare","reset":true}\n'


def tare_line(reset: bool = False) -> bytes:
    return RESET_TARE if reset else TARE
