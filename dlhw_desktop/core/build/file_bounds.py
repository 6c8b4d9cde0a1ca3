"""The bounds a build file's content is held to when it is read (``core.limits`` says why).

JSON allows what a build cannot use: ``NaN`` and ``Infinity`` (Python's ``json`` reads
them), ``1e999`` (read as infinity), integers of thousands of digits (Python refuses to
convert more than 4,300 with a ``ValueError``), lone surrogates such as ``"\\ud800"``
(which no file or terminal can encode) and text of any length. Each is refused here with
one line naming the value and the bound, so nothing downstream meets it.
"""

from __future__ import annotations

import math
from typing import Any

from dlhw_desktop.core import limits
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.core.fields import FieldSpec

POSITIVE_FIELDS: frozenset[str] = frozenset(
    {"x16_slot_spacing", "slot_width", "cpu_sockets", "max_sockets", "modules",
     "accelerator_count"})
"""Figures that are counts or distances of something present: 0 means nonsense (a slot
spacing of 0 would put every card in one slot), not "none"."""


def _constant(name: str) -> Any:
    raise BuildFileError(f"not a build file ({name} is not a number a build can use)")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BuildFileError(f"not a build file (the number {_short(text)} is too large)")
    return value


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > limits.MAX_INT_DIGITS:
        raise BuildFileError(f"not a build file (a whole number of {digits:,} digits; at "
                             f"most {limits.MAX_INT_DIGITS} are read)")
    return int(text)


def json_hooks() -> dict[str, Any]:
    """Keyword arguments for ``json.loads`` that refuse NaN, infinities and huge integers."""
    return {"parse_constant": _constant, "parse_float": _float, "parse_int": _int}


def _short(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[:most] + "…"


def checked_text(text: str, what: str, most: int) -> str:
    """``text`` when it is encodable and at most ``most`` characters; else BuildFileError."""
    if not limits.valid_text(text):
        raise BuildFileError(f"{what} holds an invalid character (a lone surrogate)")
    if len(text) > most:
        raise BuildFileError(f"{what} has {len(text):,} characters; at most {most:,} "
                             "are allowed")
    return text


def check_document_text(document: Any, most: int = limits.MAX_NOTES_CHARS) -> None:
    """Every string of a parsed document (keys too) encodable and at most ``most`` long.

    Iterative, so a deep document cannot exhaust the stack (``json`` bounds depth anyway).
    """
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            checked_text(value, f"the text {_short(value)!r}", most)
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise BuildFileError(f"not a build file ({value} is not a number a build can use)")


def checked_figure(part_id: str, spec: FieldSpec, value: Any) -> Any:
    """A custom part's numeric figure, finite and within 0..``MAX_FIGURE``."""
    if spec.kind not in ("int", "float"):
        return value
    label = f"{part_id}: {spec.label}"
    if not limits.finite_number(value):
        raise BuildFileError(f"{label} must be a finite number, not {value!r}")
    low = "more than 0" if spec.name in POSITIVE_FIELDS else "0 or more"
    if value < 0 or (value == 0 and spec.name in POSITIVE_FIELDS):
        raise BuildFileError(f"{label} must be {low}, not {value:,}")
    if value > limits.MAX_FIGURE:
        raise BuildFileError(f"{label} is {value:.6g}; at most {limits.MAX_FIGURE:,.0f} "
                             "is read")
    return value
