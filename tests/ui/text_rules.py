"""What no user may read: internal field names, part ids in running text, bare codes.

``raw_words(texts)`` returns each offending word with the text it was found in, so a
failing scan says where to look. Web addresses, file names and a maker's quoted part
numbers are left out (they may spell anything). A part id is allowed only as a reference
for the command line: on a line of its own (a tooltip's last line) or after the word "id"
(the details pane's header), never as a figure's value or inside a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dlhw_desktop.core.field_values import CODED_VALUES, JARGON_CODES
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.prices.kinds import PriceKind

INTERNAL_NAMES: frozenset[str] = frozenset(
    {name for name in FIELDS_BY_NAME if "_" in name}
    | {kind.value for kind in PriceKind if "_" in kind.value})

_URL = re.compile(r"(?:https?|file|ftp)://\S+|\bwww\.\S+")
_FILE = re.compile(r"\S+\.(?:csv|json|pdf|png|svg|md|txt|gguf|safetensors|db|ini)\b")
_CATEGORIES = "|".join(c.value for c in Category)
_ID = re.compile(rf"(?<![\w/])(?:{_CATEGORIES})/[a-z0-9][a-z0-9.+_-]*")
_ALLOWED_ID = re.compile(r"\bid\s*$")
_WORD = re.compile(r"(?<![\w/-])[A-Za-z][A-Za-z0-9]*(?:[_/-][A-Za-z0-9]+)*")


_PART_NUMBERS = re.compile(r"(?i)\bpart numbers?\b[^;\n]*?(?=;|\.\s|\.?$)")
"""A maker's part numbers are quoted as the maker writes them ("1tb nvme ssd - S880")."""


def _scrub(text: str) -> str:
    return _PART_NUMBERS.sub(" ", _FILE.sub(" ", _URL.sub(" ", text)))


def raw_words(texts: Iterable[str]) -> list[tuple[str, str]]:
    """(word, where) for every internal name, part id or bare code in ``texts``."""
    found: list[tuple[str, str]] = []
    for text in texts:
        clean = _scrub(text)
        for match in _ID.finditer(clean):
            line_start = clean.rfind("\n", 0, match.start()) + 1
            line_end = clean.find("\n", match.end())
            line = clean[line_start:line_end if line_end >= 0 else len(clean)]
            alone = line.strip() == match.group(0)
            if not alone and not _ALLOWED_ID.search(clean[:match.start()]):
                found.append((match.group(0), text[:160]))
        clean = _ID.sub(" ", clean)
        stripped = clean.strip().rstrip(".")
        if stripped in CODED_VALUES:
            found.append((stripped, text[:160]))
            continue
        for match in _WORD.finditer(clean):
            word = match.group(0)
            if word in INTERNAL_NAMES or word in JARGON_CODES:
                found.append((word, text[:160]))
        for match in re.finditer(r":\s+([a-z][a-z-]*)(?=\s*(?:$|[,;·)]))", clean):
            if match.group(1) in CODED_VALUES:
                found.append((match.group(1), text[:160]))
    return found
