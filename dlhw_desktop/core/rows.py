"""A user's store read row by row: a bad row is named, said and skipped, never the whole
store dropped and never a traceback.

A store the user keeps (the price book, user figures, custom parts, settings) may be
edited by hand, written by an older or newer version, or damaged: a text where a number
belongs, a NULL, a blob. ``read_rows`` turns each row into the store's own value with the
store's ``parse`` function and collects a one-line ``RowProblem`` for each row that
cannot be read; the caller keeps the good rows and reports the problems (the CLI on
stderr, the app in a notice).

The field helpers (``text_of``, ``number_of``) check a stored value's *type* strictly (a
store's number is an int or a float, not text that looks like one) and raise
``RowError`` naming the field; ``parse`` functions are built from them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.numbers import NumberError, NumberField

T = TypeVar("T")


class RowError(DlhwError):
    """One row of a store cannot be read; the message names the field."""


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A row left out: the store, the row as a person finds it (its key) and why."""

    store: str
    row: str
    reason: str

    def __str__(self) -> str:
        return f"{self.store}: {self.row}: {self.reason}; left out"


def read_rows(rows: Iterable[Mapping[str, Any]], parse: Callable[[Mapping[str, Any]], T],
              store: str, key: str) -> tuple[list[T], list[RowProblem]]:
    """Every row ``parse`` accepts, and a ``RowProblem`` for each it refuses (``RowError``,
    any ``DlhwError``, or a ``TypeError``/``ValueError`` from a value of the wrong type).
    ``key`` names the column that identifies a row to the user (``part_id``)."""
    good: list[T] = []
    problems: list[RowProblem] = []
    for number, row in enumerate(rows, start=1):
        try:
            good.append(parse(row))
        except (DlhwError, TypeError, ValueError, OverflowError) as exc:
            problems.append(RowProblem(store, _row_name(row, key, number), str(exc)))
    return good, problems


def _row_name(row: Mapping[str, Any], key: str, number: int) -> str:
    value = row.get(key)
    if isinstance(value, str) and value.strip():
        shown = value if len(value) <= 60 else value[:57] + "..."
        return repr(shown)
    return f"row {number:,}"


def _shown(value: object) -> str:
    if isinstance(value, bytes | bytearray | memoryview):
        return f"binary data ({len(bytes(value)):,} bytes)"
    if value is None:
        return "empty (NULL)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def text_of(row: Mapping[str, Any], name: str, *, required: bool = True,
            most: int = 2_000) -> str:
    """The text of column ``name``: a ``str`` of at most ``most`` characters (empty or
    NULL allowed unless ``required``)."""
    value = row.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise RowError(f"{name} is {_shown(value)}, not text")
    if required and not value.strip():
        raise RowError(f"{name} is empty")
    if len(value) > most:
        raise RowError(f"{name} has {len(value):,} characters (at most {most:,})")
    return value


def number_of(row: Mapping[str, Any], name: str, field: NumberField) -> float:
    """The number in column ``name``: an int or float (not text, NULL or a blob) that
    ``field`` accepts."""
    value = row.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RowError(f"{name} is {_shown(value)}, not a number")
    try:
        return field.check(value)
    except NumberError as exc:
        raise RowError(str(exc)) from None
