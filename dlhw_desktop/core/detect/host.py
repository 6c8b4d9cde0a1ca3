"""Where detection gets its raw facts: this computer, or a recording of another one.

The detectors never call ``subprocess``, ``open`` or ``psutil`` themselves; they ask a
``Host``. ``LiveHost`` asks this computer (with time limits); ``RecordedHost`` answers
from a folder or mapping of recorded outputs, so a GPU server's outputs can be replayed
on a laptop (tests, bug reports: ``dlhw detect --record DIR`` / ``--replay DIR``), and
``RecordingHost`` saves what a live run saw in that same layout.

Recording layout (every file optional)::

    host.json                 {"system": "Linux", "hostname": ..., "machine": ..., ...}
    psutil.json               PsutilFacts as JSON
    commands/<key>.txt        a command's stdout
    commands/<key>.stderr     its stderr
    commands/<key>.exit       its exit status, or "timeout" / "permission"
    files/<absolute path>     a system file, e.g. files/proc/cpuinfo

A command or file absent from a recording reads as "not installed" / "does not exist".
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import platform
import socket
import stat
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from dlhw_desktop.core.detect.runner import (
    DEFAULT_TIMEOUT_S,
    CommandResult,
    FileResult,
    Outcome,
    classify_exit,
    read_text_file,
    run_command,
)
from dlhw_desktop.core.files.reading import FileReadError, read_bounded


@dataclass(frozen=True, slots=True)
class HostInfo:
    """The operating system's own description of the machine; cheap and always there."""

    system: str = ""          # platform.system(): Linux, Windows, Darwin
    release: str = ""
    version: str = ""
    machine: str = ""         # x86_64, aarch64, arm64, AMD64
    hostname: str = ""
    os_name: str = ""         # "Debian GNU/Linux 12 (bookworm)", "Windows 11", "macOS 14.5"
    is_admin: bool = False
    python: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HostInfo:
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


@dataclass(frozen=True, slots=True)
class PartitionFact:
    device: str
    mountpoint: str
    fstype: str
    total_bytes: int | None = None


@dataclass(frozen=True, slots=True)
class PsutilFacts:
    """What psutil knows portably (counts, totals); ``None`` where it could not say."""

    logical_cpus: int | None = None
    physical_cores: int | None = None
    max_mhz: float | None = None
    memory_total_bytes: int | None = None
    partitions: tuple[PartitionFact, ...] = ()
    errors: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PsutilFacts:
        parts = tuple(
            PartitionFact(str(p.get("device", "")), str(p.get("mountpoint", "")),
                          str(p.get("fstype", "")), _int_or_none(p.get("total_bytes")))
            for p in data.get("partitions") or () if isinstance(p, Mapping))
        return cls(
            logical_cpus=_int_or_none(data.get("logical_cpus")),
            physical_cores=_int_or_none(data.get("physical_cores")),
            max_mhz=_float_or_none(data.get("max_mhz")),
            memory_total_bytes=_int_or_none(data.get("memory_total_bytes")),
            partitions=parts,
            errors=tuple(str(e) for e in data.get("errors") or ()),
        )


class Host(Protocol):
    """The one interface detectors use to learn about a machine."""

    def info(self) -> HostInfo: ...

    def run(self, key: str, argv: Sequence[str],
            timeout: float | None = None) -> CommandResult: ...

    def read(self, path: str) -> FileResult: ...

    def psutil_facts(self) -> PsutilFacts | None: ...


# --- PowerShell (Windows) ------------------------------------------------------------

POWERSHELL_TIMEOUT_S = 10.0


def run_powershell(host: Host, key: str, script: str,
                   timeout: float = POWERSHELL_TIMEOUT_S) -> CommandResult:
    """``script`` run by PowerShell without a profile or prompts (``key`` names it for
    recording and replay)."""
    return host.run(key, ["powershell", "-NoProfile", "-NonInteractive", "-Command", script],
                    timeout=timeout)


def powershell_objects(text: str) -> list[dict[str, Any]]:
    """What ``... | ConvertTo-Json`` printed: one object for one item, a list for several;
    ``[]`` for nothing, or for text that is not JSON."""
    text = text.strip().lstrip("\ufeff")
    if not text:
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return []
    items = data if isinstance(data, list) else [data]
    return [i for i in items if isinstance(i, dict)]


# --- this computer -------------------------------------------------------------------


