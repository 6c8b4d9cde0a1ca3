"""Guard against a reference-count bug of PySide6 6.12.0 on Python 3.11.

Measured in this venv: every call of a Qt method that returns nothing drops one reference
to ``None`` (``sys.getrefcount(None)`` falls by 1 per ``QLabel.setText`` or
``QRectF.setWidth`` call), and some paths (pyqtgraph's ``ViewBox.autoRange``) do the same
to ``True``/``False``. Charts make hundreds of such calls per frame, so after a few
seconds of panning Python aborts with "none_dealloc: deallocating None". Python 3.12+
makes these objects immortal, so the guard does nothing there.

The fix belongs at application start-up (and in the test conftest); the Compare tab calls
it on import because it is the heaviest caller.
"""

from __future__ import annotations

import ctypes
import sys

_HUGE = 1 << 40


def keep_singletons_alive() -> None:
    """Give ``None``, ``True`` and ``False`` a reference count no session can exhaust."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        if refcount.value < _HUGE // 2:
            refcount.value += _HUGE
