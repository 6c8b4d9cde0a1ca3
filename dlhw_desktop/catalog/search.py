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


def tokens(text: str) -> list[str]:
    """The words of ``text``, lower-cased, at most ``MAX_TOKENS`` of them."""
    return [t.lower() for t in _WORD.findall(text[:MAX_QUERY_CHARS])][:MAX_TOKENS]


def fts_query(text: str) -> str | None:
    """An FTS5 MATCH expression for ``text``; ``None`` when it holds no word."""
    words = tokens(text)
    if not words:
        return None
    return " AND ".join(f'"{w}"*' for w in words)


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
    seen: dict[str, None] = dict.fromkeys(words + pairs + more)
    return " ".join(seen)
