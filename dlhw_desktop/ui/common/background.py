"""Run a slow call on the global thread pool; its result returns through a queued signal.

For work that can take seconds (detecting this computer runs external tools), so the
window never freezes (DESIGN habit 8). The callbacks run on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

_RUNNING: set[_Job] = set()
"""Jobs in flight: Python must keep them alive until their result has been delivered."""


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(object)


class _Job(QRunnable):
    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.call = call
        self.signals = _Signals()

    def run(self) -> None:
        try:
            result = self.call()
        except Exception as exc:
            self.signals.failed.emit(exc)
        else:
            self.signals.done.emit(result)


def run_in_background(call: Callable[[], Any], on_done: Callable[[Any], None],
                      on_error: Callable[[BaseException], None],
                      receiver: QObject) -> None:
    """``call()`` on a worker thread; ``on_done(result)`` or ``on_error(exc)`` on the GUI
    thread, delivered only while ``receiver`` is alive."""
    job = _Job(call)
    _RUNNING.add(job)

    def finish(handler: Callable[[Any], None], value: Any) -> None:
        _RUNNING.discard(job)
        if shiboken6.isValid(receiver):
            handler(value)

    # The signals object was made on this (GUI) thread, so emits from the worker are
    # queued here.
    job.signals.done.connect(lambda value: finish(on_done, value))
    job.signals.failed.connect(lambda exc: finish(on_error, exc))
    QThreadPool.globalInstance().start(job)
