"""Turn what a user typed into a safe FTS5 query: every word a prefix, all required.

FTS5 has its own syntax (quotes, ``*``, ``AND``/``OR``/``NOT``, ``NEAR(``, column
filters). A user searching for ``"RTX" 4090*`` means those words, not that syntax, so
each word is quoted as a string literal and made a prefix. Words are runs of letters and
digits in any script; everything else separates words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

MAX_QUERY_CHARS = 512
MAX_TOKENS = 16
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# Parts lists write "2 x 16GB", "8 GB", "750 W" where catalog names write "2x16GB", "8GB",
# "750W": a number and its unit (or a module count and its size) are one word there.
_MODULES = re.compile(r"(?<![^\W_])(\d+)\s*[x×]\s*(?=\d+(?:\.\d+)?\s*(?:tb|gb|mb)(?![^\W_]))",
                      re.IGNORECASE)
_NUMBER_UNIT = re.compile(r"(?<![^\W_])(\d+(?:\.\d+)?)\s+(tb|gb|mb|w|mhz|mm)(?![^\W_])",
                          re.IGNORECASE)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
FILLER_WORDS = frozenset({"series"})
"""Words parts lists add that catalog names leave out ("850 EVO-Series"): dropped from a
query that has other words, which can only widen what it finds."""
# Series names people type for the model: Corsair "RMx 850W" is the RM850x, "HXi" the
# HX1000i. A name word of 2-3 letters, 3-4 digits and a 1-2 letter suffix is also indexed
# as its letters and suffix ("rm850x" -> "rmx").
_SERIES_MODEL = re.compile(r"([a-z]{2,3})(\d{3,4})([a-z]{1,2})")


def normalized(text: str) -> str:
    """``text`` with "2 x 16GB" -> "2x16GB", "8 GB" -> "8GB" and "2,000 W" -> "2000W"
    (what names write)."""
    text = _THOUSANDS.sub("", text[:MAX_QUERY_CHARS])
    text = _NUMBER_UNIT.sub(r"\1\2", text)
    return _MODULES.sub(r"\1x", text)


def tokens(text: str) -> list[str]:
    """The words of ``text``, lower-cased, at most ``MAX_TOKENS`` of them."""
    return [t.lower() for t in _WORD.findall(normalized(text))][:MAX_TOKENS]


def fts_query(text: str, prefix: bool = True) -> str | None:
    """An FTS5 MATCH expression for ``text``; ``None`` when it holds no word.

    ``prefix=False`` asks for every word whole: the parts that match it are listed before
    those that only match a longer word ("GB10" is the GB10, before a FirePro whose "8 GB
    (100-505724)" indexes the joined word "gb100").
    """
    words = tokens(text)
    if not words:
        return None
    kept = [w for w in words if w not in FILLER_WORDS] or words
    star = "*" if prefix else ""
    return " AND ".join(f'"{w}"{star}' for w in kept)


def series_aliases(words: Iterable[str]) -> list[str]:
    """``["rm850x"]`` -> ``["rmx"]``: the series a model number belongs to."""
    aliases = []
    for word in words:
        match = _SERIES_MODEL.fullmatch(word)
        if match:
            aliases.append(match.group(1) + match.group(3))
    return aliases


def search_text(*fields: str | None, extra: Iterable[str | None] = ()) -> str:
    """The text indexed for a part: its words plus joined neighbours.

    Joined pairs let ``rtx4090`` or ``i7-14700k`` typed without spaces still match
    ``RTX 4090`` / ``i7 14700K``. Pairs are made within ``fields`` (vendor, name, family:
    what people type); the words of ``extra`` (notes, part numbers, software, ...) are
    indexed alone, which keeps the index of a 25,000-part catalog a third smaller.
    """
    words: list[str] = []
    for value in fields:
        if value:
            words.extend(t.lower() for t in _WORD.findall(value))
    pairs = [a + b for a, b in itertools.pairwise(words)]
    more = [t.lower() for value in extra if value for t in _WORD.findall(value)]
    seen: dict[str, None] = dict.fromkeys(words + pairs + series_aliases(words) + more)
    return " ".join(seen)
