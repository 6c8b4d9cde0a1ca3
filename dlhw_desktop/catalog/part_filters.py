"""The picker's compatibility rules (``core.compat_filter``) as a WHERE clause.

A ``ValueRule`` is asked once per distinct value of its fields in the category (a few
hundred at most, read once per catalog: the file is immutable); the values it rejects are
filtered out with ``NOT IN (SELECT value FROM json_each(?))`` on a key SQLite builds
itself (``quote(a) || char(31) || quote(b)``), so Python never has to reproduce SQLite's
text forms. A ``LimitRule`` is a plain comparison that lets an unknown (NULL) through.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from dlhw_desktop.core.compat_filter import CompatFilter, LimitRule, ValueRule
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

Cell = Callable[[str, Any], Any]
DistinctCache = dict[tuple[str, tuple[str, ...]], list[tuple[str, dict[str, Any]]]]


def _column(name: str) -> str:
    if name not in FIELDS_BY_NAME:
        raise ValueError(f"unknown field {name!r}")
    return name


def key_sql(fields: tuple[str, ...]) -> str:
    """The SQL expression that keys a row by ``fields`` (never NULL)."""
    return " || char(31) || ".join(f"quote({_column(f)})" for f in fields)


def distinct_values(conn: sqlite3.Connection, cache: DistinctCache, category: Category,
                    fields: tuple[str, ...], cell: Cell
                    ) -> list[tuple[str, dict[str, Any]]]:
    """Each distinct combination of ``fields`` in ``category``: (SQL key, values as a Part
    holds them)."""
    found = cache.get((category.value, fields))
    if found is None:
        columns = ", ".join(_column(f) for f in fields)
        rows = conn.execute(
            f"SELECT DISTINCT {key_sql(fields)}, {columns} FROM parts WHERE category = ?",
            (category.value,)).fetchall()
        found = [(str(r[0]), {f: cell(FIELDS_BY_NAME[f].kind, r[i + 1])
                              for i, f in enumerate(fields)}) for r in rows]
        cache[(category.value, fields)] = found
    return found


def compat_where(conn: sqlite3.Connection, cache: DistinctCache, compat: CompatFilter,
                 cell: Cell) -> tuple[list[str], list[Any]]:
    """Clauses (ANDed) and their parameters that keep the parts ``compat`` does not rule
    out; parts with unknown figures stay."""
    clauses: list[str] = []
    params: list[Any] = []
    for rule in compat.rules:
        if isinstance(rule, LimitRule):
            column = _column(rule.field)
            op = "<=" if rule.op == "le" else ">="
            clauses.append(f"({column} IS NULL OR {column} {op} ?)")
            params.append(rule.limit)
        elif isinstance(rule, ValueRule):
            rejected = [key for key, values in distinct_values(
                conn, cache, compat.category, rule.fields, cell)
                if rule.judge(values).status == "incompatible"]
            if rejected:
                clauses.append(f"{key_sql(rule.fields)} NOT IN "
                               "(SELECT value FROM json_each(?))")
                params.append(json.dumps(rejected))
    return clauses, params
