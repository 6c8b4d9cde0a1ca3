"""Detect the machine the app runs on: CPU, memory, GPUs, drives, board and OS.

Each source (``cpu``, ``memory``, ``gpus``, ``storage``, ``system``) parses text with
pure functions and asks for that text through one ``Host``; ``detect_all`` runs the
sources side by side, each bounded in time, and gathers a ``DetectionReport``. Nothing a
machine does (a missing tool, no permission, a wedged driver, garbage output) stops it:
what could not be learned is listed with its reason, and the rest carries on.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from dlhw_desktop.core.detect.cpu import detect_cpu
from dlhw_desktop.core.detect.gpus import detect_gpus
from dlhw_desktop.core.detect.host import (
    Host,
    HostInfo,
    LiveHost,
    PsutilFacts,
    RecordedHost,
    RecordingHost,
)
from dlhw_desktop.core.detect.memory import detect_memory
from dlhw_desktop.core.detect.model import (
    DetectedBoard,
    DetectedCpu,
    DetectedDisk,
    DetectedGpu,
    DetectedMemory,
    DetectedOs,
    DetectionReport,
    MemoryModule,
    Timing,
    Unknown,
)
from dlhw_desktop.core.detect.runner import DEFAULT_TIMEOUT_S, CommandResult, Outcome
from dlhw_desktop.core.detect.storage import detect_storage
from dlhw_desktop.core.detect.system import detect_system

__all__ = [
    "DEFAULT_TIMEOUT_S", "CommandResult", "DetectedBoard", "DetectedCpu", "DetectedDisk",
    "DetectedGpu", "DetectedMemory", "DetectedOs", "DetectionReport", "Host", "HostInfo",
    "LiveHost", "MemoryModule", "Outcome", "PsutilFacts", "RecordedHost", "RecordingHost",
    "Timing", "Unknown", "detect_all",
]

UNDETECTABLE = Unknown(
    "power supply, CPU cooler and case",
    "a computer does not report these",
    hint="add them to the build by hand to judge power and cooling",
)

Progress = Callable[[str], None]


def detect_all(host: Host | None = None, timeout: float = DEFAULT_TIMEOUT_S,
               deadline: float | None = None,
               progress: Progress | None = None) -> DetectionReport:
    """Detect everything ``host`` (default: this computer) can tell, in at most about
    ``deadline`` seconds (default: a few command time limits), never raising.

    ``progress`` is called with each source's name as it finishes (from worker threads;
    a GUI must hop back to its own thread).
    """
    host = host or LiveHost(timeout)
    deadline = deadline if deadline is not None else max(15.0, 4 * timeout)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    clock = time.monotonic()
    report = DetectionReport(started=started)
    facts = _facts(host, report)

    results: dict[str, Any] = {}
    sources: dict[str, Callable[[], Any]] = {
        "system": lambda: detect_system(host),
        "cpu": lambda: detect_cpu(host, facts),
        "memory": lambda: detect_memory(host, facts),
        "gpus": lambda: detect_gpus(host),
        "storage": lambda: detect_storage(host, facts),
    }
    timings: dict[str, Timing] = {}
    lock = threading.Lock()

    def work(name: str, call: Callable[[], Any]) -> None:
        begin = time.monotonic()
        outcome = "ok"
        try:
            value = call()
        except Exception as exc:  # a parser bug must cost one source, not the run
            value = exc
            outcome = "error"
        with lock:
            results[name] = value
            timings[name] = Timing(name, round(time.monotonic() - begin, 3), outcome)
        if progress is not None:
            # A broken progress callback must not lose the result.
            with contextlib.suppress(Exception):
                progress(name)

    threads = [threading.Thread(target=work, args=(name, call), name=f"detect-{name}",
                                daemon=True) for name, call in sources.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(max(0.0, deadline - (time.monotonic() - clock)))

    with lock:
        done = dict(results)
        finished_timings = dict(timings)
    for name in sources:
        if name not in done:
            report.unknowns.append(Unknown(_LABELS[name], f"not finished within {deadline:g} s",
                                           name))
            report.timings.append(Timing(name, round(deadline, 3), "timeout"))
            continue
        report.timings.append(finished_timings[name])
        value = done[name]
        if isinstance(value, Exception):
            report.unknowns.append(Unknown(_LABELS[name], f"internal error while reading "
                                           f"({type(value).__name__}: {value})", name,
                                           "please report this as a bug"))
            continue
        _apply(report, name, value)
    report.unknowns.append(UNDETECTABLE)
    report.seconds = round(time.monotonic() - clock, 3)
    return report


_LABELS = {"system": "operating system and board", "cpu": "CPU", "memory": "memory",
           "gpus": "GPUs", "storage": "drives"}


def _facts(host: Host, report: DetectionReport) -> PsutilFacts | None:
    begin = time.monotonic()
    try:
        facts = host.psutil_facts()
    except Exception as exc:  # psutil on an exotic platform
        report.unknowns.append(Unknown("portable counts (psutil)", str(exc), "psutil"))
        facts = None
    outcome = "ok" if facts is not None else "missing"
    report.timings.append(Timing("psutil", round(time.monotonic() - begin, 3), outcome))
    return facts


def _apply(report: DetectionReport, name: str, value: Any) -> None:
    if name == "system":
        report.os, report.board, unknowns = value
    elif name == "cpu":
        report.cpu, unknowns = value
    elif name == "memory":
        report.memory, unknowns = value
    elif name == "gpus":
        gpus, unknowns = value
        report.gpus = list(gpus)
    elif name == "storage":
        disks, unknowns = value
        report.disks = list(disks)
    else:  # pragma: no cover - the names are fixed above
        return
    report.unknowns.extend(unknowns)
