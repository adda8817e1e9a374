"""``Attitude.attitude_at`` equals TiltClient's ``AttitudeFrame.extrapolated(toMonotonic:)``: the Swift suite's own
cases (Tests/TiltClientTests/ExtrapolationTests.swift), ported, and values worked out by hand from the Swift
formula (``tilt watch`` has no ``--predict`` to compare against).
"""

from __future__ import annotations

import dataclasses
import math
import unittest

import tiltd_process  # noqa: F401

from tilt_client import STANDARD_GRAVITY, Attitude, Flags, Quaternion, Tilt, Vector
from tilt_client.extrapolation import inverse_rotate, multiply, to_picture
from tilt_client.messages import euler_of

G = STANDARD_GRAVITY


def axis_angle(axis, angle):
    n = math.sqrt(sum(a * a for a in axis))
    s = math.sin(angle / 2)
    return Quaternion(math.cos(angle / 2), axis[0] / n * s, axis[1] / n * s, axis[2] / n * s)


def from_euler(roll, pitch, yaw):
    return multiply(multiply(axis_angle((0, 0, 1), yaw), axis_angle((0, 1, 0), pitch)), axis_angle((1, 0, 0), roll))


def rotation_vector(q):
    """The logarithm map (TiltCore's ``Quaternion.rotationVector``)."""
    if q.w < 0:
        q = Quaternion(-q.w, -q.x, -q.y, -q.z)
    s = math.sqrt(q.x * q.x + q.y * q.y + q.z * q.z)
    if s < 1e-12:
        return Vector(q.x * 2, q.y * 2, q.z * 2)
    angle = 2 * math.atan2(s, q.w)
    return Vector(q.x * angle / s, q.y * angle / s, q.z * angle / s)


def conj(q):
    return Quaternion(q.w, -q.x, -q.y, -q.z)


def angle_between(a, b):
    v = rotation_vector(multiply(b, conj(a)))
    return math.sqrt(sum(x * x for x in v))


def frame(rate, tilt=(0.1, -0.2), rest=False, q=None, mono=10.0, axes="device"):
    q = q if q is not None else from_euler(0.1, 0.2, 0.3)
    return Attitude(
        seq=7, time=3.0, mono=mono, quaternion=q, euler=euler_of(q),
        gravity=inverse_rotate(q, Vector(0, 0, -G)), rotation_rate=Vector(*rate), user_acceleration=Vector(0, 0, 0),
        tilt=Tilt(*tilt), flags=Flags(rest=rest), source="test", axes=axes,
    )


def picture(rotation, f):
    """``ScreenRotation.picture(_ frame:)`` for a device-axes frame."""
    def turn(v):
        return to_picture(rotation, v)

    t = turn(Vector(f.tilt.x, f.tilt.y, 0))
    return dataclasses.replace(
        f, gravity=turn(f.gravity), rotation_rate=turn(f.rotation_rate),
        user_acceleration=turn(f.user_acceleration), tilt=Tilt(t.x, t.y), axes="screen-%d" % rotation,
    )


def norm(v):
    return math.sqrt(sum(x * x for x in v))


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


class SwiftSuiteTests(unittest.TestCase):
    """ExtrapolationTests.swift, case by case."""

    def test_carries_the_rate_forward(self) -> None:
        f = frame((1, 0.5, 0))
        later = f.attitude_at(10.02)
        turn = rotation_vector(multiply(conj(f.quaternion), later.quaternion))
        self.assertLess(norm(sub(turn, (0.02, 0.01, 0))), 1e-12)
        self.assertLess(abs(later.predicted - 0.02), 1e-12)
        self.assertLess(norm(sub(later.gravity, inverse_rotate(later.quaternion, Vector(0, 0, -G)))), 1e-12)
        self.assertTrue(0.1 < later.tilt.x < 0.1 + 0.02)
        self.assertLess(abs(later.tilt.x - 0.1 - 0.02 * (1 - (0.1 / 0.5) * (0.1 / 0.5))), 3e-4)
        ahead = dataclasses.replace(f, predicted=0.015)
        self.assertLess(abs(ahead.attitude_at(10.02).predicted - 0.02), 1e-12)

    def test_limits(self) -> None:
        f = frame((0, 40, 0), tilt=(0, 0.49))
        self.assertIs(f.attitude_at(9.9), f)
        far = f.attitude_at(11)
        self.assertLess(abs(far.predicted - 0.1), 1e-12)
        self.assertTrue(0.49 < far.tilt.y < 0.5)
        still = frame((0.003, 0, 0), rest=True)
        self.assertIs(still.attitude_at(10.05), still)
        unknown = dataclasses.replace(frame((1, 0, 0)), mono=None)
        self.assertIs(unknown.attitude_at(10.05), unknown)
        self.assertIs(f.attitude_at(math.nan), f)

    def test_turned_axes(self) -> None:
        device = frame((1, 0, 0))
        turned = picture(90, device)
        a = device.attitude_at(10.03)
        b = turned.attitude_at(10.03)
        self.assertLess(angle_between(a.quaternion, b.quaternion), 1e-12)
        self.assertLess(norm(sub(to_picture(90, a.gravity), b.gravity)), 1e-12)
        t = to_picture(90, Vector(a.tilt.x, a.tilt.y, 0))
        self.assertLess(abs(t.x - b.tilt.x), 1e-12)
        self.assertLess(abs(t.y - b.tilt.y), 1e-12)


