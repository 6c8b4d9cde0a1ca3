"""Rules on every part once all sources are merged: one maker, one spelling; one part, one
row.

- **Maker spellings.** "Asus" and "ASUS", "Apevia" and "Apevia Corp." are one maker: each
  group of spellings that differ only in case or a company suffix ("Corp.", "Inc.", "Co.,
  Ltd.") takes the spelling its curated rows use (read on the maker's pages), else the one
  most of its parts use (a tie: the first alphabetically). Ids
  do not change (saved builds name parts by id).
- **Duplicate parts.** Two rows of one category and maker are one part when their names
  are the same once an imported cooler's spec tail ("Air 165mm 82.5 CFM") is dropped and
  case is ignored, or when they share a manufacturer part number (PSUs only: the open data
  gives a case's or cooler's colour variants one number).
  The curated row (or the first by id) is kept, the other fills its empty figures and its
  id becomes an alias of the kept one (``part_aliases``), so a saved build naming it still
  opens. Rows whose figures disagree are not merged (each such group is reported) unless
  one is curated, whose figures win (as over open data); in an SFX / SFX-L disagreement the
  SFX-L record wins (a unit filed as SFX by one record and SFX-L by another of the same
  part number is the longer SFX-L).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from dlhw_desktop.catalog.rule_log import RuleLog

Parts = dict[str, dict[str, Any]]
Sources = dict[tuple[str, str], tuple[str, ...]]

_SUFFIX = re.compile(r"[\s,]+(?:corp\.?|corporation|inc\.?|co\.?,?\s*ltd\.?|ltd\.?|llc|"
                     r"gmbh)$", re.IGNORECASE)
_COOLER_TAIL = re.compile(r"\s+(?:air|liquid)\s+\d+(?:\.\d+)?\s*mm(?:\s+[\d.]+\s*cfm)?\s*$",
                          re.IGNORECASE)
_PART_NUMBERS = re.compile(r"part numbers ([^.;]+)", re.IGNORECASE)
PART_NUMBER_CATEGORIES = frozenset({"psu"})  # cases and coolers: colour variants share numbers
# Not figures: who said it, and how the row is named.
_BOOKKEEPING = frozenset({"id", "vendor", "name", "family", "source", "source_date", "notes",
                          "release_year", "dl_note"})
_CHOOSE = {"psu_form_factor": {frozenset({"SFX", "SFX-L"}): "SFX-L"}}


def maker_key(vendor: str) -> str:
    return _SUFFIX.sub("", vendor.strip()).casefold()


def one_spelling_per_maker(parts: Parts, log: RuleLog) -> None:
    spellings: dict[str, Counter[str]] = {}
    curated: dict[str, Counter[str]] = {}
    for values in parts.values():
        key = maker_key(values["vendor"])
        spellings.setdefault(key, Counter())[values["vendor"]] += 1
        if _curated(values):
            curated.setdefault(key, Counter())[values["vendor"]] += 1
    chosen = {}
    for key, counts in spellings.items():
        if len(counts) > 1:
            ranked = curated.get(key) or counts  # as the curated rows write it, if any
            chosen[key] = min(ranked, key=lambda s: (-ranked[s], s))
    for part_id in sorted(parts):
        values = parts[part_id]
        best = chosen.get(maker_key(values["vendor"]))
        if best is not None and values["vendor"] != best:
            log.change("maker spelled another way: one spelling (the curated rows', else the "
                       "most used)",
                       f"{part_id} {values['vendor']} -> {best}")
            values["vendor"] = best


def _name_key(values: dict[str, Any]) -> str:
    name = values["name"]
    if values["category"] == "cooler":
        name = _COOLER_TAIL.sub("", name)
    return " ".join(name.casefold().split())


def _part_numbers(values: dict[str, Any]) -> set[str]:
    if values["category"] not in PART_NUMBER_CATEGORIES:
        return set()
    match = _PART_NUMBERS.search(values.get("notes") or "")
    if not match:
        return set()
    return {n.strip().upper() for n in match.group(1).split(",") if len(n.strip()) >= 6}


def _curated(values: dict[str, Any]) -> bool:
    return not str(values.get("source", "")).startswith("buildcores:")


def _groups(parts: Parts) -> list[list[str]]:
    """Ids of rows that are one part, each group in keep-first order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    seen: dict[tuple[str, ...], str] = {}
    for part_id in sorted(parts):
        values = parts[part_id]
        if values["category"] in ("accelerator", "cloud", "server"):
            continue  # cards have their own rules (partner_cards); offers are not parts
        maker = maker_key(values["vendor"])
        keys = [(values["category"], maker, "name", _name_key(values))]
        keys += [(values["category"], maker, "pn", n) for n in sorted(_part_numbers(values))]
        for key in keys:
            if key in seen:
                union(seen[key], part_id)
            else:
                seen[key] = part_id
    members: dict[str, list[str]] = {}
    for part_id in sorted(parent):
        members.setdefault(find(part_id), []).append(part_id)
    return [sorted(ids, key=lambda i: (not _curated(parts[i]), i))
            for ids in members.values() if len(ids) > 1]


