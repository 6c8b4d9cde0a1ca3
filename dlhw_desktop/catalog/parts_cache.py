"""A category's parts read once per catalog file in a process.

Every surface that ranks or compares reads a whole category (What fits, the Advisor, the
build sheet's comparison, ``dlhw fit`` and ``share``), often several times per answer, and
each read costs tens of milliseconds. The catalog is opened read-only and parts are
frozen, so the rows of one file can be shared: the cache is keyed by the file's identity
(path, inode, size, modification time), so a rebuilt or replaced catalog is read afresh,
and holds a few categories at most.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.core.parts import Part

LIMIT = 12
"""Categories kept (the largest, board-partner cards included, is ~4,000 parts)."""

_LOCK = threading.Lock()
_CACHE: OrderedDict[tuple[Any, ...], tuple[Part, ...]] = OrderedDict()

PartsMethod = Callable[[Any, "Category | None", bool], "list[Part]"]


def _file_key(path: Path) -> tuple[Any, ...] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None  # the read reports it
    return (str(Path(path).resolve()), info.st_ino, info.st_size, info.st_mtime_ns)


def per_file(method: PartsMethod) -> PartsMethod:
    """Wrap ``Catalog.parts``: the same file, category and filter give the same parts
    (a new list each call, so callers may sort or extend it)."""

    @wraps(method)
    def wrapper(self: Any, category: Category | None = None,
                chips_only: bool = False) -> list[Part]:
        key = _file_key(self.path)
        if key is None:
            return method(self, category, chips_only)
        full = (key, category, chips_only)
        with _LOCK:
            hit = _CACHE.get(full)
            if hit is not None:
                _CACHE.move_to_end(full)
                return list(hit)
        parts = method(self, category, chips_only)
        with _LOCK:
            _CACHE[full] = tuple(parts)
            while len(_CACHE) > LIMIT:
                _CACHE.popitem(last=False)
        return parts

    return wrapper
