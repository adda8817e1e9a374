"""Framing: one JSON object per line, LF-terminated, a CR before the LF removed (docs/protocol.md, Framing)."""

from __future__ import annotations

from collections import deque
from typing import Deque, Optional, Union

from .errors import WireError, WireErrorKind
from .messages import MAX_LINE_LENGTH, Message, decode


class LineBuffer:
    """Bytes in, complete lines out; a line longer than the limit raises ``lineTooLong`` once and is discarded up
    to its newline, as the daemon does with a client's over-long line.
    """

    __slots__ = ("_buf", "_limit", "_discarding", "_lines")

    def __init__(self, limit: int = MAX_LINE_LENGTH) -> None:
        self._buf = bytearray()
        self._limit = limit
        self._discarding = False
        self._lines: Deque[Union[bytes, WireError]] = deque()

    def feed(self, data: bytes) -> None:
        """Takes bytes read from the socket; complete lines (or the error for an over-long one) queue up."""
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                break
            if self._discarding:
                self._discarding = False
                self._buf.clear()
            elif self._buf:
                self._buf += data[start:nl]
                self._push(bytes(self._buf))
                self._buf.clear()
            else:
                self._push(data[start:nl])
            start = nl + 1
        if start < len(data) and not self._discarding:
            self._buf += data[start:]
            if len(self._buf) > self._limit:
                size = len(self._buf)
                self._buf.clear()
                self._discarding = True
                self._lines.append(
                    WireError(
                        WireErrorKind.LINE_TOO_LONG,
                        "a line from the daemon is too long (at least %d bytes; the limit is %d); it was discarded"
                        % (size, self._limit),
                    )
                )

    def _push(self, line: bytes) -> None:
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > self._limit:
            self._lines.append(
                WireError(
                    WireErrorKind.LINE_TOO_LONG,
                    "a line from the daemon is too long (%d bytes; the limit is %d); it was discarded"
                    % (len(line), self._limit),
                )
            )
        elif line.strip(b" \t"):
            self._lines.append(line)

    def next_message(self) -> Optional[Message]:
        """The next complete line's message, or ``None`` when no complete line is buffered.

        Raises :class:`WireError` for a line that is not a valid message (the line is consumed).
        """
        if not self._lines:
            return None
        item = self._lines.popleft()
        if isinstance(item, WireError):
            raise item
        return decode(item)

    def __bool__(self) -> bool:
        return bool(self._lines)
