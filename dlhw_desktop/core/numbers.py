"""A number a user gave: one checked type for every place one arrives from outside.

A ``NumberField`` names a field as a person reads it (``Parameters``) and as a file or flag
spells it (``params``), with the range a real value lies in. ``field.check(value)``
returns the value as a ``float`` (or ``int`` for a whole-number field) or raises
``NumberError`` naming the field: never NaN, never infinite, never beyond the range,
never a bool, never a string of 5,000 digits (refused before Python converts it).

The CLI (``field.argparse_type()``), the price book, cluster plans, build files and the
model-file readers use it, so "1e308 parameters" gets the same one line everywhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from dlhw_desktop.core.errors import DlhwError

MAX_NUMBER_CHARS = 40
"""Characters of a number as text: a float's 17 significant digits, a sign, a point and
an exponent fit in 25; 5,000 digits are a mistake or an attack, refused unread."""

_NUMBER_TEXT = re.compile(
    r"([+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"\s*([kKmMbBgGtT]?)", re.ASCII)
"""A number as people type one: ``1e9``, ``70,000,000,000`` (thousands in groups of
three), with a scale letter: ``1.5k``, ``100M``, ``70B`` (``G`` too), ``2T``."""

SCALES = {"": 1.0, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
"""The scale letters every number field reads (either case: ``m`` is a million here, as
parameter and token counts are written)."""


def parse_number(text: str, unit: str = "") -> float | None:
    """The one reading of a number typed as text: ``"70B"`` -> 7e10, ``"1.5k"`` -> 1500,
    ``"1e9"``, ``"70,000,000,000"``; ``None`` when ``text`` is not a number. ``unit``: the
    field's own unit may follow (``"850 W"``, ``"1.5kW"`` for a field in W)."""
    text = text.strip()
    if unit and text.lower().endswith(unit.lower()):
        text = text[: -len(unit)].rstrip()
    match = _NUMBER_TEXT.fullmatch(text)
    if match is None:
        return None
    return float(match.group(1).replace(",", "")) * SCALES[match.group(2).upper()]


class NumberError(DlhwError, ValueError):
    """A number outside its field's range, or not a number; the message names the field."""


@dataclass(frozen=True, slots=True)
class NumberField:
    """A kind of number a user gives, with its name and the range a real one lies in.

    ``low``/``high`` bound the value; ``low_open`` makes ``low`` itself refused (a price
    or a rate must be above zero, not zero). ``whole`` asks for a whole number.
    """

    key: str
    label: str
    low: float
    high: float
    low_open: bool = False
    whole: bool = False
    unit: str = ""

    @property
    def name(self) -> str:
        """``Parameters (params)``: how errors name the field."""
        return f"{self.label} ({self.key})" if self.key and self.key != self.label else (
            self.label)

    def _fail(self, text: str) -> NumberError:
        return NumberError(f"{self.name}: {text}")

    def _shown(self, value: float) -> str:
        return f"{_plain(value)}{' ' + self.unit if self.unit else ''}"

    def check(self, value: object) -> float:
        """``value`` (a number, or text a person typed) if it is finite and in range;
        ``NumberError`` naming the field otherwise. A whole-number field returns an int
        (as a float's value: ``check(8.0) == 8``)."""
        number = self._convert(value)
        if not math.isfinite(number):
            raise self._fail(f"{_short(value)} is not a finite number")
        if number < self.low or (self.low_open and number == self.low):
            bound = ("above zero" if self.low_open and self.low == 0 else
                     f"above {self._shown(self.low)}" if self.low_open else
                     f"at least {self._shown(self.low)}")
            raise self._fail(f"{_short(value)} is too small: it must be {bound}")
        if number > self.high:
            raise self._fail(f"{_short(value)} is too large: it must be at most "
                             f"{self._shown(self.high)}")
        if self.whole:
            if number != int(number):
                raise self._fail(f"{_short(value)} is not a whole number")
            return int(number)
        return number

    def check_optional(self, value: object) -> float | None:
        """``None`` stays unknown; anything else is ``check``-ed."""
        return None if value is None else self.check(value)

    def _convert(self, value: object) -> float:
        if isinstance(value, bool):
            raise self._fail(f"{value!r} is not a number")
        if isinstance(value, int):
            if value.bit_length() > 128:  # beyond every range; float() would overflow
                raise self._fail(f"{_short(value)} is too large")
            return float(value)
        if isinstance(value, float):
            return value
        if isinstance(value, str):
            text = value.strip().replace("_", "\0")  # Python's 1_000 is not a number here
            if len(text) > MAX_NUMBER_CHARS:
                raise self._fail(f"{_short(value)} is not a number (too many characters)")
            if text.lower() in ("inf", "+inf", "-inf", "infinity", "nan", "+nan", "-nan"):
                raise self._fail(f"{_short(value)} is not a finite number")
            number = parse_number(text)
            if number is None:
                raise self._fail(f"{_short(value)} is not a number")
            return number
        raise self._fail(f"{_short(value)} is not a number")

    def argparse_type(self) -> Callable[[str], float]:
        """A ``type=`` for argparse: the checked value, or argparse's one-line error."""
        import argparse

        def parse(text: str) -> float:
            try:
                return self.check(text)
            except NumberError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None

        parse.__name__ = self.label
        return parse


def _short(value: object) -> str:
    """A value as an error shows it: a 5,000-digit number is cut, not printed whole."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"a {len(str(value)) if value.bit_length() < 14000 else 'huge'}-digit number"
    if isinstance(value, float):
        return _plain(value)
    text = repr(value) if isinstance(value, str) else f"{value}"
    return text if len(text) <= MAX_NUMBER_CHARS else text[:MAX_NUMBER_CHARS - 3] + "..."


def _plain(value: float) -> str:
    """``1,000,000,000`` for a whole number a person reads, ``1e+20`` beyond that."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:g}"
