"""The daemon's messages as typed, immutable dataclasses, and the decoding of its lines (docs/protocol.md).

One class per server message class: :class:`Hello`, :class:`Attitude`, :class:`Sample`, :class:`Gap`,
:class:`Power`, :class:`SensorEvent`, :class:`Orientation`, :class:`Status`, :class:`Tare`,
:class:`ErrorMessage`; a class this version does not know decodes as :class:`UnknownMessage` (the protocol lets
a newer daemon add classes). Attributes are the wire's fields in snake_case (``rotationRate`` is
``rotation_rate``); fields this version does not know are ignored, and every message keeps the object it came
from in ``wire`` (a ``dict``). As the protocol asks, ``null`` for a number reads as NaN (a non-finite value) and
a missing optional field as ``None``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional, Tuple, Union

from .errors import WireError, WireErrorKind, classify, closes_connection

#: The protocol version this client speaks (``hello.protocol``).
PROTOCOL_VERSION = 1
#: The furthest ahead a ``watch`` may ask frames to be predicted, seconds (``WireProtocol.maxPredict``).
MAX_PREDICT = 0.1
#: The rates the daemon grants, Hz (``WireProtocol.minRate`` … ``maxRate``); a ``watch`` without rate gets 60.
MIN_RATE, MAX_RATE, DEFAULT_RATE = 0.1, 1000.0, 60.0
#: The longest line this client accepts from the daemon, bytes (as ``TiltClient``: 1 MiB).
MAX_LINE_LENGTH = 1 << 20
#: Standard gravity, m/s² (``TiltCore.standardGravity``).
STANDARD_GRAVITY = 9.80665
#: The screen rotations the wire knows, degrees counter-clockwise.
SCREEN_ROTATIONS = (0, 90, 180, 270)


class Vector(NamedTuple):
    x: float
    y: float
    z: float


class Quaternion(NamedTuple):
    """Hamilton ``[w, x, y, z]``, device → earth (ENU), the wire's order."""

    w: float
    x: float
    y: float
    z: float


class Tilt(NamedTuple):
    """The UI tilt, radians, about the screen's x and y axes."""

    x: float
    y: float


class Euler(NamedTuple):
    """Intrinsic Z-Y-X angles of the quaternion, radians."""

    roll: float
    pitch: float
    yaw: float


class Flags(NamedTuple):
    initializing: bool = False
    rest: bool = False
    accel_disturbed: bool = False
    mag_disturbed: bool = False


def euler_of(q: Quaternion) -> Euler:
    """The intrinsic Z-Y-X Euler angles of ``q`` (``Quaternion.euler`` in TiltCore)."""
    w, x, y, z = q
    sinp = max(-1.0, min(1.0, 2 * (w * y - z * x)))
    return Euler(
        math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
        math.asin(sinp) if sinp == sinp else math.nan,
        math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)),
    )


def axes_rotation(axes: str) -> Optional[int]:
    """The screen rotation an ``axes`` name stands for (``device`` 0, ``screen-90`` 90, …), or ``None``."""
    if axes == "device":
        return 0
    if axes.startswith("screen-"):
        try:
            degrees = int(axes[7:])
        except ValueError:
            return None
        return degrees if degrees in SCREEN_ROTATIONS else None
    return None


def _wire_field() -> Any:
    return field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True)
class SensorInfo:
    """A sample source, as ``hello`` lists it."""

    name: str
    kinds: Tuple[str, ...]
    location: str
    rate: Optional[float]
    mode: str


