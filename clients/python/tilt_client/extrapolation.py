"""Carrying a frame ahead to the client's own time: ``AttitudeFrame.extrapolated(toMonotonic:tiltLimit:)`` of
TiltClient (Sources/TiltClient/AttitudeFrame+Extrapolation.swift), the same math in the same order, with the
quaternion helpers of TiltCore it uses.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Tuple

from .messages import MAX_PREDICT, STANDARD_GRAVITY, Quaternion, Tilt, Vector, axes_rotation, euler_of

if TYPE_CHECKING:
    from .messages import Attitude

_IDENTITY = Quaternion(1.0, 0.0, 0.0, 0.0)


def normalized(q: Quaternion) -> Quaternion:
    """``q`` scaled to unit length; the identity if its length is zero or not finite."""
    n = math.sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z)
    if not (n > 0 and math.isfinite(n)):
        return _IDENTITY
    return Quaternion(q.w / n, q.x / n, q.y / n, q.z / n)


def multiply(a: Quaternion, b: Quaternion) -> Quaternion:
    """The Hamilton product ``a ⊗ b``: the rotation ``b`` followed by ``a``."""
    return Quaternion(
        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
        a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
    )


def from_rotation_vector(v: Vector) -> Quaternion:
    """The rotation whose axis is ``v``'s direction and whose angle is its length (the exponential map)."""
    angle = math.sqrt(v.x * v.x + v.y * v.y + v.z * v.z)
    if angle < 1e-9:
        # Second-order expansion, as TiltCore: keeps tiny rotations exact to double precision.
        return normalized(Quaternion(1 - angle * angle / 8, v.x * 0.5, v.y * 0.5, v.z * 0.5))
    # Quaternion(axis:angle:): the axis normalized (the identity for one that cannot be), then half the angle.
    n = angle
    if not (n > 0 and math.isfinite(n)):
        return _IDENTITY
    h = angle / 2
    s = math.sin(h)
    return Quaternion(math.cos(h), v.x / n * s, v.y / n * s, v.z / n * s)


def _cross(a: Tuple[float, float, float], b: Tuple[float, float, float]) -> Tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def rotate(q: Quaternion, v: Vector) -> Vector:
    """``v`` rotated by the unit quaternion ``q``: ``q ⊗ (0, v) ⊗ q*``."""
    u = (q.x, q.y, q.z)
    c = _cross(u, v)
    t = (c[0] * 2, c[1] * 2, c[2] * 2)
    ut = _cross(u, t)
    return Vector(v.x + t[0] * q.w + ut[0], v.y + t[1] * q.w + ut[1], v.z + t[2] * q.w + ut[2])


def inverse_rotate(q: Quaternion, v: Vector) -> Vector:
    """``v`` rotated by the inverse of ``q`` (earth → device for an attitude)."""
    return rotate(Quaternion(q.w, -q.x, -q.y, -q.z), v)


def to_picture(rotation: int, v: Vector) -> Vector:
    """``v``, in the device's axes, in the axes of a picture turned ``rotation`` degrees (``ScreenRotation``)."""
    if rotation == 90:
        return Vector(v.y, -v.x, v.z)
    if rotation == 180:
        return Vector(-v.x, -v.y, v.z)
    if rotation == 270:
        return Vector(-v.y, v.x, v.z)
    return v


def to_device(rotation: int, v: Vector) -> Vector:
    """``v``, in a turned picture's axes, back in the device's."""
    if rotation == 90:
        return Vector(-v.y, v.x, v.z)
    if rotation == 180:
        return Vector(-v.x, -v.y, v.z)
    if rotation == 270:
        return Vector(v.y, -v.x, v.z)
    return v


def extrapolated(frame: "Attitude", monotonic: float, tilt_limit: float = 0.5) -> "Attitude":
    """See :meth:`tilt_client.Attitude.attitude_at`."""
    mono = frame.mono
    if mono is None or frame.flags.rest or not math.isfinite(monotonic):
        return frame
    already = frame.predicted or 0.0
    dt = min(monotonic - (mono + already), MAX_PREDICT - already)
    if not dt > 0:
        return frame
    rotation = axes_rotation(frame.axes) or 0
    rate = frame.rotation_rate
    d = to_device(rotation, rate)
    q = normalized(multiply(frame.quaternion, from_rotation_vector(Vector(d.x * dt, d.y * dt, d.z * dt))))
    gravity = to_picture(rotation, inverse_rotate(q, Vector(0.0, 0.0, -STANDARD_GRAVITY)))

    # The tilt is the swing from the reference in the picture's axes: to first order it moves by the turn about
    # those axes, before the clamp.
    def carried(value: float, by: float) -> float:
        if not tilt_limit > 0:
            return value
        ratio = min(max(value / tilt_limit, -0.999_999), 0.999_999)
        raw = tilt_limit * math.atanh(ratio) + by
        return tilt_limit * math.tanh(raw / tilt_limit)

    tilt = Tilt(carried(frame.tilt.x, rate.x * dt), carried(frame.tilt.y, rate.y * dt))
    return dataclasses.replace(
        frame, quaternion=q, euler=euler_of(q), gravity=gravity, tilt=tilt, predicted=already + dt
    )
