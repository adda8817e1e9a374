"""Decoding every server message class (the protocol's own example lines), the leniency the versioning section
asks for, the error kinds read off the daemon's words, the commands, and the socket path resolution.
"""

from __future__ import annotations

import json
import math
import unittest

from tiltd_process import REPO

import tilt_client
from tilt_client import WireError, WireErrorKind, socketpath
from tilt_client.commands import Watch
from tilt_client.errors import classify, closes_connection

PROTOCOL = REPO / "docs" / "protocol.md"


def example_lines():
    """Every whole ``{"class":…}`` line of docs/protocol.md (those shortened with … left out)."""
    out = []
    for raw in PROTOCOL.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith('{"class":') and "…" not in line:
            out.append(line)
    return out


class ProtocolExampleTests(unittest.TestCase):
    @unittest.skipUnless(PROTOCOL.is_file(), "docs/protocol.md is not beside this package")
    def test_every_example_line_decodes_to_its_type(self) -> None:
        lines = example_lines()
        seen = set()
        for line in lines:
            with self.subTest(line=line[:60]):
                m = tilt_client.decode(line)
                cls = json.loads(line)["class"]
                self.assertIsInstance(m, tilt_client.MESSAGE_CLASSES[cls])
                self.assertEqual(m.wire, json.loads(line))
                seen.add(cls)
        # The protocol shows every class it defines.
        self.assertEqual(seen, set(tilt_client.MESSAGE_CLASSES))

    def test_the_documented_frame(self) -> None:
        f = tilt_client.decode(
            '{"class":"attitude","seq":970,"time":23.3975,"mono":1670.247380218,"quaternion":[0.9997524113667365,'
            '-0.01848880959733016,0.011651186569755428,-0.004186852945355277],"euler":{"roll":-0.03708445628922088,'
            '"pitch":0.023143849947730066,"yaw":-0.008804937558895692},"gravity":[0.22694337491579103,'
            '0.36349355923085436,-9.797282958018489],"rotationRate":[0.0007934828983769916,0.0018407545550680412,'
            '-0.0017265770019147353],"userAcceleration":[-0.019054025084208975,0.10529565923085438,'
            '0.14557604198151175],"tilt":[-0.0003993023173578683,-0.0002541826106370705],"flags":{"initializing":'
            'false,"rest":true,"accelDisturbed":false,"magDisturbed":false},"source":"replay:broad-01-excerpt.csv.gz",'
            '"axes":"device","reference":"magnetic","headingAccuracy":2.0}'
        )
        self.assertIsInstance(f, tilt_client.Attitude)
        self.assertEqual(f.seq, 970)
        self.assertEqual(f.mono, 1670.247380218)
        self.assertEqual(f.quaternion.w, 0.9997524113667365)
        self.assertEqual(f.rotation_rate.z, -0.0017265770019147353)
        self.assertEqual(f.tilt.y, -0.0002541826106370705)
        self.assertTrue(f.flags.rest)
        self.assertFalse(f.flags.accel_disturbed)
        self.assertEqual((f.axes, f.reference, f.heading_accuracy, f.predicted), ("device", "magnetic", 2.0, None))
        # The Euler angles the daemon wrote are those of the quaternion.
        e = tilt_client.messages.euler_of(f.quaternion)
        for a, b in zip(e, f.euler):
            self.assertAlmostEqual(a, b, places=12)

    def test_status_in_full(self) -> None:
        s = tilt_client.decode(
            '{"class":"status","busy":{"device":"iio:device0","node":"/dev/iio:device0","holder":"iio-sensor-proxy '
            '(pid 123)","holderPid":123,"rate":100,"retryIn":1.5},"calibrated":true,"calibration":"file x",'
            '"client":{"dropped":1,"errors":2,"id":3,"magnetometer":false,"pid":4,"predict":0.03,"rate":60.0,'
            '"raw":true,"screenRotation":90,"sent":5,"uid":1000,"watching":true},"clients":2,"daemon":"tiltd 0.1.0",'
            '"dsu":{"dropped":{"crc":2},"listen":"127.0.0.1:26760","received":9,"sent":8,"subscribers":1},'
            '"filters":["magnetic","game"],"gyroBias":[0.1,null,0.3],"lastRejection":"bad row","orientation":'
            '{"orientation":"normal","tilt":"vertical"},"power":{"capacity":43,"lowPower":false,"onBattery":true,'
            '"profile":"balanced"},"protocol":1,"rejected":1,"requestedRate":60.0,"samples":10,"seq":9,"sensor":'
            '"active","sensorMode":"polled","source":"iio:bmi160","uptime":null,"watchers":1}'
        )
        self.assertIsInstance(s, tilt_client.Status)
        self.assertEqual(s.busy.holder_pid, 123)
        self.assertEqual(s.client.screen_rotation, 90)
        self.assertIs(s.client.magnetometer, False)
        self.assertEqual(s.dsu.dropped, {"crc": 2})
        self.assertEqual(s.filters, ("magnetic", "game"))
        self.assertTrue(math.isnan(s.gyro_bias.y))  # null: a non-finite number
        self.assertTrue(math.isnan(s.uptime))
        self.assertEqual(s.orientation.tilt, "vertical")
        self.assertEqual(s.power.capacity, 43)
        # An older daemon without "calibrated": read off the text.
        old = tilt_client.decode(
            '{"class":"status","calibration":"none: x","client":{"dropped":0,"errors":0,"id":1,"raw":false,'
            '"sent":0,"watching":false},"clients":1,"daemon":"tiltd 0.0.9","gyroBias":[0,0,0],"power":{"lowPower":'
            'false,"onBattery":false},"protocol":1,"rejected":0,"samples":0,"sensor":"idle","source":"x",'
            '"uptime":1,"watchers":0}'
        )
        self.assertFalse(old.calibrated)
        self.assertIsNone(old.filters)
        self.assertIsNone(old.client.uid)

    def test_leniency(self) -> None:
        # The fewest fields a frame may have (older daemons), null numbers, unknown enum values and fields.
        f = tilt_client.decode(
            '{"class":"attitude","seq":1,"time":null,"quaternion":[1,0,0,null],"tilt":[0.1,0.2],"future":1,'
            '"reference":"astral","predicted":0}'
        )
        self.assertTrue(math.isnan(f.time))
        self.assertTrue(math.isnan(f.quaternion.z))
        self.assertEqual(f.gravity, (0, 0, 0))
        self.assertEqual(f.axes, "device")
        self.assertIsNone(f.mono)
        self.assertEqual(f.reference, "astral")
        self.assertIsNone(f.predicted)  # as TiltWire: only a positive, finite horizon counts
        self.assertEqual(f.flags, tilt_client.Flags())
        self.assertEqual(tilt_client.decode('{"class":"sensor","state":"dreaming","reason":"x"}').state, "dreaming")
        self.assertIsNone(tilt_client.decode('{"class":"sample","t":1,"gyr":[0,0,0],"acc":[0,0,9.8],"mag":null}').mag)
        m = tilt_client.decode(b'{"class":"hello","protocol":1,"daemon":"tiltd 9","sensors":[],"power":'
                               b'{"onBattery":false,"lowPower":false}}\n')
        self.assertIsNone(m.sensor)
        self.assertIsNone(m.power.profile)


