"""docs/protocol.schema.json checked by a real validator (python3-jsonschema, draft 2020-12) against the lines a real
tiltd writes, and the commands a client sends: the protocol as data matches the daemon, not only the Swift writer
the schema is generated from.
"""

from __future__ import annotations

import json
import socket
import time
import unittest
from pathlib import Path

from tiltd_process import REPO, DaemonTestCase, needs_tiltd

try:
    import jsonschema
except ImportError:  # pragma: no cover - the suite says why it skips
    jsonschema = None

SCHEMA_PATH = REPO / "docs" / "protocol.schema.json"


def load_schema() -> dict:
    with open(str(SCHEMA_PATH), encoding="utf-8") as f:
        return json.load(f)


def validator(definition: str):
    """A validator for one of the schema's top definitions (serverMessage or clientCommand)."""
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    sub = dict(schema)
    sub.pop("oneOf")
    sub["$ref"] = "#/$defs/" + definition
    return jsonschema.Draft202012Validator(sub)


def unknown_keys(value, schema: dict, defs: dict, path: str = "$") -> list:
    """The keys of ``value`` that its schema (``additionalProperties`` left open for clients) names nowhere: tiltd
    writes exactly what the schema says, so any such key means the committed schema is behind the daemon."""
    if "$ref" in schema:
        return unknown_keys(value, defs[schema["$ref"].split("/")[-1]], defs, path)
    found = []
    if isinstance(value, dict) and "properties" in schema:
        for key, sub in value.items():
            if key not in schema["properties"]:
                found.append("%s.%s" % (path, key))
            else:
                found += unknown_keys(sub, schema["properties"][key], defs, "%s.%s" % (path, key))
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += unknown_keys(item, schema["items"], defs, "%s[%d]" % (path, i))
    return found


@unittest.skipUnless(jsonschema is not None, "python3-jsonschema is not installed (scripts/bootstrap installs it)")
class SchemaDocumentTests(unittest.TestCase):
    def test_the_schema_is_a_valid_draft_2020_12_schema(self) -> None:
        jsonschema.Draft202012Validator.check_schema(load_schema())

    def test_it_rejects_what_the_wire_does_not_write(self) -> None:
        messages = validator("serverMessage")
        self.assertFalse(messages.is_valid({"class": "sample", "t": 1.0, "gyr": [0.0, 0.0], "acc": [0, 0, 0]}))
        self.assertFalse(messages.is_valid({"class": "jump"}))
        self.assertFalse(messages.is_valid({"class": "gap", "count": 1}))
        commands = validator("clientCommand")
        self.assertTrue(commands.is_valid({"cmd": "watch", "rate": 30}))
        self.assertFalse(commands.is_valid({"cmd": "watch", "raw": "yes"}))
        self.assertFalse(commands.is_valid({"cmd": "dance"}))


@unittest.skipUnless(jsonschema is not None, "python3-jsonschema is not installed (scripts/bootstrap installs it)")
@needs_tiltd
class DaemonLinesTests(DaemonTestCase):
    tiltd_extra = ["--speed", "10"]

    def test_every_line_a_session_gets_follows_the_schema(self) -> None:
        messages = validator("serverMessage")
        commands = validator("clientCommand")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(10)
        sock.connect(self.socket_path)
        reader = sock.makefile("rb")
        sent = [
            {"cmd": "watch", "rate": 30, "raw": True, "screenRotation": 90, "predict": 0.02, "magnetometer": True},
            {"cmd": "status"},
            {"cmd": "poll"},
            {"cmd": "tare"},
            {"cmd": "tare", "reset": True},
        ]
        for command in sent:
            self.assertEqual(list(commands.iter_errors(command)), [], command)
            sock.sendall((json.dumps(command) + "\n").encode())
        sock.sendall(b"this is not json\n")
        seen = {}
        deadline = time.monotonic() + 60
        wanted = {"hello", "attitude", "sample", "status", "tare", "error"}
        while not wanted <= set(seen) and time.monotonic() < deadline:
            line = reader.readline()
            if not line:
                break
            message = json.loads(line)
            errors = [e.message for e in messages.iter_errors(message)]
            self.assertEqual(errors, [], line)
            defs = load_schema()["$defs"]
            self.assertEqual(unknown_keys(message, defs["message." + message["class"]], defs), [], line)
            seen[message["class"]] = seen.get(message["class"], 0) + 1
        sock.close()
        self.assertTrue(wanted <= set(seen), "classes seen: %s" % seen)


if __name__ == "__main__":
    unittest.main()
