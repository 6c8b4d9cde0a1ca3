"""Helpers shared by the subcommands: opening the catalog, printing text and JSON safely.

Everything the CLI prints may carry text from a catalog row, a build file or a detected
device name. ``terminal_safe`` removes what a terminal would act on instead of showing:
escape sequences (CSI, OSC, DCS and the rest), C1 controls, DEL and C0 controls other than
newline and tab. ``safe_output`` puts it in front of stdout and stderr for a whole command
(``cli.main`` does that), so no command can forget it; JSON keeps every character, with
the controls ``json.dumps`` leaves raw (DEL, C1) written as ``\\u`` escapes.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

MAX_CLI_INT = 10**12
"""Whole-number options (batch, sequence length, layers, ...) above this are typos: a
trillion is past every real batch, context or layer count."""
_TERMINAL_CONTROLS = re.compile(
    r"""
      \x1b\[[0-?]*[\x20-/]*[@-~]?            # CSI ... final byte
    | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC ... BEL or ST
    | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC ... ST
    | \x1b[\x20-/]*[\x30-~]?                 # any other escape sequence
    | \x9b[0-?]*[\x20-/]*[@-~]?              # 8-bit CSI
    | [\x00-\x08\x0b-\x1f\x7f-\x9f]          # other C0 (not \t, \n), DEL, C1
    """, re.VERBOSE)
_JSON_RAW_CONTROLS = re.compile(r"[\x7f-\x9f\u2028\u2029]")


def terminal_safe(text: str) -> str:
    """``text`` without anything a terminal would interpret (newlines and tabs stay)."""
    return _TERMINAL_CONTROLS.sub("", text)


class _SafeStream:
    """A text stream that passes everything it is given through ``terminal_safe``."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


@contextmanager
def safe_output() -> Iterator[None]:
    """stdout and stderr filtered by ``terminal_safe`` for the duration."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None:  # None in a windowed app without a console
        sys.stdout = _SafeStream(sys.stdout)  # type: ignore[assignment]
    if sys.stderr is not None:
        sys.stderr = _SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def open_catalog(args: argparse.Namespace):
    """The catalog named by ``--catalog`` (or the bundled one), opened read-only."""
    from dlhw_desktop.catalog.store import Catalog

    return Catalog.open(args.catalog)


def json_text(data: Any) -> str:
    """JSON as printed: readable text (not ASCII-escaped), with DEL, C1 and the line
    separators escaped as ``json.dumps`` does for C0, so nothing reaches the terminal raw."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False, allow_nan=False)
    return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def print_json(data: Any) -> None:
    """Strict JSON, safe for a terminal: NaN or infinity anywhere (which ``json`` would
    print as the non-JSON ``NaN``) becomes ``null`` (unknown); DEL, C1 and the line
    separators are escaped (``json_text``)."""
    sys.stdout.write(json_text(json_safe(data)) + "\n")


def json_safe(value: Any) -> Any:
    """``value`` with every non-finite float replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def finite_float(text: str) -> float:
    """argparse type: a finite number (``nan``, ``inf`` and ``1e999`` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def bounded_int(low: int = 1, high: int = MAX_CLI_INT) -> Callable[[str], int]:
    """argparse type: a whole number from ``low`` to ``high``, said so when outside."""
    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")  # ASCII digits only: no "２" or "²"
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 30:
            raise argparse.ArgumentTypeError(f"not a whole number (or far too large): "
                                             f"{text[:40]!r}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is outside {low:,} to {high:,}")
        return value

    parse.__name__ = "whole number"
    return parse


def warn_user_parts(resolver: Any) -> None:
    """Say once, on stderr, that the user's parts database could not be read (a lookup
    found out), instead of letting custom parts read as "not in the catalog"."""
    problem = getattr(resolver, "problem", None)
    if problem:
        print(f"dlhw: warning: {problem}", file=sys.stderr)
    figures = getattr(resolver, "user_figures", None)  # your figures: damaged or skipped rows
    if figures is not None:
        for line in ([figures.damaged] if figures.damaged else []) + list(figures.problems):
            print(f"dlhw: warning: {line}", file=sys.stderr)
    book_problems = getattr(resolver, "price_book_problems", None)
    if book_problems is not None:
        warn_lines(book_problems())


def warn_lines(lines: Sequence[str], most: int = 20) -> None:
    """Each line as a warning on stderr (the first ``most``, then how many more): rows
    left out of a user's store, named."""
    for line in lines[:most]:
        print(f"dlhw: warning: {line}", file=sys.stderr)
    if len(lines) > most:
        print(f"dlhw: warning: ... and {len(lines) - most:,} more", file=sys.stderr)


def app_data_files(args: argparse.Namespace, *, catalog: bool = True) -> list[Any]:
    """The app's own files no command output may replace: the price book, the user's
    parts, the settings and (``catalog``) the catalog in use."""
    import os
    from pathlib import Path

    from dlhw_desktop.core.files.output_guard import Protected
    from dlhw_desktop.resources import bundled_catalog_path, user_data_dir

    data = user_data_dir()
    override = os.environ.get("DLHW_DATA_DIR")
    config = (Path(override) if override else Path(
        os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "dlhw")
    kept = [Protected(data / "price_book.db", "your price book", side_files=True),
            Protected(data / "user_parts.db", "your own parts' database", side_files=True),
            Protected(data / "your_figures.db", "your figures", side_files=True),
            Protected(config / "dlhw_desktop.conf", "the app's settings")]
    if catalog:
        used = getattr(args, "catalog", None) or bundled_catalog_path()
        kept.append(Protected(Path(used), "the catalog in use", side_files=True))
    return kept


def checked_output(args: argparse.Namespace, path: Any, inputs: Sequence[Any] = (),
                   *, catalog: bool = True) -> Any:
    """``path`` if a command may write it: not one of ``inputs``, not the app's data, and
    not an existing file unless ``--force`` was given; ``OutputRefusedError`` (one line,
    exit 2) otherwise. Call it before any work."""
    from dlhw_desktop.core.files.output_guard import check_output

    check_output(path, [*inputs, *app_data_files(args, catalog=catalog)],
                 force=bool(getattr(args, "force", False)))
    return path


def add_force(parser: argparse.ArgumentParser) -> None:
    """The ``--force`` option of a command that writes a file."""
    parser.add_argument("--force", action="store_true",
                        help="replace the output file if it exists (never an input of the "
                             "command or the app's own data)")