class ErrorKindTests(unittest.TestCase):
    def test_the_daemons_words_give_the_kind(self) -> None:
        cases = [
            ('not a JSON object; send one object per line, e.g. {"cmd":"status"}', WireErrorKind.NOT_AN_OBJECT,
             None, None),
            ('missing "cmd"; known commands: watch, poll, status, tare', WireErrorKind.MISSING_COMMAND, None, None),
            ("unknown command 'fly'; known commands: watch, poll, status, tare", WireErrorKind.UNKNOWN_COMMAND,
             None, "fly"),
            ("'rate' has the wrong type; expected e.g. {\"cmd\":\"watch\",\"rate\":30}", WireErrorKind.WRONG_TYPE,
             "rate", None),
            ("'rate' must be a positive number of frames per second", WireErrorKind.BAD_VALUE, "rate", None),
            ("'screenRotation' must be 0, 90, 180 or 270 (degrees counter-clockwise the display turns its "
             "picture), not 45", WireErrorKind.BAD_VALUE, "screenRotation", None),
            ("'predict' must be from 0 to 0.1 seconds (how far ahead ...), not 0.25", WireErrorKind.BAD_VALUE,
             "predict", None),
            ("no magnetometer: this daemon fuses without one", WireErrorKind.BAD_VALUE, "magnetometer", None),
            ("line too long (at least 67456 bytes; the limit is 65536); it was discarded",
             WireErrorKind.LINE_TOO_LONG, None, None),
            ("tare refused: uid 65534 is neither the daemon's uid 1000 nor root", WireErrorKind.REPORTED, None, None),
            ("rate limit: more than 1 commands per second (burst 2); command dropped", WireErrorKind.REPORTED,
             None, None),
        ]
        for message, kind, field, command in cases:
            with self.subTest(message=message):
                self.assertEqual(classify(message), (kind, field, command))
                self.assertIs(tilt_client.ErrorMessage(message).kind, kind)
        self.assertTrue(closes_connection("rate limit: 21 commands in a row over 1 per second; disconnecting"))
        self.assertTrue(closes_connection("the daemon is full (limit 2 clients); try again later"))
        self.assertFalse(closes_connection("rate limit: more than 1 commands per second (burst 2); command dropped"))
        e = tilt_client.RefusedError("'predict' must be from 0 to 0.1 seconds")
        self.assertEqual((e.kind, e.wire_kind, e.field), ("refused", "badValue", "predict"))
        self.assertEqual(str(e), "tiltd answered: 'predict' must be from 0 to 0.1 seconds")