class ByHandTests(unittest.TestCase):
    """From the identity, 1 rad/s about x for 20 ms: every field worked out from the Swift formula."""

    def test_a_turn_about_x(self) -> None:
        f = frame((1, 0, 0), tilt=(0.1, -0.2), q=Quaternion(1, 0, 0, 0))
        g = f.attitude_at(10.02)
        a = 0.02  # the angle turned: rate × dt
        # quaternion ⊗ exp(turn): a rotation of a about x.
        expected_q = (math.cos(a / 2), math.sin(a / 2), 0, 0)
        for got, want in zip(g.quaternion, expected_q):
            self.assertAlmostEqual(got, want, places=15)
        # gravity = q⁻¹ (0, 0, -g): Rx(-a) applied to (0, 0, -g).
        for got, want in zip(g.gravity, (0, -G * math.sin(a), -G * math.cos(a))):
            self.assertAlmostEqual(got, want, places=13)
        # tilt through the soft clamp of limit 0.5: L tanh((L atanh(t/L) + rate dt) / L).
        self.assertAlmostEqual(g.tilt.x, 0.5 * math.tanh((0.5 * math.atanh(0.1 / 0.5) + a) / 0.5), places=15)
        self.assertEqual(g.tilt.y, 0.5 * math.tanh((0.5 * math.atanh(-0.2 / 0.5) + 0) / 0.5))
        self.assertAlmostEqual(g.euler.roll, a, places=14)
        self.assertAlmostEqual(g.predicted, 0.02, places=15)
        # What does not move: rates, time, mono, seq.
        self.assertEqual((g.rotation_rate, g.time, g.mono, g.seq), (f.rotation_rate, f.time, f.mono, f.seq))

    def test_a_predicted_frame_moves_the_rest_of_the_way_and_stops_at_the_horizon(self) -> None:
        f = dataclasses.replace(frame((0, 0, 2), q=Quaternion(1, 0, 0, 0)), predicted=0.03)
        # Asked for 10.2: only 0.1 - 0.03 = 0.07 s more, a turn of 0.14 rad about z.
        g = f.attitude_at(10.2)
        self.assertAlmostEqual(g.predicted, 0.1, places=15)
        self.assertAlmostEqual(g.quaternion.w, math.cos(0.07), places=15)
        self.assertAlmostEqual(g.quaternion.z, math.sin(0.07), places=15)
        self.assertAlmostEqual(g.euler.yaw, 0.14, places=14)
        # Asked for a time before mono + predicted: as it is.
        self.assertIs(f.attitude_at(10.03), f)
        # A tilt limit of 0: the tilt stays.
        self.assertEqual(f.attitude_at(10.05, tilt_limit=0).tilt, f.tilt)

    def test_tiny_rates_use_the_series(self) -> None:
        f = frame((1e-9, 0, 0), q=Quaternion(1, 0, 0, 0))
        g = f.attitude_at(10.05)
        self.assertAlmostEqual(g.quaternion.x, 0.5 * 1e-9 * 0.05, places=20)
        self.assertAlmostEqual(math.sqrt(sum(x * x for x in g.quaternion)), 1.0, places=15)


if __name__ == "__main__":
    unittest.main()
