"""What the catalog build's rules changed, and the source rows they refused to keep.

Each rule (``catalog.chip_rules``, ``catalog.part_rules``, the partner-card import) says
what it changed, one example per part; ``dlhw catalog build`` prints the count per rule and
the first examples. A source row that breaks a rule is reported with its file, id and rule
(``reported``), never silently kept or silently dropped.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from dlhw_desktop.core.errors import CatalogSourceError

RULES_DIR = "rules"
"""``resources/catalog/rules/``: the rules' own sourced data (export variants, multi-GPU
boards, maker names, accepted consistency exceptions)."""


@dataclass(slots=True)
class RuleLog:
    changed: dict[str, list[str]] = field(default_factory=dict)
    """rule -> one line per change (``part id: what``), in the order made."""
    reported: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(file, row id, rule, detail) of source rows a rule did not keep as given."""

    def change(self, rule: str, example: str) -> None:
        self.changed.setdefault(rule, []).append(example)

    def report(self, origin: str, row_id: str, rule: str, detail: str) -> None:
        self.reported.append((origin, row_id, rule, detail))

    def count(self, rule: str) -> int:
        return len(self.changed.get(rule, ()))

    def lines(self, examples: int = 2) -> list[str]:
        """``dlhw catalog build``'s summary: per rule, how many parts and the first
        examples; then how many source rows were reported."""
        if not self.changed and not self.reported:
            return []
        out = ["rules:"]
        for rule in sorted(self.changed):
            items = self.changed[rule]
            shown = "; ".join(items[:examples])
            more = f" (+{len(items) - examples} more)" if len(items) > examples else ""
            out.append(f"  {len(items):>5}  {rule}: e.g. {shown}{more}")
        if self.reported:
            out.append(f"  {len(self.reported)} source rows not kept as given "
                       "(-v or --report FILE lists each with its file, id and rule)")
        return out

    def report_lines(self) -> list[str]:
        return [f"{origin}: {row_id}: {rule}: {detail}"
                for origin, row_id, rule, detail in self.reported]


def read_rule_file(sources_dir: Path, name: str, columns: tuple[str, ...]
                   ) -> list[dict[str, str]]:
    """The rows of ``rules/<name>`` (an absent file is no rows); every row names its
    source and the date it was read."""
    path = sources_dir / RULES_DIR / name
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != columns:
            raise CatalogSourceError(f"{RULES_DIR}/{name}: columns must be {', '.join(columns)}")
        rows = []
        for line, record in enumerate(reader, start=2):
            cell = {k: (record.get(k) or "").strip() for k in columns}
            for needed in ("source", "source_date"):
                if needed in cell and not cell[needed]:
                    raise CatalogSourceError(f"{RULES_DIR}/{name}:{line}: {needed} is empty")
            cell["_origin"] = f"{RULES_DIR}/{name}:{line}"
            rows.append(cell)
    return rows