class CommandTests(unittest.TestCase):
    def test_watch_lines(self) -> None:
        self.assertEqual(json.loads(Watch(30).line()), {"cmd": "watch", "rate": 30.0})
        self.assertEqual(
            json.loads(Watch(60, raw=True, screen_rotation=90, magnetometer=False, predict=0.03).line()),
            {"cmd": "watch", "rate": 60.0, "raw": True, "screenRotation": 90, "magnetometer": False,
             "predict": 0.03},
        )
        self.assertEqual(json.loads(Watch(None, enable=False).line()), {"cmd": "watch", "enable": False})
        self.assertTrue(Watch(30).line().endswith(b"\n"))

    def test_values_the_daemon_refuses_fail_here(self) -> None:
        for kwargs, field in (
            ({"rate": 0}, "rate"), ({"rate": -1}, "rate"), ({"rate": math.inf}, "rate"), ({"rate": math.nan}, "rate"),
            ({"screen_rotation": 45}, "screenRotation"), ({"predict": 0.25}, "predict"), ({"predict": -0.01}, "predict"),
        ):
            with self.subTest(**kwargs):
                with self.assertRaises(WireError) as e:
                    Watch(**kwargs)
                self.assertIs(e.exception.kind, WireErrorKind.BAD_VALUE)
                self.assertEqual(e.exception.field, field)


class SocketPathTests(unittest.TestCase):
    def test_resolution_order(self) -> None:
        r = socketpath.resolve
        env = {"TILTD_SOCKET": "/a.sock", "XDG_RUNTIME_DIR": "/run/user/5"}
        self.assertEqual(r("/given.sock", env), "/given.sock")
        self.assertEqual(r(None, env), "/a.sock")
        self.assertEqual(r("", {"TILTD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/5"}), "/run/user/5/tiltd.sock")
        import os

        uid = os.getuid()
        self.assertEqual(r(None, {}), "/run/tiltd/tiltd.sock" if uid == 0 else "/tmp/tiltd-%d.sock" % uid)

    def test_the_system_socket_as_a_fallback(self) -> None:
        env = {"XDG_RUNTIME_DIR": "/run/user/5"}
        system_only = lambda p: p == socketpath.SYSTEM_SOCKET  # noqa: E731
        both = lambda p: True  # noqa: E731
        rfc = socketpath.resolve_for_client
        self.assertEqual(rfc(None, env, system_only), socketpath.SYSTEM_SOCKET)
        self.assertEqual(rfc(None, env, both), "/run/user/5/tiltd.sock")
        self.assertEqual(rfc(None, env, lambda p: False), "/run/user/5/tiltd.sock")
        # Named by --socket or $TILTD_SOCKET: used as it is.
        self.assertEqual(rfc("/given.sock", env, system_only), "/given.sock")
        self.assertEqual(rfc(None, dict(env, TILTD_SOCKET="/a.sock"), system_only), "/a.sock")


if __name__ == "__main__":
    unittest.main()
