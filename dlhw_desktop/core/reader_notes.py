"""A catalog note as a user reads it: no file names, field names or notes to maintainers.

The catalog's notes are written once, by the people who keep its sources, and read in the
details pane, the build sheet and ``dlhw show``. Some of what they say is meant for the
next maintainer: how a row was written ("offline sandbox", "as the engineer knew them"),
which source file a figure came from (``cpus.csv``), a field by its column name
(``tdp_w``). ``reader_note`` is the one rule every place that shows a note goes through:
those parts are dropped or said in the user's words, the facts stay. The rule is applied
when a note is shown, so a note written tomorrow in the same style is covered too.
"""

from __future__ import annotations

import re

from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

UNVERIFIED = "Unverified: not yet checked against the cited page."

_UNVERIFIED = re.compile(
    r"Unverified: the cited page was not opened when this row was written"
    r"(?: \(offline sandbox\))?[;,.]?\s*(?:the figures are the vendor's published ones as "
    r"the engineer knew them\.?)?", re.IGNORECASE)
_MAINTAINER_PHRASES = re.compile(r"\s*\((?:offline sandbox|as the engineer knew (?:it|them))\)",
                                 re.IGNORECASE)
_SOURCE_FILE = r"[\w.-]+\.(?:csv|ya?ml|json|py)\b"
_SEE_FILE = re.compile(rf"[;,]?\s*\(?see {_SOURCE_FILE}\)?", re.IGNORECASE)
_FILE_SENTENCE = re.compile(rf"(?:^|(?<=[.;]\s))[^.;]*\b{_SOURCE_FILE}[^.;]*[.;]?\s*")
_NAMES = "|".join(sorted((re.escape(n) for n in FIELDS_BY_NAME if "_" in n), key=len,
                         reverse=True))
_FIELD_NAME = re.compile(rf"(?<![\w/.-])({_NAMES})(?![\w/-])")
_QUOTED_KEY = re.compile(r'"[a-z][a-z0-9]*(?:_[a-z0-9]+)*":\s*"([^"]*)"')
"""A source's own record quoted key and value ("accelerator_interconnect": "18x NVLink"):
the value is what it says; the key is the source's column name."""
_CATEGORIES = "|".join(c.value for c in Category)
_DUPLICATE = re.compile(rf"the duplicate entry (?:{_CATEGORIES})/[\w.+-]+")
_PART_ID = re.compile(rf"(?<![\w/.-])(?:{_CATEGORIES})/[a-z0-9][\w.+-]*")
"""A part id in a note (the catalog's key, not a name): said as words."""
_CHIP = re.compile(r"inherited from chip accelerator/[\w.+-]+")
_ROW = re.compile(r"\b(rows?)\b")
_OPENDB = re.compile(r"\bopendb\b")


def reader_note(text: str | None) -> str:
    """``text`` as a user reads it (empty for ``None``); see the module's docstring."""
    if not text:
        return ""
    note = _CHIP.sub("the chip's", text)
    note = _DUPLICATE.sub("a duplicate listing of this part", note)
    note = _PART_ID.sub("another catalog entry", note)
    note = _QUOTED_KEY.sub(r'"\1"', note)
    note = _UNVERIFIED.sub(UNVERIFIED, note)
    note = _MAINTAINER_PHRASES.sub("", note)
    note = _SEE_FILE.sub("", note)
    note = _FILE_SENTENCE.sub("", note)
    note = _FIELD_NAME.sub(lambda m: _label(m.group(1)), note)
    note = _ROW.sub(lambda m: "entries" if m.group(1) == "rows" else "entry", note)
    note = _OPENDB.sub("OpenDB", note)
    note = re.sub(r"(\w) Unverified:", r"\1. Unverified:", note)
    note = re.sub(r"\s{2,}", " ", note).strip()
    note = re.sub(r"\s+([.;,)])", r"\1", note)
    return note[:-1] + "." if note.endswith((";", ",")) else note


def _label(name: str) -> str:
    return FIELDS_BY_NAME[name].label
