"""Match one detected name to a catalog part: the ``Matcher`` and what it says of a match.

A detected name is reduced to a key (``core.name_keys``) and compared with the keys of
the catalog's parts of that category, computed once per category. Words that make another
product must agree; the reported memory, then the power limit, then the form factor
narrow several variants of one name, and each ``NameMatch`` says how it was made
(``MatchMethod``), how sure it is and why. Turning a whole detection report into build
parts is ``catalog.matching``'s work; this module knows nothing of builds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.name_keys import NameKey, name_key, vendor_key
from dlhw_desktop.core.parts import Part


class PartSource(Protocol):
    """What matching needs from a catalog (``Catalog`` has it; tests may fake it)."""

    def parts(self, category: Category | None = None) -> list[Part]: ...


class MatchMethod(StrEnum):
    EXACT = "exact"
    NORMALISED = "normalised"
    MEMORY = "memory-disambiguated"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class _Entry:
    part: Part
    key: NameKey
    memory_gb: float | None
    form: str | None
    vendor: str


@dataclass(frozen=True, slots=True)
class NameMatch:
    """The outcome of matching one name: a part (or none) and how."""

    part: Part | None
    method: MatchMethod
    confidence: float
    reason: str
    alternatives: tuple[str, ...] = ()


_NO_MATCH = NameMatch(None, MatchMethod.NONE, 0.0, "")


class Matcher:
    """Matches names against one catalog; keys are computed once per category."""

    def __init__(self, catalog: PartSource) -> None:
        self.catalog = catalog
        self._index: dict[Category, list[_Entry]] = {}

    def _entries(self, category: Category) -> list[_Entry]:
        if category not in self._index:
            entries: list[_Entry] = []
            for part in self.catalog.parts(category):
                if part.category is not category:
                    continue
                key = name_key(part.name)
                memory = part.number("memory_gb") if category is Category.ACCELERATOR else None
                form_text = part.text("form_factor").lower()
                form = key.form or ("sxm" if form_text.startswith("sxm") else
                                    form_text if form_text in ("pcie", "oam") else None)
                entries.append(_Entry(part, key, key.memory_gb or memory, form,
                                      vendor_key(part.vendor)))
            self._index[category] = entries
        return self._index[category]

    def match(self, category: Category, name: str, vendor: str = "",
              memory_gb: float | None = None, power_w: float | None = None,
              alternatives: Sequence[str] = ()) -> NameMatch:
        """The catalog part ``name`` most likely is, or ``NONE`` with the reason."""
        names = [name, *[a for a in alternatives if a != name]]
        found: list[tuple[str, NameMatch]] = []
        for candidate_name in names:
            result = self._match_one(category, candidate_name, vendor, memory_gb, power_w)
            if result.part is not None:
                found.append((candidate_name, result))
        if not found:
            key = name_key(name)
            why = ("not in the catalog: the name has no model number to look up"
                   if not key.usable else "not in the catalog under this name")
            return NameMatch(None, MatchMethod.NONE, 0.0, why)
        best_name, best = found[0]
        distinct = {r.part.id for _, r in found if r.part is not None}
        if len(distinct) > 1:
            others = tuple(sorted(distinct - {best.part.id})) if best.part else ()
            return NameMatch(best.part, best.method, min(best.confidence, 0.5),
                             f"the system names it '{' or '.join(names)}'; took "
                             f"{best_name}", others + best.alternatives)
        return best

    def _match_one(self, category: Category, name: str, vendor: str,
                   memory_gb: float | None, power_w: float | None) -> NameMatch:
        detected = name_key(name)
        if not detected.usable:
            return _NO_MATCH
        wanted_vendor = vendor_key(vendor) if vendor else ""
        entries = self._entries(category)
        candidates = [e for e in entries if _compatible(detected, e, wanted_vendor)]
        if not candidates:
            return _NO_MATCH
        exact = _exact_names(name, vendor)
        memory = memory_gb if memory_gb else detected.memory_gb
        reasons: list[str] = []
        method = MatchMethod.NORMALISED
        confidence = 0.9
        pool = candidates
        if memory and len(pool) > 1:
            fitting = [e for e in pool if e.memory_gb and _close(memory, e.memory_gb, 0.1)]
            if fitting and len(fitting) < len(pool):
                pool = fitting
                method, confidence = MatchMethod.MEMORY, 0.85
                told = "in its name" if not memory_gb else "reported"
                reasons.append(f"{_gb(memory)} of memory ({told}) tells it from the "
                               + ", ".join(sorted({_gb(e.memory_gb) for e in candidates
                                                   if e not in fitting and e.memory_gb}))
                               + " variants")
        exact_pool = [e for e in pool if _norm(e.part.name) in exact
                      or _norm(e.part.display_name) in exact]
        if len(exact_pool) == 1 and (len(pool) == 1 or method is MatchMethod.NORMALISED):
            chosen = exact_pool[0]
            if method is MatchMethod.NORMALISED:
                method, confidence = MatchMethod.EXACT, 1.0
                reasons.insert(0, "same name as the catalog's")
            pool = [chosen]
        if len(pool) > 1 and power_w:
            by_power = [e for e in pool if (e.part.number("tdp_w") or 0) > 0
                        and _close(power_w, e.part.number("tdp_w") or 0, 0.15)]
            if by_power and len(by_power) < len(pool):
                reasons.append(f"its {power_w:g} W power limit fits "
                               + ", ".join(e.part.name for e in by_power))
                pool = by_power
                confidence -= 0.1
        if len(pool) > 1 and detected.form is None and wanted_vendor == "nvidia":
            # nvidia-smi names data-centre PCIe cards "... PCIe"; no form word means SXM.
            sxm = [e for e in pool if e.form == "sxm"]
            if sxm and len(sxm) < len(pool):
                reasons.append("no 'PCIe' in NVIDIA's name means the SXM module")
                pool = sxm
                confidence -= 0.2
        if len(pool) > 1:
            # Prefer the plainest variant: fewest words the machine did not report.
            pool = sorted(pool, key=lambda e: (len(set(e.key.tokens) - set(detected.tokens)),
                                               e.part.name))
            confidence = min(confidence, 0.6)
            reasons.append(f"{len(pool)} catalog variants fit equally; took the plainest")
        chosen = pool[0]
        if method is MatchMethod.NORMALISED and not reasons:
            reasons.append("same model once brand words and spelling are set aside")
        if memory and chosen.memory_gb and not _close(memory, chosen.memory_gb, 0.15):
            confidence = min(confidence, 0.6)
            reasons.append(f"but {_gb(memory)} detected where the catalog says "
                           f"{_gb(chosen.memory_gb)}")
        others = tuple(e.part.id for e in pool[1:])
        return NameMatch(chosen.part, method, round(confidence, 2), "; ".join(reasons), others)

    def suggestions(self, category: Category, name: str, limit: int = 3) -> tuple[str, ...]:
        """Catalog ids sharing a model number with ``name``: places to start by hand."""
        key = name_key(name)
        if not key.usable:
            return ()
        scored = []
        for entry in self._entries(category):
            shared = len(key.models & entry.key.models)
            if shared:
                scored.append((-shared, len(entry.key.tokens), entry.part.id))
        return tuple(i for _, _, i in sorted(scored)[:limit])


def _compatible(detected: NameKey, entry: _Entry, vendor: str) -> bool:
    if not entry.key.usable or detected.models != entry.key.models:
        return False
    if detected.words != entry.key.words:
        return False
    if detected.form and entry.form and detected.form != entry.form:
        return False
    # Memory (in the name or reported) is not a name difference: it narrows variants
    # afterwards, so the record can say it did.
    return not (vendor and entry.vendor and vendor in ("nvidia", "amd", "intel")
                and entry.vendor in ("nvidia", "amd", "intel") and vendor != entry.vendor)


def _exact_names(name: str, vendor: str) -> set[str]:
    base = _norm(name)
    names = {base}
    if vendor and base.startswith(_norm(vendor) + " "):
        names.add(base[len(_norm(vendor)) + 1:])
    return names


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _close(a: float, b: float, tolerance: float) -> bool:
    return b > 0 and abs(a - b) / b <= tolerance


def _gb(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:g} GB" if value >= 10 or value.is_integer() else f"{value:.1f} GB"
