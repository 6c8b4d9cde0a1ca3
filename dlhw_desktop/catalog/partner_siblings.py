"""What a board-partner card's other records and its own name say of its cooling, power
connectors, length, slot width and board power, where its own record says nothing.

Sibling records. The BuildCores OpenDB lists one card several times: in another colour
("... RTX 3080 10GB GDDR6X Black" and "... White"), with and without "LHR", with its memory
written differently ("16 GB", "16G", "16GB GDDR6X") or the words in another order ("GeForce
RTX 4080 16GB VENTUS 3X OC" and "VENTUS 3X OC GeForce RTX 4080 16 GB"), as a "Limited" or
"Launch Edition". Often one record has the power connectors and another has none. A card
that lacks connectors, cooling, length, slot width or board power takes them from its
siblings: records of the same board partner and the same chip row whose names have the
same words once colour words, memory size and type, "LHR", "(Limited / Launch) Edition"
("OC Edition" is "OC"), descriptions ("PCI Express 4.0", "Graphics Card") and ASUS's
"GAMING" (on every ASUS model) are removed. Only when every sibling that has the figure
agrees; never from a record whose name is the chip's alone (a plain "Radeon RX 6800" is no
particular model), never from the reference card (the chip row, which is not an OpenDB
record here), and connectors only when they can deliver the card's board power. Model
words stay: "OC", "V2", "ICE", "SLIM", "Rev 2.0", "Black GAMING" (EVGA's tier), "Red Devil"
(PowerColor's line), "GAMING" at other makers (Gigabyte's "GAMING OC" and "OC" are two
cards).

Cooling from the name. OpenDB writes most blower cards as "1 Fan", which reads as an
open-air card. A name that says "Blower", or an ASUS or Gigabyte "TURBO" (both makers' blower
line), is a blower; "WATERFORCE" (Gigabyte's all-in-one and water-block line) is liquid;
"Hybrid" is hybrid; "Passive" is passive. The name wins only over "1 Fan" or no cooling;
against "3 Fans" or another kind it is not used. "AERO" is not a source (MSI's AERO is a
blower, MSI's AERO ITX and Gigabyte's AERO are open-air), nor "Liquid" (MSI's SUPRIM
LIQUID is a hybrid, PowerColor's Liquid Devil a water block), nor "EK" (no such card).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

SIBLING_FIELDS = ("power_connectors", "cooling", "board_length_mm", "slot_width", "tdp_w")

_COLOURS = (r"black(?!\s+gaming\b)|white|silver|gr[ae]y|red(?!\s+(?:devil|dragon)\b)|blue|"
            r"orange|gold|green|clear|pink|transparent|translucent|yellow|purple|brown|beige")
_COLOUR = re.compile(rf"\b(?:{_COLOURS})\b")
_MEMORY_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s*g[b]?\b")
_MEMORY_TYPE = re.compile(r"\b(?:g?ddr\d+x?|hbm\d*e?)\b")
_LHR = re.compile(r"\blhr\b")
_EDITION = re.compile(r"\b(?:(?:limited|launch)\s+)?edition\b")
_PUNCTUATION = re.compile(r"[()\[\]/,|]")
# What the product is, not which: "PCI Express 4.0 x16", "Graphics Card", "Video Card".
_DESCRIPTION = re.compile(r"\bpci(?:e|-e|\s+express)(?:\s+\d\.0)?(?:\s+x16)?(?=\s|$)|"
                          r"\b(?:graphics|video)\s+cards?\b")
# A board partner's word on every model: ASUS writes "ROG Strix GeForce RTX 4080 OC Edition"
# and "ROG STRIX GAMING OC GeForce RTX 4080" for one card (part number ...-O16G-GAMING).
_FILLER = {"asus": frozenset({"gaming"})}
_BRAND_WORDS = frozenset({"nvidia", "amd", "ati", "intel", "geforce", "radeon", "quadro"})


def model_words(name: str, chip_name: str, vendor: str = "") -> tuple[str, ...]:
    """The words that name a card's model, sorted: the card's name without colours,
    memory, "LHR", "Edition", brand words, the board partner's name and the chip's own
    words (``ROG STRIX GAMING OC V2 GeForce RTX 3080 LHR 10GB GDDR6X Black`` of the RTX
    3080 -> ``gaming oc rog strix v2``). Empty when the name is the chip's alone."""
    filler = _FILLER.get(vendor.lower(), frozenset())
    words = [w for w in _words(name) if w != vendor.lower() and w not in filler]
    for word in _words(chip_name):
        if word in words:
            words.remove(word)
    return tuple(sorted(words))


