"""Small helpers the checks share: number formatting, names, sockets, platforms."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from contextvars import ContextVar

from dlhw_desktop.core.fields import field_label
from dlhw_desktop.core.limits import SERVER_MODULE_FORMS, plural
from dlhw_desktop.core.parts import Part

__all__ = ["SERVER_MODULE_FORMS"]

def watts(value: float) -> str:
    return f"{value:,.0f} W"


def pct(fraction: float) -> str:
    return f"{fraction * 100:.0f} %"


def gb(value: float) -> str:
    if value >= 1000 and value % 1000 == 0:
        return f"{value / 1000:g} TB"
    return f"{value:,.0f} GB" if float(value).is_integer() else f"{value:,.1f} GB"


def num(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


def round_up(value: float, step: float) -> float:
    return math.ceil(value / step) * step


def counted(part: Part, quantity: int) -> str:
    """``"2x NVIDIA GeForce RTX 4090"`` or just the name for one."""
    return f"{quantity}x {part.display_name}" if quantity != 1 else part.display_name


def join(names: Iterable[str]) -> str:
    items = list(dict.fromkeys(names))
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


MISSING_SEEN: ContextVar[list[tuple[Part, str]] | None] = ContextVar("missing_seen",
                                                                     default=None)
"""The (part, field) pairs ``missing`` named while one check ran: the runner gives them to
that check's results as ``needs``, so each gap can be offered to the user to fill."""


def missing(pairs: Iterable[tuple[Part, str]]) -> str:
    """``"missing TDP of NVIDIA RTX 4090, rated output of Corsair RM850x"``: labels from
    the field vocabulary, so no internal name reaches a user."""
    pairs = list(pairs)
    seen = MISSING_SEEN.get()
    if seen is not None:
        seen.extend(pairs)
    text = ", ".join(dict.fromkeys(f"{field_label(name)} of {part.display_name}"
                                   for part, name in pairs))
    return f"missing {text}"


def count_of(count: float, singular: str, plural_form: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``: never "card(s)"."""
    return plural(count, singular, plural_form)


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", text.lower()).strip() + " "


def matches_name(part: Part, names: Iterable[str]) -> str | None:
    """The first of ``names`` the part is (whole words: "Noctua NH-D15" matches
    "Noctua NH-D15 chromax.black" but not "Noctua NH-D15S"), else None."""
    have = _words(part.display_name)
    for name in names:
        want = _words(name)
        if want.strip() and want in have:
            return name
    return None


def unique(parts: Iterable[Part]) -> list[Part]:
    """Parts without repeats, by id, in first-seen order (``Part`` is not hashable)."""
    seen: dict[str, Part] = {}
    for part in parts:
        seen.setdefault(part.id, part)
    return list(seen.values())


_SCHEME = re.compile(r"^\s*(\d+)\s*\+\s*(\d+)\s*$")


def redundancy(server: Part) -> tuple[int, int] | None:
    """``psu_redundancy`` "4+2" -> (4, 2); ``None`` when unknown or unreadable."""
    match = _SCHEME.match(server.text("psu_redundancy"))
    return (int(match.group(1)), int(match.group(2))) if match else None


def carrying_w(server: Part) -> float | None:
    """Output of the supplies that must carry the load with the spares lost (N x rating)."""
    unit = server.number("psu_unit_w")
    scheme = redundancy(server)
    if unit is None or scheme is None:
        return None
    return unit * scheme[0]