@dataclass(frozen=True)
class Power:
    """``power``: the power state changed (also ``hello.power`` and ``status.power``)."""

    on_battery: bool
    capacity: Optional[int]
    profile: Optional[str]
    low_power: bool
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Hello:
    """``hello``: the greeting, sent once on connect."""

    protocol: int
    daemon: str
    sensors: Tuple[SensorInfo, ...]
    power: Power
    #: The sensor's state on connect (``idle``, ``active``, ``finished``, …); ``None`` from older daemons.
    sensor: Optional[str]
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Attitude:
    """``attitude``: one fused frame."""

    seq: int
    #: The sample's time on the sensor's clock, s.
    time: float
    #: The daemon's CLOCK_MONOTONIC when the sample entered it, s (``time.monotonic()`` on this machine), if known.
    mono: Optional[float]
    quaternion: Quaternion
    euler: Euler
    gravity: Vector
    rotation_rate: Vector
    user_acceleration: Vector
    tilt: Tilt
    flags: Flags
    source: str
    #: ``device``, or ``screen-90`` / ``screen-180`` / ``screen-270``: the axes of gravity, rates and tilt.
    axes: str = "device"
    #: ``magnetic`` (9D) or ``game`` (6D), ``None`` when not said.
    reference: Optional[str] = None
    heading_accuracy: Optional[float] = None
    #: How far ahead of ``time`` the attitude fields are predicted, s; ``None`` for a frame as fused.
    predicted: Optional[float] = None
    wire: Dict[str, Any] = _wire_field()

    @property
    def screen_rotation(self) -> int:
        """The rotation of the picture whose axes the frame is in, degrees (0 for ``device``)."""
        return axes_rotation(self.axes) or 0

    def attitude_at(self, monotonic: float, tilt_limit: float = 0.5) -> "Attitude":
        """The attitude at ``monotonic`` (``time.monotonic()``, the clock of ``mono``), carried ahead by the
        frame's rotation rate, exactly as ``AttitudeFrame.extrapolated(toMonotonic:tiltLimit:)`` in TiltClient.

        At most :data:`MAX_PREDICT` ahead of the sample in all (``predicted`` included); a frame at or past
        ``monotonic``, one without ``mono`` and one at rest are returned as they are. ``tilt_limit`` is the
        daemon's ``limit`` (0.5 rad unless configured): the tilt moves through its soft clamp.
        """
        from .extrapolation import extrapolated

        return extrapolated(self, monotonic, tilt_limit)


@dataclass(frozen=True)
class Sample:
    """``sample``: one raw sample after calibration (to ``raw`` watchers)."""

    t: float
    gyr: Vector
    acc: Vector
    mag: Optional[Vector]
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Gap:
    """``gap``: raw samples this watcher was not sent (or the log's own gap)."""

    count: int
    first: float
    last: float
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class SensorEvent:
    """``sensor``: the sensor changed state (``active``, ``idle``, ``lost``, ``finished``; an open set)."""

    state: str
    reason: str
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Orientation:
    """``orientation``: the discrete orientation or tilt changed (iio-sensor-proxy's values; an open set)."""

    orientation: str
    tilt: str
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Busy:
    """``status.busy``: another program holds the IIO buffer and the daemon polls instead."""

    device: str
    node: str
    holder: Optional[str]
    holder_pid: Optional[int]
    rate: float
    retry_in: float


@dataclass(frozen=True)
class DSU:
    """``status.dsu``: tiltd's DSU server, while it runs."""

    listen: str
    subscribers: int
    sent: int
    received: int
    dropped: Dict[str, int]


@dataclass(frozen=True)
class StatusClient:
    """``status.client``: the asking connection."""

    id: int
    watching: bool
    rate: Optional[float]
    raw: bool
    sent: int
    dropped: int
    errors: int
    uid: Optional[int]
    pid: Optional[int]
    screen_rotation: Optional[int]
    magnetometer: Optional[bool]
    predict: Optional[float]


@dataclass(frozen=True)
class Status:
    """``status``: the answer to ``status``."""

    daemon: str
    protocol: int
    uptime: float
    source: str
    sensor: str
    clients: int
    watchers: int
    requested_rate: Optional[float]
    samples: int
    rejected: int
    last_rejection: Optional[str]
    seq: Optional[int]
    gyro_bias: Vector
    calibrated: bool
    calibration: str
    power: Power
    client: StatusClient
    filters: Optional[Tuple[str, ...]]
    orientation: Optional[Orientation]
    sensor_mode: Optional[str]
    busy: Optional[Busy]
    dsu: Optional[DSU]
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class Tare:
    """``tare``: the answer to ``tare``, the new reference pose (after ``reset``, the first pose)."""

    reference: Quaternion
    wire: Dict[str, Any] = _wire_field()


