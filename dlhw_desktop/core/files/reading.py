"""Read a file a user named, safely: only a regular file, and only up to a size limit.

``Path.read_bytes`` on ``/dev/zero`` fills memory, and on a FIFO blocks until a writer
comes, which may be never. Opening without blocking, then asking the open file what it is,
avoids both (and the race of a stat before the open).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dlhw_desktop.core.errors import DlhwError


class FileReadError(DlhwError):
    """A file that cannot be read: missing, not a regular file, or too large."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_regular_file(path: str | os.PathLike[str]) -> None:
    """``FileReadError`` unless ``path`` is a regular file (symlinks followed); never blocks."""
    target = Path(path)
    try:
        mode = os.stat(target).st_mode
    except OSError as exc:
        raise FileReadError(f"cannot open {target.name}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        raise FileReadError(f"cannot open {target.name}: it is {_kind(mode)}, "
                            "not a regular file")


def read_bounded(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; ``FileReadError`` otherwise."""
    target = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        raise FileReadError(f"cannot open {target.name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileReadError(f"cannot open {target.name}: it is {_kind(info.st_mode)}, "
                                "not a regular file")
        if info.st_size > max_bytes:
            raise FileReadError(_too_large(target, info.st_size, max_bytes))
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:  # grew while being read
            raise FileReadError(_too_large(target, size, max_bytes))
        return b"".join(chunks)
    except OSError as exc:
        raise FileReadError(f"cannot read {target.name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _too_large(target: Path, size: int, max_bytes: int) -> str:
    return (f"cannot open {target.name}: it is larger than {max_bytes / 2**20:,.0f} MB "
            f"({size / 2**20:,.1f} MB or more), too large for this kind of file")
