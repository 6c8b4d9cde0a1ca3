"""Figures as people read them: units, thousands separators and "n/a" for unknown.

The one formatting module of every layer: the CLI, the build sheet and the desktop panels
all print through it, and where they differ it is a named option here, not a copy
(``money(cents_below=10)`` on the panels, where $0.42/h matters and $1,234 does not need
cents; ``duration(keep_hours=True)`` on the sheet, where GPU-hours are compared).
Unknown is ``None`` everywhere below and always prints as ``NA``, never as 0.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

NA = "n/a"
SHORT_SOURCE_CHARS = 40
GIB = float(1 << 30)
BTU_PER_WATT_HOUR = 3.412141633
"""1 W of heat = 3.412 BTU/h (NIST SP 811, appendix B.8); facilities size cooling in BTU/h."""


def number(value: float | None, places: int = 0, unit: str = "") -> str:
    if value is None:
        return NA
    text = f"{value:,.{places}f}"
    return f"{text} {unit}" if unit else text


def money(value: float | None, per: str = "", *, cents_below: float = 100) -> str:
    """US dollars: whole dollars from ``cents_below`` up, cents below it; ``per`` e.g.
    "h" -> "$0.42/h"."""
    if value is None:
        return NA
    text = f"${value:,.0f}" if abs(value) >= cents_below else f"${value:,.2f}"
    return f"{text}/{per}" if per else text


def watts(value: float | None) -> str:
    return number(value, 0, "W")


def gigabytes(value: float | None) -> str:
    if value is None:
        return NA
    places = 0 if float(value).is_integer() else 1
    return number(value, places, "GB")


def gib(value_bytes: float | None, digits: int = 1) -> str:
    """Bytes as GiB; ``n/a`` for unknown (never 0)."""
    return NA if value_bytes is None else f"{value_bytes / GIB:,.{digits}f} GiB"


def percent(fraction: float | None, places: int = 0) -> str:
    return NA if fraction is None else f"{fraction * 100:,.{places}f} %"


def btu_per_hour(watts_value: float | None) -> str:
    return number(None if watts_value is None else watts_value * BTU_PER_WATT_HOUR, 0, "BTU/h")


def duration(hours: float | None, *, keep_hours: bool = False) -> str:
    """Hours in the unit a person reads best, seconds to years.

    ``keep_hours``: from two days up, the hours stay in front and the days follow in
    brackets ("1,234 h (51.4 days)"), for sheets where GPU-hours are compared.
    """
    if hours is None:
        return NA
    if keep_hours:
        if hours < 48:
            return f"{hours:,.1f} h"
        return f"{hours:,.0f} h ({hours / 24:,.1f} days)"
    if hours < 1 / 60:
        return f"{hours * 3600:,.0f} s"
    if hours < 1:
        return f"{hours * 60:,.0f} min"
    if hours < 48:
        return f"{hours:,.1f} h"
    days = hours / 24
    if days < 730:
        return f"{days:,.1f} days"
    return f"{days / 365:,.1f} years"


def rate(per_second: float | None) -> str:
    """A throughput (tokens/s): one decimal below 100, whole numbers above."""
    if per_second is None:
        return NA
    return f"{per_second:,.1f}" if per_second < 100 else f"{per_second:,.0f}"


def count(value: float | None) -> str:
    """Large counts in words a reader scans: 2e8 -> "200M", 1.5e12 -> "1.5T"."""
    if value is None:
        return NA
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            scaled = value / size
            return f"{scaled:,.{0 if scaled >= 100 or scaled.is_integer() else 1}f}{suffix}"
    return f"{value:,.0f}"


def short_source(source: str) -> str:
    """A source as a table cell shows it: the site of a URL (``images.nvidia.com`` ->
    ``nvidia.com``, ``shop.example.co.uk`` -> ``example.co.uk``), else the text itself."""
    text = source.strip()
    if not text:
        return NA
    if "://" in text:
        host = urlparse(text).netloc.lower().split(":")[0]
        labels = host.split(".")
        if len(labels) > 2:
            keep = 3 if len(labels[-1]) == 2 and len(labels[-2]) <= 3 else 2
            labels = labels[-keep:]
        return ".".join(labels) or text
    return text if len(text) <= SHORT_SOURCE_CHARS else text[:SHORT_SOURCE_CHARS - 1] + "…"


_MD_PUNCTUATION = re.compile(r"([\\`*_\[\]<>|~&])")
"""Inline constructs' punctuation: ``(`` only acts after ``]``, ``!`` only before ``[``,
``#``, ``+`` and ``-`` only at a line's start (which escaped text never is)."""
_MD_CONTROLS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]+")
_MD_AUTOLINK = re.compile(r"(?i)\b(https?|ftp|mailto|file|javascript|data|www)([:.])")
_MD_MENTION = re.compile(r"@(?=\w)")


def markdown_text(text: str) -> str:
    """``text`` as literal Markdown inline text: what it says is shown, nothing in it acts.

    The one escape every Markdown this program writes goes through (shared builds, the
    cluster sheet, the Compare table), for names a user or a file chose: every construct's
    punctuation is backslash-escaped (emphasis, code, links and images ``[..](..)``/
    ``![..]``, raw HTML and autolinks ``<..>``, table pipes, entities ``&..;``); a bare
    ``https:`` or ``www.`` loses its autolink; an ``@name`` (a mention on GitHub, GitLab
    and chat) gets a zero-width space after the ``@``; line breaks become spaces, so no
    text starts a new block.
    """
    text = _MD_CONTROLS.sub(" ", text)
    text = _MD_PUNCTUATION.sub(r"\\\1", text)
    text = _MD_AUTOLINK.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", text)
    return _MD_MENTION.sub("@&#8203;", text)


def price_range_text(low: float | None, high: float | None = None) -> str:
    """``$1,999``, or ``$25,000–30,000`` for a range; ``n/a`` when unknown."""
    if low is None:
        return "n/a"
    text = f"${low:,.2f}" if low < 100 else f"${low:,.0f}"
    if high is None or high <= low:
        return text
    return f"{text}–{high:,.0f}" if high >= 100 else f"{text}–{high:,.2f}"
