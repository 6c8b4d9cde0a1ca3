"""Write a whole file or nothing: the one way this program saves what a user keeps.

Before anything is written the target is checked (``check_target``): only a regular file,
or a name that does not exist yet, is replaced. A folder, a device (``/dev/null``, even as
root), a FIFO, a socket, a symbolic link to one of those or to nothing, a read-only file
(by its mode too, so root does not write over it either, as ``cp`` without ``-f`` would
not) and the very file being read (``protect``) are refused with ``UnsafeTargetError``. A
symbolic link to a regular file is followed: the file it points to is replaced and the
link kept.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path


class UnsafeTargetError(OSError):
    """The output is not a file this program may replace; ``strerror`` says why."""


def check_target(path: str | os.PathLike[str],
                 protect: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """The file to write for ``path`` (a symbolic link's target), or ``UnsafeTargetError``.

    ``protect``: files being read (a build exported to PDF) that must not be the output.
    """
    target = Path(path)
    try:
        link = os.lstat(target)
    except FileNotFoundError:
        return target
    except OSError:
        return target  # e.g. a parent that is not a folder: the write says so
    if stat.S_ISLNK(link.st_mode):
        try:
            info = os.stat(target)
        except OSError:
            raise UnsafeTargetError(errno.ENOENT, "it is a symbolic link to nothing "
                                    "(or to a place that cannot be reached)",
                                    str(target)) from None
        real = Path(os.path.realpath(target))
    else:
        info, real = link, target
    if not stat.S_ISREG(info.st_mode):
        raise UnsafeTargetError(errno.EISDIR if stat.S_ISDIR(info.st_mode) else errno.EINVAL,
                                _kind(info.st_mode), str(target))
    if not info.st_mode & 0o222 or not os.access(real, os.W_OK):
        raise UnsafeTargetError(errno.EACCES, "it is read-only; make it writable or choose "
                                "another name", str(target))
    for kept in protect:
        if kept is None:
            continue
        try:
            other = os.stat(kept)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
            raise UnsafeTargetError(errno.EEXIST, f"it is the input file "
                                        f"{Path(kept).name}; choose another name",
                                        str(target))
    return real


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "it is a folder; choose a file name"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file; choose a file name"
    if stat.S_ISFIFO(mode):
        return "it is a named pipe (FIFO), not a regular file; choose a file name"
    if stat.S_ISSOCK(mode):
        return "it is a socket, not a regular file; choose a file name"
    return "it is not a regular file; choose a file name"


def write_atomic(path: str | os.PathLike[str], data: bytes,
                 protect: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """Write ``data`` to a temporary file beside ``path``, flush it to disk, then rename it
    over ``path`` (atomic on one file system). A crash, a kill or a full disk leaves the
    old file whole and no temporary file behind (except after a kill). Raises ``OSError``
    (``UnsafeTargetError`` for a target ``check_target`` refuses); callers turn it into
    their own clear error. Keeps an existing file's permissions.
    """
    target = check_target(path, protect)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(target.parent)
    return target


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); Windows cannot open folders, skip there."""
    if os.name != "posix":
        return
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
