"""Run one outside command with a time limit, and say plainly why it gave nothing.

Detection asks tools that may be missing, slow, broken or forbidden (``nvidia-smi`` with
a wedged driver can block for minutes). Every call here is bounded: the child runs in
its own process group and the whole group is killed at the deadline, so a tool that
forks helpers cannot keep the pipes open and hang us. Nothing here raises for a tool's
failure; the result carries an ``Outcome`` and a sentence a user can act on.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

DEFAULT_TIMEOUT_S = 5.0
"""Per command. Healthy tools answer in well under a second; 5 s covers a cold driver."""

# Where vendor tools live when they are not on PATH (ROCm does not add itself to PATH;
# dmidecode sits in sbin, which a non-root PATH often lacks).
EXTRA_TOOL_DIRS: tuple[str, ...] = ("/opt/rocm/bin", "/usr/sbin", "/sbin", "/usr/local/sbin")

_PERMISSION_WORDS = ("permission denied", "operation not permitted", "must be root",
                     "are you root", "requires root", "access is denied", "/dev/mem: ")


class Outcome(StrEnum):
    """How a command (or a file read) ended."""

    OK = "ok"
    MISSING = "missing"
    TIMEOUT = "timeout"
    FAILED = "failed"
    PERMISSION = "permission"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command printed and how it ended; ``stdout`` is kept even on failure
    because tools such as ``nvidia-smi`` explain their failure there."""

    argv: tuple[str, ...]
    outcome: Outcome
    stdout: str = ""
    stderr: str = ""
    returncode: int | None = None
    seconds: float = 0.0
    timeout_s: float = DEFAULT_TIMEOUT_S

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK

    @property
    def tool(self) -> str:
        return os.path.basename(self.argv[0]) if self.argv else "?"

    @property
    def reason(self) -> str:
        """One sentence for the user: why this command gave no answer."""
        tool = self.tool
        if self.outcome is Outcome.OK:
            return f"{tool} ran"
        if self.outcome is Outcome.MISSING:
            return f"{tool} is not installed"
        if self.outcome is Outcome.TIMEOUT:
            return f"{tool} did not answer within {self.timeout_s:g} s"
        if self.outcome is Outcome.PERMISSION:
            return f"{tool} needs administrator rights"
        detail = first_line(self.stderr) or first_line(self.stdout)
        code = f" (exit {self.returncode})" if self.returncode is not None else ""
        if self.outcome is Outcome.FAILED:
            return f"{tool} failed{code}" + (f": {detail}" if detail else "")
        return f"{tool} could not be run" + (f": {detail}" if detail else "")


@dataclass(frozen=True, slots=True)
class FileResult:
    """A small system file's text, or why it could not be read."""

    path: str
    outcome: Outcome
    text: str = ""
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.OK

    @property
    def reason(self) -> str:
        if self.outcome is Outcome.MISSING:
            return f"{self.path} does not exist here"
        if self.outcome is Outcome.PERMISSION:
            return f"{self.path} is not readable without administrator rights"
        return f"{self.path} could not be read" + (f": {self.detail}" if self.detail else "")


def first_line(text: str, limit: int = 160) -> str:
    """The first non-blank line, shortened: enough to quote a tool's complaint."""
    for raw in text.splitlines():
        # Terminal escapes and control bytes from a crashing tool are not words.
        line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]", "", raw).strip()
        if line:
            return line if len(line) <= limit else line[: limit - 3] + "..."
    return ""


def find_tool(name: str, extra_dirs: Sequence[str] = EXTRA_TOOL_DIRS) -> str | None:
    """The tool's path on PATH, else in the usual vendor folders; ``None`` if absent."""
    found = shutil.which(name)
    if found:
        return found
    if sys.platform != "win32":
        for folder in extra_dirs:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


def run_command(argv: Sequence[str], timeout: float = DEFAULT_TIMEOUT_S) -> CommandResult:
    """Run ``argv`` (no shell) for at most ``timeout`` seconds; never raises, never hangs.

    Output is decoded leniently (a stray byte must not lose the rest) and the locale is
    forced to C so that tools print the English, dot-decimal text the parsers expect.
    """
    args = tuple(str(a) for a in argv)
    start = time.monotonic()
    if not args:
        return CommandResult(args, Outcome.ERROR, stderr="empty command", timeout_s=timeout)
    path = find_tool(args[0]) if os.sep not in args[0] else args[0]
    if path is None:
        return CommandResult(args, Outcome.MISSING, timeout_s=timeout)
    env = dict(os.environ, LC_ALL="C", LANG="C")
    kwargs: dict[str, object] = {}
    if sys.platform == "win32":
        # No console window flashing up when the GUI runs detection.
        kwargs["creationflags"] = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    else:
        kwargs["start_new_session"] = True
    try:
        proc = subprocess.Popen(  # a fixed argv, never a shell
            (path, *args[1:]), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env, **kwargs)  # type: ignore[call-overload]
    except FileNotFoundError:
        return CommandResult(args, Outcome.MISSING, timeout_s=timeout)
    except PermissionError as exc:
        return CommandResult(args, Outcome.PERMISSION, stderr=str(exc), timeout_s=timeout)
    except OSError as exc:
        return CommandResult(args, Outcome.ERROR, stderr=str(exc), timeout_s=timeout)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill(proc)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError, ValueError):
            # A process stuck in the kernel (D state) cannot die; do not wait for it.
            proc.communicate(timeout=0.5)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, AttributeError):
                stream.close()  # type: ignore[union-attr]
        return CommandResult(args, Outcome.TIMEOUT, seconds=time.monotonic() - start,
                             timeout_s=timeout)
    stdout = _decode(out)
    stderr = _decode(err)
    seconds = time.monotonic() - start
    code = proc.returncode
    if code == 0:
        return CommandResult(args, Outcome.OK, stdout, stderr, code, seconds, timeout)
    return CommandResult(args, classify_exit(code, stdout, stderr), stdout, stderr, code,
                         seconds, timeout)


def classify_exit(returncode: int, stdout: str, stderr: str) -> Outcome:
    """OK for status 0; a failure that complains about rights is PERMISSION."""
    if returncode == 0:
        return Outcome.OK
    lowered = (stderr + "\n" + stdout).lower()
    return (Outcome.PERMISSION if any(w in lowered for w in _PERMISSION_WORDS)
            else Outcome.FAILED)


def read_text_file(path: str, limit: int = 4_000_000) -> FileResult:
    """A system file's text (``/proc/cpuinfo``, DMI strings); never raises."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit)
    except FileNotFoundError:
        return FileResult(path, Outcome.MISSING)
    except PermissionError:
        return FileResult(path, Outcome.PERMISSION)
    except OSError as exc:
        return FileResult(path, Outcome.ERROR, detail=exc.strerror or str(exc))
    return FileResult(path, Outcome.OK, _decode(data))


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="replace")


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child and everything it started (POSIX: its whole session's group)."""
    if sys.platform != "win32":
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()