class LiveHost:
    """This computer, asked through bounded commands, file reads and psutil."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.timeout = timeout

    def info(self) -> HostInfo:
        return HostInfo(
            system=platform.system(),
            release=platform.release(),
            version=platform.version(),
            machine=platform.machine(),
            hostname=_hostname(),
            os_name=_os_name(),
            is_admin=_is_admin(),
            python=platform.python_version(),
        )

    def run(self, key: str, argv: Sequence[str],
            timeout: float | None = None) -> CommandResult:
        return run_command(argv, self.timeout if timeout is None else timeout)

    def read(self, path: str) -> FileResult:
        return read_text_file(path)

    def psutil_facts(self) -> PsutilFacts | None:
        try:
            import psutil
        except ImportError:
            return None
        errors: list[str] = []

        def attempt(what: str, call: Any) -> Any:
            try:
                return call()
            except Exception as exc:  # psutil raises assorted OS-specific errors
                errors.append(f"{what}: {exc}")
                return None

        logical = attempt("cpu_count", lambda: psutil.cpu_count(logical=True))
        physical = attempt("cpu_count(logical=False)", lambda: psutil.cpu_count(logical=False))
        freq = attempt("cpu_freq", psutil.cpu_freq)
        memory = attempt("virtual_memory", psutil.virtual_memory)
        partitions: list[PartitionFact] = []
        for part in attempt("disk_partitions", lambda: psutil.disk_partitions(all=False)) or ():
            usage = attempt(f"disk_usage({part.mountpoint})",
                            lambda p=part: psutil.disk_usage(p.mountpoint))
            partitions.append(PartitionFact(part.device, part.mountpoint, part.fstype,
                                            usage.total if usage else None))
        max_mhz = None
        if freq is not None:
            max_mhz = float(freq.max) if freq.max else None
        return PsutilFacts(
            logical_cpus=logical,
            physical_cores=physical,
            max_mhz=max_mhz,
            memory_total_bytes=int(memory.total) if memory is not None else None,
            partitions=tuple(partitions),
            errors=tuple(errors),
        )


def _hostname() -> str:
    try:
        return socket.gethostname() or platform.node()
    except OSError:
        return platform.node()


def _os_name() -> str:
    system = platform.system()
    try:
        if system == "Linux":
            release = platform.freedesktop_os_release()
            return release.get("PRETTY_NAME") or release.get("NAME", "Linux")
        if system == "Darwin":
            version = platform.mac_ver()[0]
            return f"macOS {version}" if version else "macOS"
        if system == "Windows":
            release, version = platform.release(), platform.version()
            # Windows 11 still reports release "10"; build 22000+ is 11.
            build = version.rsplit(".", 1)[-1]
            if release == "10" and build.isdigit() and int(build) >= 22000:
                release = "11"
            return f"Windows {release} ({version})"
    except OSError:
        pass
    return system


def _is_admin() -> bool:
    if hasattr(os, "geteuid"):
        return os.geteuid() == 0
    if sys.platform == "win32":
        try:
            import ctypes

            return bool(ctypes.windll.shell32.IsUserAnAdmin())  # type: ignore[attr-defined]
        except (AttributeError, OSError):
            return False
    return False


# --- a recording ---------------------------------------------------------------------


_OUTCOME_WORDS = {"timeout": Outcome.TIMEOUT, "permission": Outcome.PERMISSION,
                  "missing": Outcome.MISSING, "error": Outcome.ERROR}


@dataclass
class RecordedHost:
    """Answers from recorded outputs: ``commands`` by key, ``files`` by absolute path."""

    host_info: HostInfo = field(default_factory=lambda: HostInfo(system="Linux",
                                                                 hostname="recorded"))
    commands: dict[str, CommandResult] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    facts: PsutilFacts | None = None

    def info(self) -> HostInfo:
        return self.host_info

    def run(self, key: str, argv: Sequence[str],
            timeout: float | None = None) -> CommandResult:
        timeout = DEFAULT_TIMEOUT_S if timeout is None else timeout
        recorded = self.commands.get(key)
        if recorded is None:
            return CommandResult(tuple(argv), Outcome.MISSING, timeout_s=timeout)
        # Report the argv the detector asked for, with the recorded ending.
        return CommandResult(tuple(argv), recorded.outcome, recorded.stdout, recorded.stderr,
                             recorded.returncode, recorded.seconds, timeout)

    def read(self, path: str) -> FileResult:
        if path in self.files:
            return FileResult(path, Outcome.OK, self.files[path])
        return FileResult(path, Outcome.MISSING)

    def psutil_facts(self) -> PsutilFacts | None:
        return self.facts

    @staticmethod
    def command(stdout: str = "", exit_code: int | str = 0, stderr: str = "") -> CommandResult:
        """A recorded command: an exit status, or ``"timeout"``/``"permission"``/``"missing"``."""
        if isinstance(exit_code, str):
            outcome = _OUTCOME_WORDS.get(exit_code.strip().lower(), Outcome.ERROR)
            return CommandResult(("recorded",), outcome, stdout, stderr)
        return CommandResult(("recorded",), classify_exit(exit_code, stdout, stderr), stdout,
                             stderr, exit_code)

    @classmethod
    def load(cls, folder: str | os.PathLike[str]) -> RecordedHost:
        """Read a recording folder (layout in the module docstring)."""
        root = Path(folder)
        if not root.is_dir():
            raise FileNotFoundError(f"{root} is not a folder of recorded outputs")
        info = HostInfo(system="Linux", hostname=root.name)
        host_file = root / "host.json"
        if host_file.is_file():
            data = json.loads(_read(host_file) or "null")
            if isinstance(data, dict):
                info = HostInfo.from_dict({"hostname": root.name, "system": "Linux", **data})
        facts = None
        facts_file = root / "psutil.json"
        if facts_file.is_file():
            data = json.loads(_read(facts_file) or "null")
            if isinstance(data, dict):
                facts = PsutilFacts.from_dict(data)
        commands: dict[str, CommandResult] = {}
        command_dir = root / "commands"
        if command_dir.is_dir():
            keys = {p.name.rsplit(".", 1)[0] for p in command_dir.iterdir() if p.is_file()}
            for key in sorted(keys):
                out = _read(command_dir / f"{key}.txt")
                err = _read(command_dir / f"{key}.stderr")
                status = _read(command_dir / f"{key}.exit").strip() or "0"
                code: int | str = int(status) if status.lstrip("-").isdigit() else status
                commands[key] = cls.command(out, code, err)
        files: dict[str, str] = {}
        files_dir = root / "files"
        if files_dir.is_dir():
            for path in files_dir.rglob("*"):
                if path.is_file():
                    rel = path.relative_to(files_dir).as_posix()
                    files["/" + rel] = _read(path)
        return cls(info, commands, files, facts)


REPLAY_FILE_LIMIT = 16 * 1024 * 1024
"""A recorded output is at most a few MB (``lspci -vvv`` of a big server); a larger file,
a FIFO or a device in a replay folder is not a recording and reads as empty."""


def _read(path: Path) -> str:
    """A recorded file's text; "" when absent, not a regular file (a FIFO would block for
    ever), or larger than ``REPLAY_FILE_LIMIT``."""
    try:
        return read_bounded(path, REPLAY_FILE_LIMIT).decode("utf-8", errors="replace")
    except FileReadError:
        return ""


class RecordingHost:
    """Wraps a host and writes everything it answers into a recording folder.

    Only regular files it creates itself are written (``O_CREAT | O_EXCL | O_NOFOLLOW``),
    in real folders: a symbolic link (or anything but a regular file) planted in the
    folder is never written through. A sub-folder that is a link makes the constructor
    raise ``OSError``; a file that cannot be written that way is skipped and listed in
    ``refused`` (the caller says so). A regular file left by an earlier recording is
    replaced (unlinked, then created anew).
    """

    def __init__(self, inner: Host, folder: str | os.PathLike[str]) -> None:
        self.inner = inner
        self.root = Path(folder)
        self.refused: list[str] = []
        self._lock = threading.Lock()
        self.root.mkdir(parents=True, exist_ok=True)  # the folder the user named
        if not self.root.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, "not a folder", str(self.root))
        self._folder(self.root / "commands")
        self._folder(self.root / "files")

    def info(self) -> HostInfo:
        info = self.inner.info()
        self._write(self.root / "host.json", json.dumps(asdict(info), indent=2) + "\n")
        return info

    def run(self, key: str, argv: Sequence[str],
            timeout: float | None = None) -> CommandResult:
        result = self.inner.run(key, argv, timeout)
        if result.outcome is not Outcome.MISSING:
            base = self.root / "commands" / key
            self._write(base.with_suffix(".txt"), result.stdout)
            if result.stderr:
                self._write(base.with_suffix(".stderr"), result.stderr)
            status = (str(result.returncode) if result.outcome in (Outcome.OK, Outcome.FAILED)
                      else result.outcome.value)
            self._write(base.with_suffix(".exit"), status + "\n")
        return result

    def read(self, path: str) -> FileResult:
        result = self.inner.read(path)
        if result.ok:
            target = self.root / "files" / path.lstrip("/\\").replace(":", "")
            self._write(target, result.text)
        return result

    def psutil_facts(self) -> PsutilFacts | None:
        facts = self.inner.psutil_facts()
        if facts is not None:
            self._write(self.root / "psutil.json", json.dumps(facts.to_dict(), indent=2) + "\n")
        return facts

    def _folder(self, folder: Path) -> None:
        """Each folder from the root down to ``folder``: made if missing, and a real folder
        (not a link to one), else ``OSError``."""
        current = self.root
        for part in folder.relative_to(self.root).parts:
            if part in ("..", "."):
                raise OSError(errno.EINVAL, "a path that leaves the recording folder",
                              str(folder))
            current = current / part
            with contextlib.suppress(FileExistsError):
                os.mkdir(current, 0o755)
            if not stat.S_ISDIR(os.lstat(current).st_mode):
                raise OSError(errno.ENOTDIR, "a symbolic link or a file where a folder "
                              "belongs; record into an empty folder", str(current))

    def _write(self, path: Path, text: str) -> None:
        with self._lock:
            try:
                self._folder(path.parent)
                with contextlib.suppress(FileNotFoundError):
                    if not stat.S_ISREG(os.lstat(path).st_mode):
                        raise OSError(errno.EEXIST, "it exists and is not a regular file "
                                      "(a symbolic link?)", str(path))
                    os.unlink(path)  # an earlier recording's file: created anew below
                flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_CLOEXEC", 0))
                fd = os.open(path, flags, 0o644)
                with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
                    handle.write(text)
            except OSError as exc:
                where = path.relative_to(self.root) if path.is_relative_to(self.root) \
                    else path
                self.refused.append(f"{where}: {exc.strerror or exc}")


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _float_or_none(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