@dataclass(frozen=True)
class ErrorMessage:
    """``error``: a complaint about the client's last line (the connection stays open unless ``closing``).

    ``kind`` is read off the message, as the protocol's table of errors words them.
    """

    message: str
    wire: Dict[str, Any] = _wire_field()

    @property
    def kind(self) -> WireErrorKind:
        return classify(self.message)[0]

    @property
    def closing(self) -> bool:
        """Whether the daemon closes the connection after this one (daemon full, still flooding)."""
        return closes_connection(self.message)


@dataclass(frozen=True)
class UnknownMessage:
    """A well-formed message of a class this version does not know (a newer daemon's); ignore it, or read ``wire``."""

    message_class: str
    wire: Dict[str, Any] = _wire_field()


Message = Union[
    Hello, Attitude, Sample, Gap, Power, SensorEvent, Orientation, Status, Tare, ErrorMessage, UnknownMessage
]

# --- decoding -----------------------------------------------------------------------------------------------------

_MISSING = object()


class _Fields:
    """Reads one object's fields with the wire's leniency, raising ``malformedMessage`` saying which field."""

    __slots__ = ("o", "what")

    def __init__(self, o: Any, what: str) -> None:
        if not isinstance(o, dict):
            raise _malformed("%s is not a JSON object" % what)
        self.o = o
        self.what = what

    def _get(self, key: str, required: bool) -> Any:
        v = self.o.get(key, _MISSING)
        if v is _MISSING and required:
            raise _malformed("%s has no '%s'" % (self.what, key))
        return None if v is _MISSING else v

    def _wrong(self, key: str, expected: str) -> WireError:
        return _malformed("%s's '%s' is not %s: %s" % (self.what, key, expected, _short(self.o.get(key))))

    def num(self, key: str, required: bool = True) -> float:
        """A number; ``null`` (a non-finite value) and, when not required, a missing one read as NaN."""
        v = self._get(key, required)
        if v is None:
            return math.nan
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self._wrong(key, "a number")
        return float(v)

    def opt_num(self, key: str) -> Optional[float]:
        v = self._get(key, False)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise self._wrong(key, "a number")
        return float(v)

    def int(self, key: str) -> int:
        v = self.opt_int(key)
        if v is None:
            raise _malformed("%s has no '%s'" % (self.what, key))
        return v

    def opt_int(self, key: str) -> Optional[int]:
        v = self._get(key, False)
        if v is None:
            return None
        if isinstance(v, bool):
            raise self._wrong(key, "an integer")
        if isinstance(v, int):
            return v
        if isinstance(v, float) and v.is_integer():
            return int(v)
        raise self._wrong(key, "an integer")

    def str(self, key: str, default: Any = _MISSING) -> str:
        v = self._get(key, default is _MISSING)
        if v is None:
            if default is _MISSING:
                raise self._wrong(key, "a string")
            return default
        if not isinstance(v, str):
            raise self._wrong(key, "a string")
        return v

    def opt_str(self, key: str) -> Optional[str]:
        return self.str(key, None)

    def bool(self, key: str, default: Any = _MISSING) -> bool:
        v = self._get(key, default is _MISSING)
        if v is None:
            if default is _MISSING:
                raise self._wrong(key, "true or false")
            return default
        if not isinstance(v, bool):
            raise self._wrong(key, "true or false")
        return v

    def opt_bool(self, key: str) -> Optional[bool]:
        return self.bool(key, None)

    def numbers(self, key: str, count: int, required: bool = True) -> Optional[Tuple[float, ...]]:
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, list) or len(v) != count:
            raise _malformed("%s's '%s' is not %d numbers: %s" % (self.what, key, count, _short(v)))
        out = []
        for x in v:
            if x is None:
                out.append(math.nan)
            elif isinstance(x, bool) or not isinstance(x, (int, float)):
                raise _malformed("%s's '%s' is not %d numbers: %s" % (self.what, key, count, _short(v)))
            else:
                out.append(float(x))
        return tuple(out)

    def vector(self, key: str, required: bool = True) -> Optional[Vector]:
        v = self.numbers(key, 3, required)
        return None if v is None else Vector(*v)

    def strings(self, key: str, required: bool = True) -> Optional[Tuple[str, ...]]:
        v = self._get(key, required)
        if v is None:
            return None
        if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
            raise self._wrong(key, "a list of strings")
        return tuple(v)

    def obj(self, key: str, required: bool = True) -> Optional["_Fields"]:
        v = self._get(key, required)
        if v is None:
            return None
        return _Fields(v, "%s's '%s'" % (self.what, key))


