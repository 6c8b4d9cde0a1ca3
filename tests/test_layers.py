"""House rules import-linter cannot see: no Qt SQL module, no SQL text outside catalog/."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dlhw_desktop"
SQL = re.compile(r"\b(SELECT\s+[\w*, ]+\s+FROM|INSERT\s+INTO|CREATE\s+TABLE|UPDATE\s+\w+\s+SET)\b")


def test_no_sql_outside_catalog() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if "catalog" in path.relative_to(PACKAGE).parts[:1]:
            continue
        text = path.read_text(encoding="utf-8")
        if "QtSql" in text or SQL.search(text):
            offenders.append(str(path.relative_to(PACKAGE)))
    assert offenders == []


def test_no_module_over_500_lines() -> None:
    """A module past 500 lines holds more than one idea: split it along its seams."""
    limit = 500
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        with path.open(encoding="utf-8") as handle:
            count = sum(1 for _ in handle)
        if count > limit:
            offenders.append(f"{path.relative_to(PACKAGE)}: {count} lines")
    assert offenders == [], f"modules over {limit} lines: {offenders}"
