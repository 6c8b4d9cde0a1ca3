"""How much of "what DL buyers price" the catalog prices.

The list lives in ``resources/catalog/README.md`` between ``<!-- dl-priced:start -->`` and
``<!-- dl-priced:end -->``: one table row per group, each part as a backticked id. GPU
server platforms are not listed: every platform in the catalog that is not a unified-memory
system counts. ``scripts/dl_price_coverage.py`` prints the coverage and rewrites the
coverage table (``<!-- dl-price-coverage:start/end -->``) from a built catalog;
``tests/catalog/test_price_coverage.py`` checks the table matches the catalog.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

LIST_START, LIST_END = "<!-- dl-priced:start -->", "<!-- dl-priced:end -->"
TABLE_START, TABLE_END = "<!-- dl-price-coverage:start -->", "<!-- dl-price-coverage:end -->"
SERVERS = "GPU server platforms (every one in the catalog)"
_ROW = re.compile(r"^\|\s*([^|`]+?)\s*\|(.*)\|\s*$")
_ID = re.compile(r"`([a-z]+/[a-z0-9-]+)`")


@dataclass(frozen=True, slots=True)
class GroupCoverage:
    group: str
    ids: tuple[str, ...]
    priced: tuple[str, ...]
    missing: tuple[str, ...]
    """Listed ids the catalog does not hold (a typo, or a part merged away)."""

    @property
    def share(self) -> float:
        known = len(self.ids) - len(self.missing)
        return len(self.priced) / known if known else 0.0


def read_list(readme: Path) -> dict[str, tuple[str, ...]]:
    """Group -> the part ids listed for it, in README order."""
    text = readme.read_text(encoding="utf-8")
    block = text[text.index(LIST_START) + len(LIST_START):text.index(LIST_END)]
    groups: dict[str, tuple[str, ...]] = {}
    for line in block.splitlines():
        match = _ROW.match(line.strip())
        if match and _ID.search(match.group(2)):
            groups[match.group(1)] = tuple(_ID.findall(match.group(2)))
    return groups


def coverage(catalog: Path, readme: Path) -> list[GroupCoverage]:
    conn = sqlite3.connect(f"{catalog.resolve().as_uri()}?mode=ro", uri=True)
    try:
        priced = {r[0] for r in conn.execute(
            "SELECT id FROM parts WHERE price_usd IS NOT NULL AND price_kind IS NOT NULL "
            "AND price_date IS NOT NULL")}
        known = {r[0] for r in conn.execute("SELECT id FROM parts")}
        servers = tuple(r[0] for r in conn.execute(
            "SELECT id FROM parts WHERE category = 'server' AND "
            "COALESCE(gpu_form_factor, '') != 'integrated' ORDER BY id"))
        aliases = dict(conn.execute("SELECT alias, part_id FROM part_aliases").fetchall())
    finally:
        conn.close()
    out = []
    for group, ids in [*read_list(readme).items(), (SERVERS, servers)]:
        resolved = tuple(aliases.get(i, i) for i in ids)
        out.append(GroupCoverage(group, resolved, tuple(i for i in resolved if i in priced),
                                 tuple(i for i in resolved if i not in known)))
    return out


def table(groups: list[GroupCoverage]) -> str:
    """The README's coverage table (markdown)."""
    lines = ["| Group | Listed | Priced (kind and date) | Share | Not priced |",
             "|---|---:|---:|---:|---|"]
    total = priced = 0
    for g in groups:
        unpriced = [i.split("/", 1)[1] for i in g.ids if i not in g.priced]
        lines.append(f"| {g.group} | {len(g.ids)} | {len(g.priced)} | {g.share:.0%} | "
                     f"{', '.join(unpriced) or '-'} |")
        total += len(g.ids) - len(g.missing)
        priced += len(g.priced)
    share = priced / total if total else 0.0
    lines.append(f"| **All** | {total} | {priced} | **{share:.0%}** | |")
    return "\n".join(lines)


def rewrite(readme: Path, groups: list[GroupCoverage]) -> bool:
    """Put the coverage table in the README; True if it changed."""
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(TABLE_START, 1)
    _old, tail = rest.split(TABLE_END, 1)
    new = f"{head}{TABLE_START}\n{table(groups)}\n{TABLE_END}{tail}"
    if new == text:
        return False
    readme.write_text(new, encoding="utf-8")
    return True
