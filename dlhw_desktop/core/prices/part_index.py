"""The catalog's parts as a price list's rows are matched to them: by id, by every part
number a part lists (an OEM number such as ``CP-9020271-EU``), by a part number found in a
name, and by name; and, when a line could be several parts, the one in the open build.

Where the catalog keeps part numbers: a part's notes list them, as the BuildCores OpenDB
import writes them (``part numbers CP-9020271-NA, CP-9020271-EU``) and as the board-partner
card import does (``Part numbers: 90YV0IE0-M0NA00; 90YV0IE0-M0AA00.``); a name may carry
one too (``9100 PRO 2TB MZ-VAP2T0B/AM``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping

from dlhw_desktop.core.parts import Part

_LISTED = re.compile(r"(?i)\bpart\s+numbers?\s*(?P<colon>:)?\s*(?P<body>[^\n]*)")
_NUMBER = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-_/.+#]{2,47}")
MIN_KEY = 5
"""Characters (letters and digits) a part number needs before it is looked up: shorter
ones (``A1``, ``1000``) name too many things."""


def normalise(text: str) -> str:
    """Lower case, letters and digits only: ``RTX-4090 (24GB)`` -> ``rtx409024gb``."""
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def listed_part_numbers(notes: str | None) -> list[str]:
    """The part numbers a part's notes list, in their order: ``part numbers A-1, B-2; ...``
    (comma separated, up to the next ``;``) or ``Part numbers: A-1; B-2.`` (semicolon
    separated, up to the sentence's end). Only tokens with a digit count."""
    if not notes:
        return []
    found: list[str] = []
    for match in _LISTED.finditer(notes):
        body = match.group("body")
        if match.group("colon"):
            body = re.split(r"\.(?:\s|$)", body, maxsplit=1)[0]
            pieces = body.split(";")
        else:
            pieces = body.split(";", 1)[0].split(",")
        for piece in pieces:
            token = piece.strip().rstrip(".")
            if _NUMBER.fullmatch(token) and any(c.isdigit() for c in token):
                found.append(token)
    return found


class PartIndex:
    """Parts by id, by listed part number, by normalised display name, and by the
    three-letter pieces of those names, so "which names contain this part number" looks
    at a few candidates instead of every name (a 10,000-row price list against a catalog
    of thousands stays quick)."""

    def __init__(self, parts: Iterable[Part], aliases: Mapping[str, str] | None = None
                 ) -> None:
        self.aliases = dict(aliases or {})
        """A merged duplicate's id -> the id it became (the catalog's ``part_aliases``)."""
        self.by_id: dict[str, Part] = {}
        self.by_name: dict[str, list[Part]] = {}
        self.by_number: dict[str, list[Part]] = {}
        shown: dict[str, list[Part]] = {}
        for part in parts:
            self.by_id[part.id] = part
            full = normalise(part.display_name)
            self.by_name.setdefault(full, []).append(part)
            name = normalise(part.name)
            if name != full:
                self.by_name.setdefault(name, []).append(part)
            for number in listed_part_numbers(part.notes):
                key = normalise(number)
                if len(key) >= MIN_KEY:
                    listed = self.by_number.setdefault(key, [])
                    if part not in listed:
                        listed.append(part)
            # The display name is the vendor and the name: a key inside the name is inside
            # it too, so the containment search needs the display names alone.
            shown.setdefault(full, []).append(part)
        self._names = list(shown.items())
        grams: dict[str, list[int]] = {}
        for i, (key, _) in enumerate(self._names):
            for gram in {key[j:j + 3] for j in range(len(key) - 2)}:
                found = grams.get(gram)
                if found is None:
                    grams[gram] = [i]
                else:
                    found.append(i)
        self._grams = grams

    def _containing(self, key: str) -> list[Part]:
        """Parts whose normalised name contains ``key`` (at least 3 characters), in the
        order the parts were given."""
        postings = []
        for gram in {key[j:j + 3] for j in range(len(key) - 2)}:
            found = self._grams.get(gram)
            if not found:
                return []
            postings.append(found)
        postings.sort(key=len)
        candidates = set(postings[0])
        for more in postings[1:]:
            candidates.intersection_update(more)
            if not candidates:
                return []
        hits: dict[str, Part] = {}
        # Closest first: the name with the fewest characters beyond the key ("GeForce RTX
        # 4090" before "Gigabyte AORUS GeForce RTX 4090 Master 24G"), then by name.
        for i in sorted(candidates, key=lambda i: (len(self._names[i][0]), self._names[i][0])):
            name, parts = self._names[i]
            if key in name:
                hits.update((p.id, p) for p in parts)
        return list(hits.values())

    def match(self, part_id: str, part_number: str, name: str) -> list[Part]:
        """The parts a line could price: by id; by a part number a part lists, or one
        inside a name; by name (exact, then contained)."""
        if part_id and part_id in self.by_id:
            return [self.by_id[part_id]]
        if part_id and self.aliases.get(part_id) in self.by_id:  # an id merged since
            return [self.by_id[self.aliases[part_id]]]
        if part_number:
            key = normalise(part_number)
            if len(key) >= MIN_KEY:
                listed = self.by_number.get(key)
                if listed:
                    return list(listed)
                found = self._containing(key)
                if found:
                    return found
        if name:
            key = normalise(name)
            if key in self.by_name:
                return list({p.id: p for p in self.by_name[key]}.values())
            if len(key) >= 6:  # "RTX 4090" names several parts: the preview says which
                return self._containing(key)
        return []

    def in_build(self, found: list[Part], build: Collection[str]) -> Part | None:
        """Of the parts a line could price, the one in the open build (``build``: its part
        ids): a candidate that is in it, or the chip a candidate card is built on when the
        build holds the chip (a reseller's "RTX 6000 Ada" prices the card in the build,
        not a board partner's). ``None`` when the build holds none or several of them."""
        if not build or not found:
            return None
        held = [p for p in found if p.id in build]
        if len(held) == 1:
            return held[0]
        if held:
            return None
        chips = {chip for p in found if isinstance(chip := p.specs.get("chip_id"), str)
                 and chip in build}
        if len(chips) == 1:
            return self.by_id.get(next(iter(chips)))
        return None
