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