def _words(text: str) -> list[str]:
    text = text.lower().replace("\u2122", "").replace("\u00ae", "")
    text = _PUNCTUATION.sub(" ", text)
    for pattern in (_DESCRIPTION, _COLOUR, _MEMORY_SIZE, _MEMORY_TYPE, _LHR, _EDITION):
        text = pattern.sub(" ", text)
    return [w for w in text.split() if w not in _BRAND_WORDS]


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One OpenDB record of a card, cleaned: the values it would give the card."""

    opendb_id: str
    label: str
    """The record's name as people read it (``ASUS ROG STRIX ... Black``)."""
    values: dict[str, Any]
    chip_name: str
    connector_capacity_w: int
    """What its listed connectors and the slot deliver (75 W with none listed)."""
    board_power_w: int | None
    """The card's board power, or its chip's when the card has none."""

    @property
    def family(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.values["vendor"], self.values["chip_id"],
                model_words(self.values["name"], self.chip_name, self.values["vendor"]))


def sibling_note(sibling: CardRecord) -> str:
    return (f"from the same card's {sibling.label} record "
            f"(BuildCores OpenDB {sibling.opendb_id})")


def fill_from_siblings(cards: list[CardRecord], records: list[CardRecord],
                       figure_sources: dict[tuple[str, str], tuple[str, ...]]
                       ) -> Counter[str]:
    """Fill each card's unknown ``SIBLING_FIELDS`` from its siblings among ``records`` (in
    place, each with a figure source naming the sibling); returns the count per field."""
    families: dict[tuple[str, str, tuple[str, ...]], list[CardRecord]] = {}
    # What each record says itself, read before any card is filled: a figure a card took
    # from one sibling is not passed on as if its own record had it.
    own = {r.opendb_id: {name: r.values.get(name) for name in SIBLING_FIELDS}
           for r in records}
    for record in sorted(records, key=lambda r: r.opendb_id):
        family = record.family
        if family[2]:
            families.setdefault(family, []).append(record)
    filled: Counter[str] = Counter()
    for card in cards:
        family = card.family
        siblings = [r for r in families.get(family, ()) if r.opendb_id != card.opendb_id]
        for name in SIBLING_FIELDS:
            if card.values.get(name) is not None:
                continue
            having = [r for r in siblings if own[r.opendb_id][name] is not None]
            if not having or len({own[r.opendb_id][name] for r in having}) != 1:
                continue
            source = having[0]
            if name == "power_connectors" and not _can_power(source, card):
                continue
            card.values[name] = own[source.opendb_id][name]
            figure_sources[(card.values["id"], name)] = (
                card.values["id"], name, source.values["source"],
                source.values["source_date"], sibling_note(source))
            filled[name] += 1
    return filled


CORRECTED_FIELDS = ("board_length_mm", "slot_width", "tdp_w")
_UNITS = {"board_length_mm": " mm", "slot_width": " slots", "tdp_w": " W"}


def correct_from_siblings(cards: list[CardRecord], records: list[CardRecord],
                          figure_sources: dict[tuple[str, str], tuple[str, ...]]
                          ) -> list[str]:
    """A card's length, slot width or board power that two or more of the same card's other
    records contradict (all agreeing among themselves) and that another model of the same
    partner and chip has (a VENTUS 2X filed with the VENTUS 3X's 308 mm) is that model's
    figure: the card takes its own records' figure. Returns one line per change."""
    own = {r.opendb_id: {name: r.values.get(name) for name in CORRECTED_FIELDS}
           for r in records}
    families: dict[tuple[str, str, tuple[str, ...]], list[CardRecord]] = {}
    models: dict[tuple[str, str], list[CardRecord]] = {}
    for record in sorted(records, key=lambda r: r.opendb_id):
        family = record.family
        if family[2]:
            families.setdefault(family, []).append(record)
            models.setdefault(family[:2], []).append(record)
    changed: list[str] = []
    for card in cards:
        family = card.family
        siblings = [r for r in families.get(family, ()) if r.opendb_id != card.opendb_id]
        others = [r for r in models.get(family[:2], ()) if r.family != family]
        for name in CORRECTED_FIELDS:
            value = own[card.opendb_id][name]
            said = [own[r.opendb_id][name] for r in siblings
                    if own[r.opendb_id][name] is not None]
            if (value is None or len(said) < 2 or len(set(said)) != 1 or said[0] == value
                    or not any(own[r.opendb_id][name] == value for r in others)):
                continue
            card.values[name] = said[0]
            source = next(r for r in siblings if own[r.opendb_id][name] is not None)
            figure_sources[(card.values["id"], name)] = (
                card.values["id"], name, source.values["source"],
                source.values["source_date"],
                f"{sibling_note(source)}: {len(said)} records of this card say "
                f"{said[0]:g}{_UNITS[name]}; its own {value:g}{_UNITS[name]} is another "
                "model's")
            changed.append(f"{card.values['id']} {name} {value:g} -> {said[0]:g}")
    return changed


