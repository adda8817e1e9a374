#!/usr/bin/python3
"""A FUSE stand-in for /dev/iio:deviceN that refuses a second reader with EBUSY, as the kernel's IIO chrdev does.

Usage: fake-iio-node.py MOUNTPOINT FIFO PID
MOUNTPOINT holds one file, `node`; the server ends (and the mount with it) when process PID is gone. Opening it while it is already open fails with EBUSY (the kernel sets
IIO_BUSY_BIT_POS on open and clears it on release). Reads of the open node are served from FIFO, which the test
writes scans into; the FIFO is opened on the first read, so a holder that never reads takes no data. A read with
nothing waiting returns EAGAIN after at most 50 ms.
"""
import errno
import os
import select
import stat
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations


class Node(Operations):
    def __init__(self, fifo):
        self.fifo = fifo
        self.guard = threading.Lock()
        self.open_fh = None
        self.blocking = True
        self.next_fh = 1
        self.source = None

    def getattr(self, path, fh=None):
        now = time.time()
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2, st_ctime=now, st_mtime=now, st_atime=now)
        if path == "/node":
            return dict(st_mode=stat.S_IFREG | 0o666, st_nlink=1, st_size=0, st_ctime=now, st_mtime=now,
                        st_atime=now)
        raise FuseOSError(errno.ENOENT)

    def readdir(self, path, fh):
        return [".", "..", "node"]

    def open(self, path, flags):
        if path != "/node":
            raise FuseOSError(errno.ENOENT)
        with self.guard:
            if self.open_fh is not None:
                raise FuseOSError(errno.EBUSY)
            self.open_fh = self.next_fh
            self.blocking = not flags & os.O_NONBLOCK
            self.next_fh += 1
            return self.open_fh

    def release(self, path, fh):
        with self.guard:
            if self.open_fh == fh:
                self.open_fh = None
                if self.source is not None:
                    os.close(self.source)
                    self.source = None
        return 0

    def read(self, path, size, offset, fh):
        with self.guard:
            if self.open_fh != fh:
                raise FuseOSError(errno.EBADF)
            if self.source is None:
                self.source = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
            source, blocking = self.source, self.blocking
        waited = 0.0
        while True:
            try:
                ready, _, _ = select.select([source], [], [], 0.02)
            except (OSError, ValueError):  # released (and the FIFO closed) meanwhile
                raise FuseOSError(errno.EAGAIN)
            data = b""
            if ready:
                try:
                    data = os.read(source, size)
                except BlockingIOError:
                    pass
            if data:
                return data
            if ready:
                time.sleep(0.02)  # no writer: the FIFO reads as end of file
            # A blocking read waits at most 50 ms too: fusepy does not pass on a later fcntl(O_NONBLOCK), and a
            # read that never returns would keep the node from being released.
            waited += 0.02
            if not blocking or waited >= 0.05:
                raise FuseOSError(errno.EAGAIN)

    def write(self, path, data, offset, fh):
        return len(data)

    def truncate(self, path, length, fh=None):
        return 0


def watch(pid):
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(0)
        time.sleep(0.2)


if __name__ == "__main__":
    threading.Thread(target=watch, args=(int(sys.argv[3]),), daemon=True).start()
    FUSE(Node(sys.argv[2]), sys.argv[1], foreground=True, nothreads=False, direct_io=True)
