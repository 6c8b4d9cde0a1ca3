"""Read a file a user named, safely: only a regular file, and only up to a size limit.

``Path.read_bytes`` on ``/dev/zero`` fills memory, and on a FIFO blocks until a writer
comes, which may be never. So every file the program reads that a user named (a price
list, a build, a cluster plan, a model's config.json, safetensors and GGUF headers, the
price book) goes through one of these:

- ``read_bounded(path, max_bytes)``: the bytes of a regular file of at most ``max_bytes``;
- ``read_text_bounded(path, max_bytes)``: the same, decoded;
- ``open_regular(path, max_bytes=None)``: an open binary file to seek and read headers in
  (a 50 GB model file is fine when only its header is read);
- ``check_regular_file(path)``: for a file another library opens (SQLite).

Each asks ``os.stat`` first (a FIFO, a device, a folder or a socket is refused before it
is opened: opening some devices has effects), then opens with ``O_NONBLOCK`` and asks the
open file again (a FIFO swapped in between the two cannot hang the open), and refuses a
file above the limit before reading it. Errors are ``FileReadError`` (a ``DlhwError``)
with a one-line message naming the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

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
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        raise FileReadError(f"cannot open {target.name}: "
                            f"{getattr(exc, 'strerror', None) or exc}") from None
    if not stat.S_ISREG(mode):
        raise FileReadError(f"cannot open {target.name}: it is {_kind(mode)}, "
                            "not a regular file")


def _open_fd(target: Path, max_bytes: int | None) -> int:
    """A descriptor open for reading on a regular file of at most ``max_bytes``."""
    check_regular_file(target)  # before the open: a device is never opened
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(target, flags)
    except OSError as exc:
        raise FileReadError(f"cannot open {target.name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped for a FIFO since the stat
            raise FileReadError(f"cannot open {target.name}: it is {_kind(info.st_mode)}, "
                                "not a regular file")
        if max_bytes is not None and info.st_size > max_bytes:
            raise FileReadError(_too_large(target, info.st_size, max_bytes))
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: str | os.PathLike[str], max_bytes: int | None = None) -> BinaryIO:
    """A binary file object on a regular file (of at most ``max_bytes`` when given), for
    readers that seek (model headers); ``FileReadError`` otherwise. Use it in ``with``."""
    fd = _open_fd(Path(path), max_bytes)
    return os.fdopen(fd, "rb")


def read_text_bounded(path: str | os.PathLike[str], max_bytes: int,
                      encoding: str = "utf-8-sig") -> str:
    """The text of a regular file of at most ``max_bytes``; ``FileReadError`` if it cannot
    be read, is too large or is not ``encoding`` text."""
    target = Path(path)
    try:
        return read_bounded(target, max_bytes).decode(encoding)
    except UnicodeDecodeError as exc:
        raise FileReadError(f"cannot read {target.name}: it is not {encoding} text (byte "
                            f"{exc.start:,})") from None


def read_bounded(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``; ``FileReadError`` otherwise."""
    target = Path(path)
    fd = _open_fd(target, max_bytes)
    try:
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