def _short(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _malformed(what: str) -> WireError:
    return WireError(WireErrorKind.MALFORMED_MESSAGE, "cannot decode a message from the daemon: " + what)


_ZERO = Vector(0.0, 0.0, 0.0)


def _power(f: _Fields, wire: Dict[str, Any]) -> Power:
    return Power(f.bool("onBattery"), f.opt_int("capacity"), f.opt_str("profile"), f.bool("lowPower"), wire)


def _hello(f: _Fields) -> Hello:
    sensors = f._get("sensors", True)
    if not isinstance(sensors, list):
        raise f._wrong("sensors", "a list")
    infos = []
    for i, s in enumerate(sensors):
        sf = _Fields(s, "hello's sensors[%d]" % i)
        infos.append(
            SensorInfo(sf.str("name"), sf.strings("kinds") or (), sf.str("location"), sf.opt_num("rate"), sf.str("mode"))
        )
    p = f.obj("power")
    assert p is not None
    return Hello(f.int("protocol"), f.str("daemon"), tuple(infos), _power(p, p.o), f.opt_str("sensor"), f.o)


def _attitude(f: _Fields) -> Attitude:
    o = f.o
    q = Quaternion(*f.numbers("quaternion", 4))  # type: ignore[misc]
    tilt_raw = f._get("tilt", True)
    if not isinstance(tilt_raw, list):
        raise f._wrong("tilt", "two numbers")
    tilt = Tilt(*f.numbers("tilt", 2)) if len(tilt_raw) == 2 else Tilt(0.0, 0.0)  # type: ignore[misc]
    fl = f.obj("flags", False)
    flags = (
        Flags(
            fl.bool("initializing", False), fl.bool("rest", False), fl.bool("accelDisturbed", False),
            fl.bool("magDisturbed", False),
        )
        if fl is not None
        else Flags()
    )
    axes = f.str("axes", "device")
    if axes_rotation(axes) is None:
        raise _malformed("unknown axes '%s' in an attitude frame" % axes[:32])
    euler = None
    e = o.get("euler")
    if isinstance(e, dict):
        ef = _Fields(e, "attitude's 'euler'")
        euler = Euler(ef.num("roll"), ef.num("pitch"), ef.num("yaw"))
    predicted = f.opt_num("predicted")
    if predicted is not None and not (math.isfinite(predicted) and predicted > 0):
        predicted = None
    return Attitude(
        f.int("seq"),
        f.num("time"),
        f.opt_num("mono"),
        q,
        euler if euler is not None else euler_of(q),
        f.vector("gravity", False) or _ZERO,
        f.vector("rotationRate", False) or _ZERO,
        f.vector("userAcceleration", False) or _ZERO,
        tilt,
        flags,
        f.str("source", ""),
        axes,
        f.opt_str("reference"),
        f.opt_num("headingAccuracy"),
        predicted,
        o,
    )


def _sample(f: _Fields) -> Sample:
    return Sample(f.num("t"), f.vector("gyr"), f.vector("acc"), f.vector("mag", False), f.o)  # type: ignore[arg-type]


def _orientation(f: _Fields, wire: Dict[str, Any]) -> Orientation:
    return Orientation(f.str("orientation"), f.str("tilt"), wire)


def _status(f: _Fields) -> Status:
    c = f.obj("client")
    assert c is not None
    client = StatusClient(
        c.int("id"), c.bool("watching"), c.opt_num("rate"), c.bool("raw"), c.int("sent"), c.int("dropped"),
        c.int("errors"), c.opt_int("uid"), c.opt_int("pid"), c.opt_int("screenRotation"), c.opt_bool("magnetometer"),
        c.opt_num("predict"),
    )
    p = f.obj("power")
    assert p is not None
    o = f.obj("orientation", False)
    b = f.obj("busy", False)
    busy = (
        Busy(b.str("device"), b.str("node"), b.opt_str("holder"), b.opt_int("holderPid"), b.num("rate"), b.num("retryIn"))
        if b is not None
        else None
    )
    d = f.obj("dsu", False)
    dsu = None
    if d is not None:
        dropped_f = d.obj("dropped", False)
        dropped = {k: dropped_f.int(k) for k in dropped_f.o} if dropped_f is not None else {}
        dsu = DSU(d.str("listen"), d.int("subscribers"), d.int("sent"), d.int("received"), dropped)
    calibration = f.str("calibration")
    calibrated = f.opt_bool("calibrated")
    return Status(
        f.str("daemon"),
        f.int("protocol"),
        f.num("uptime", False),
        f.str("source"),
        f.str("sensor"),
        f.int("clients"),
        f.int("watchers"),
        f.opt_num("requestedRate"),
        f.int("samples"),
        f.int("rejected"),
        f.opt_str("lastRejection"),
        f.opt_int("seq"),
        f.vector("gyroBias"),  # type: ignore[arg-type]
        calibrated if calibrated is not None else not calibration.startswith("none"),
        calibration,
        _power(p, p.o),
        client,
        f.strings("filters", False),
        _orientation(o, o.o) if o is not None else None,
        f.opt_str("sensorMode"),
        busy,
        dsu,
        f.o,
    )


_DECODERS = {
    "hello": _hello,
    "attitude": _attitude,
    "sample": _sample,
    "gap": lambda f: Gap(f.int("count"), f.num("first"), f.num("last"), f.o),
    "power": lambda f: _power(f, f.o),
    "sensor": lambda f: SensorEvent(f.str("state"), f.str("reason"), f.o),
    "orientation": lambda f: _orientation(f, f.o),
    "status": _status,
    "tare": lambda f: Tare(Quaternion(*f.numbers("reference", 4)), f.o),
    "error": lambda f: ErrorMessage(f.str("message"), f.o),
}

#: The message classes this version knows, each with its type.
MESSAGE_CLASSES = {
    "hello": Hello,
    "attitude": Attitude,
    "sample": Sample,
    "gap": Gap,
    "power": Power,
    "sensor": SensorEvent,
    "orientation": Orientation,
    "status": Status,
    "tare": Tare,
    "error": ErrorMessage,
}


def decode(line: Union[bytes, str]) -> Message:
    """The message on one line from the daemon (with or without its newline).

    Raises :class:`WireError` (``malformedMessage``) for a line that is not a JSON object with a string ``class``,
    or not a valid message of its class; a class this version does not know is an :class:`UnknownMessage`.
    """
    try:
        o = json.loads(line)
    except (ValueError, UnicodeDecodeError) as e:
        raise _malformed("not JSON (%s): %s" % (e, _short_text(line))) from None
    if not isinstance(o, dict):
        raise _malformed("not a JSON object: %s" % _short_text(line))
    cls = o.get("class")
    if not isinstance(cls, str):
        raise _malformed("no string 'class' in %s" % _short_text(line))
    decoder = _DECODERS.get(cls)
    if decoder is None:
        return UnknownMessage(cls, o)
    return decoder(_Fields(o, cls))


def _short_text(line: Union[bytes, str]) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    return repr(text if len(text) <= 80 else text[:77] + "...")
