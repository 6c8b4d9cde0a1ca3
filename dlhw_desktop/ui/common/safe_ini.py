"""The settings file is checked as text before Qt reads it: a value must never run code.

``QSettings`` decodes a value written as ``@Variant(...)`` (or ``@DateTime(...)``) through
``QDataStream`` as soon as it parses the section holding it (``contains()``, ``allKeys()``
or ``value()`` of any key there, whatever ``type=`` asks for), and PySide6 decodes a
``PySide::PyObjectWrapper`` in there with ``pickle.loads``: a crafted settings file would
run any code at start-up. This program never writes such values (bytes are stored as
``@ByteArray``), so before ``QSettings`` touches the file every entry that Qt could read
as one is removed, with the same unescaping Qt applies (``\\x40Variant(`` is ``@Variant(``).

A plain value that older versions pickled (PySide6 pickles Python ``bytes``) is kept: its
pickle is decoded by an unpickler that refuses every class and callable, so only bytes,
text, numbers and lists of them come out; anything else is dropped. When an entry is
dropped, the file as it was is kept beside it as ``<name>.unsafe``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_READ_LIMIT = 4 * 1024 * 1024
_DANGEROUS = re.compile(r"@\s*(?:Variant|DateTime)\s*\(", re.IGNORECASE)
_ESCAPE = re.compile(r"\\(?:[xX]([0-9A-Fa-f]*)|([0-7]+)|(.))", re.DOTALL)
_SIMPLE = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_WRAPPER = b"PySide::PyObjectWrapper\0"


@dataclass
class Cleaned:
    """What ``clean`` did to a settings file."""

    dropped: list[str] = field(default_factory=list)  # keys whose values were removed
    migrated: dict[str, Any] = field(default_factory=dict)  # key -> plain value to set again
    kept_as: Path | None = None  # the original, when something was dropped
    error: str = ""  # the file could not be cleaned (it must not be read then)

    @property
    def changed(self) -> bool:
        return bool(self.dropped or self.migrated or self.error)


def unescape(text: str) -> str:
    """Qt's unescaping of INI values (``\\xHH…``, octal, ``\\n`` …), on any text."""

    def one(match: re.Match[str]) -> str:
        hex_digits, octal, other = match.groups()
        if hex_digits is not None:
            return chr(int(hex_digits or "0", 16) & 0xFFFF)
        if octal is not None:
            return chr(int(octal, 8) & 0xFFFF)
        return _SIMPLE.get(other, other)

    return _ESCAPE.sub(one, text)


def is_dangerous(text: str) -> bool:
    """Could Qt decode a ``QDataStream`` variant from this text (raw or unescaped)?"""
    return bool(_DANGEROUS.search(text) or _DANGEROUS.search(unescape(text)))


def clean(path: Path) -> Cleaned:
    """Remove every entry of ``path`` that Qt could unpickle (see the module docstring)."""
    result = Cleaned()
    try:
        if not path.exists():
            return result
        if not path.is_file():  # a FIFO would block Qt's read, a device never end
            result.error = "it is not a regular file"
            return result
        with path.open("rb") as handle:
            raw = handle.read(_READ_LIMIT + 1)
    except OSError as exc:
        result.error = exc.strerror or str(exc)
        return result
    if len(raw) > _READ_LIMIT:
        result.error = "it is larger than 4 MB"
        return result
    text = raw.decode("utf-8", errors="surrogateescape")
    if not is_dangerous(text):
        return result
    # Only now (a file that needs it): the writer, and pickle for older plain values.
    from dlhw_desktop.core.files.atomic import write_atomic

    kept: list[str] = []
    section = ""
    for entry in _entries(text):
        stripped = entry.strip()
        if stripped.startswith("[") and not is_dangerous(entry):
            section = stripped[1:].split("]", 1)[0]
        if not is_dangerous(entry):
            kept.append(entry)
            continue
        key, value = _key_value(section, entry)
        plain = _legacy_plain(value) if key else None
        if plain is not None:
            result.migrated[key] = plain
        else:
            result.dropped.append(key or stripped[:40])
    try:
        if result.dropped:
            aside = path.with_name(path.name + ".unsafe")
            write_atomic(aside, raw)
            aside.chmod(0o600)  # for the user to look at, nobody else
            result.kept_as = aside
        write_atomic(path, "".join(kept).encode("utf-8", errors="surrogateescape"))
    except OSError as exc:
        result.error = exc.strerror or str(exc)
    return result


def _entries(text: str) -> list[str]:
    """Physical lines, with a line ending in a backslash joined to the next (as Qt may)."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    pending = ""
    for line in lines:
        pending += line
        body = line.rstrip("\r\n")
        trailing = len(body) - len(body.rstrip("\\"))
        if trailing % 2 == 0:
            out.append(pending)
            pending = ""
    if pending:
        out.append(pending)
    return out


def _key_value(section: str, entry: str) -> tuple[str, str]:
    if "=" not in entry:
        return "", ""
    key, value = entry.split("=", 1)
    key = re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), key.strip())
    if not key or any(c in key for c in "\\\"%"):
        return "", ""
    full = key if section in ("", "General") else f"{section}/{key}"
    return full, unescape(value.strip())


def _legacy_plain(value: str) -> Any:
    """The plain value inside a PySide-pickled ``@Variant``, or None (never unpickles a
    class or a callable)."""
    import io
    import pickle
    import struct

    class PlainUnpickler(pickle.Unpickler):
        """Bytes, text, numbers, lists: nothing that names a class or a function."""

        def find_class(self, module: str, name: str) -> Any:
            raise pickle.UnpicklingError(f"refused {module}.{name}")

        def persistent_load(self, pid: Any) -> Any:
            raise pickle.UnpicklingError("refused a persistent id")

    if not (value.startswith("@Variant(") and value.endswith(")")):
        return None
    try:
        data = value[9:-1].encode("latin-1")
    except UnicodeEncodeError:
        return None
    try:
        type_id, name_length = struct.unpack_from(">II", data, 0)
        name_end = 8 + name_length
        if type_id != 127 or data[8:name_end] != _WRAPPER:
            return None
        (size,) = struct.unpack_from(">I", data, name_end)  # the pickle, as a QByteArray
        payload = data[name_end + 4: name_end + 4 + size]
        if len(payload) != size or name_end + 4 + size != len(data):
            return None
        plain = PlainUnpickler(io.BytesIO(payload)).load()
    except (struct.error, pickle.UnpicklingError, EOFError, ValueError, TypeError,
            IndexError, KeyError, AttributeError, RecursionError, MemoryError):
        return None
    if isinstance(plain, bytes | str | bool | int | float):
        return plain
    if isinstance(plain, list) and all(isinstance(v, str) for v in plain):
        return plain
    return None