def _conflicts(group: list[dict[str, Any]]) -> dict[str, Any]:
    """field -> the value all rows can take (resolved), or ``...`` when they disagree."""
    out: dict[str, Any] = {}
    names = {k for values in group for k in values} - _BOOKKEEPING
    for name in sorted(names):
        found = {values.get(name) for values in group} - {None, ""}
        if len(found) <= 1:
            continue
        out[name] = _CHOOSE.get(name, {}).get(frozenset(found), ...)
    return out


def merge_duplicates(parts: Parts, figure_sources: Sources, log: RuleLog,
                     merged_names: dict[str, list[str]] | None = None) -> dict[str, str]:
    """Merge each group of rows that are one part; returns alias id -> kept id, and adds
    each merged row's name to ``merged_names[kept id]`` (search still finds it by them)."""
    aliases: dict[str, str] = {}
    for ids in _groups(parts):
        rows = [parts[i] for i in ids]
        conflicts = _conflicts(rows)
        unresolved = sorted(k for k, v in conflicts.items() if v is ...)
        if unresolved and _curated(rows[0]) and all(rows[0].get(k) not in (None, "")
                                                     for k in unresolved):
            # a curated row (read on the maker's page) wins, as it does over open data
            log.report(rows[0]["source"], ", ".join(ids), "duplicate part",
                       f"merged; the curated {', '.join(unresolved)} kept")
            for name in unresolved:
                conflicts[name] = rows[0][name]
            unresolved = []
        if unresolved:
            log.report(rows[0]["source"], ", ".join(ids), "duplicate part",
                       f"kept apart: the rows disagree on {', '.join(unresolved)}")
            continue
        kept = rows[0]
        for name, value in conflicts.items():
            if kept.get(name) != value:
                kept[name] = value
                donor = next(r for r in rows if r.get(name) == value)
                _move_source(figure_sources, donor, kept, name)
        for other in rows[1:]:
            for name, value in other.items():
                if name in _BOOKKEEPING or value in (None, "") or kept.get(name) not in (
                        None, ""):
                    continue
                kept[name] = value
                _move_source(figure_sources, other, kept, name)
            for key in [k for k in figure_sources if k[0] == other["id"]]:
                del figure_sources[key]
            del parts[other["id"]]
            aliases[other["id"]] = kept["id"]
            if merged_names is not None:
                merged_names.setdefault(kept["id"], []).append(other["name"])
        log.change("duplicate part merged into one row (the others' ids kept as aliases)",
                   f"{kept['id']} <- {', '.join(ids[1:])}")
    return aliases


def _move_source(figure_sources: Sources, donor: dict[str, Any], kept: dict[str, Any],
                 name: str) -> None:
    own = figure_sources.get((donor["id"], name))
    source, date, note = ((own[2], own[3], own[4]) if own else
                          (donor["source"], donor["source_date"], ""))
    figure_sources[(kept["id"], name)] = (
        kept["id"], name, source, date,
        f"from the duplicate row {donor['id']}" + (f"; {note}" if note else ""))