def _can_power(source: CardRecord, card: CardRecord) -> bool:
    """A sibling's connectors serve the card only if they deliver its board power."""
    return card.board_power_w is None or card.board_power_w <= source.connector_capacity_w


# --- cooling from the card's name -----------------------------------------------------------

_NAMED_COOLING: tuple[tuple[re.Pattern[str], frozenset[str] | None, str, str], ...] = (
    (re.compile(r"\bblower\b", re.I), None, "blower", "'Blower'"),
    (re.compile(r"\bturbo\b", re.I), frozenset({"asus", "gigabyte"}), "blower",
     "'TURBO' (the maker's blower line)"),
    (re.compile(r"\bwaterforce\b", re.I), frozenset({"gigabyte"}), "liquid",
     "'WATERFORCE' (Gigabyte's liquid-cooled line)"),
    (re.compile(r"\bhybrid\b", re.I), None, "hybrid", "'Hybrid'"),
    (re.compile(r"\bpassive\b", re.I), None, "passive", "'Passive'"),
)
# What the record's own cooling may say for its name to decide: one fan (a blower, or a
# pump's radiator fan) or nothing.
_NAME_DECIDES_OVER = frozenset({"", "1 fan"})


def cooling_from_name(vendor: str, name: str, dataset_cooling: str
                      ) -> tuple[str, str] | None:
    """(kind, what the name says) when the card's name tells its cooling and its record
    says no more than "1 Fan"; None otherwise (no such word, two such words, or a record
    that says otherwise)."""
    if dataset_cooling.strip().lower() not in _NAME_DECIDES_OVER:
        return None
    found = {(kind, said) for pattern, vendors, kind, said in _NAMED_COOLING
             if pattern.search(name) and (vendors is None or vendor.lower() in vendors)}
    if len({kind for kind, _ in found}) != 1:
        return None
    kind, said = sorted(found)[0]
    return kind, f"from the card's name: {said} means {kind} cooling"


LHR_YEAR = 2021
LHR_SOURCE = ("https://www.tomshw.it/hardware/nvidia-rtx-3000-lhr-ufficiali-hash-rate-"
              "dimezzati-per-combattere-i-miner/")
"""NVIDIA's Lite Hash Rate revisions of the RTX 3060 Ti, 3070 and 3080 were announced in May
2021 and sold from the end of that month (Tom's Hardware Italy, read 2026-11-28)."""


def lhr_release_year(cards: list[tuple[dict[str, Any], dict[str, Any]]],
                     figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> list[str]:
    """A card named "LHR" is the 2021 revision: a release year before 2021 (its own
    record's, else the one it would inherit from its chip) becomes 2021, with the source.
    ``cards``: (card values, chip values). Returns what changed, for the rule report."""
    changed: list[str] = []
    for values, chip in cards:
        year = values.get("release_year") or chip.get("release_year")
        if not _LHR.search(values["name"].lower()) or (year is not None and year >= LHR_YEAR):
            continue
        values["release_year"] = LHR_YEAR
        figure_sources[(values["id"], "release_year")] = (
            values["id"], "release_year", LHR_SOURCE, "2026-11-28",
            f"LHR revision: sold from May 2021 (the open data said {year or 'nothing'}, "
            "the original chip's year)")
        changed.append(f"{values['id']} {year or 'n/a'} -> {LHR_YEAR}")
    return changed
