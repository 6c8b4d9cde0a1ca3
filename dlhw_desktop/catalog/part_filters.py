"""The picker's compatibility rules (``core.compat_filter``) as a WHERE clause.

A category's parts are grouped once by the fields its rules read (``FIT_FIELDS``; a few
hundred groups, read once per catalog: the file is immutable). A ``ValueRule`` is asked
once per distinct value in those groups, and the values it rejects are filtered out in
SQL with ``NOT IN (SELECT value FROM json_each(?))`` (on the column itself, or for a rule
over several fields on a key SQLite builds, ``quote(a) || char(31) || quote(b)``). A
``LimitRule`` is a plain comparison that lets an unknown (NULL) through. Counting the
parts that fit, with no search text or filters, sums the groups the rules keep instead of
scanning the category again.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.compat.rules import FIT_FIELDS, CompatFilter, LimitRule, ValueRule
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

Cell = Callable[[str, Any], Any]
SEP = chr(31)


@dataclass(frozen=True, slots=True)
class Group:
    """Parts of a category that share the values of some fields."""

    raw: tuple[Any, ...]  # as stored
    quoted: tuple[str, ...]  # SQLite's quote() of each
    values: dict[str, Any]  # as a Part holds them
    count: int


GroupCache = dict[tuple[str, tuple[str, ...]], list[Group]]


def _column(name: str) -> str:
    if name not in FIELDS_BY_NAME:
        raise ValueError(f"unknown field {name!r}")
    return name


def key_sql(fields: tuple[str, ...]) -> str:
    """The SQL expression that keys a row by several ``fields`` (never NULL)."""
    return " || char(31) || ".join(f"quote({_column(f)})" for f in fields)


def groups(conn: sqlite3.Connection, cache: GroupCache, category: Category,
           fields: tuple[str, ...], cell: Cell) -> list[Group]:
    """The category's parts grouped by ``fields`` (cached: the catalog never changes)."""
    found = cache.get((category.value, fields))
    if found is None:
        columns = ", ".join(_column(f) for f in fields)
        quoted = ", ".join(f"quote({f})" for f in fields)
        rows = conn.execute(
            f"SELECT {columns}, {quoted}, count(*) FROM parts WHERE category = ? "
            f"GROUP BY {columns}", (category.value,)).fetchall()
        n = len(fields)
        found = [Group(tuple(r[:n]), tuple(str(q) for q in r[n:2 * n]),
                       {f: cell(FIELDS_BY_NAME[f].kind, r[i]) for i, f in enumerate(fields)},
                       int(r[2 * n])) for r in rows]
        cache[(category.value, fields)] = found
    return found


def _group_fields(compat: CompatFilter) -> tuple[str, ...]:
    """The category's fixed grouping when it covers the rules (one scan per category)."""
    used = compat.fields
    known = FIT_FIELDS.get(compat.category, ())
    return known if set(used) <= set(known) else used


def compat_where(conn: sqlite3.Connection, cache: GroupCache, compat: CompatFilter,
                 cell: Cell) -> tuple[list[str], list[Any]]:
    """Clauses (ANDed) and their parameters that keep the parts ``compat`` does not rule
    out; parts with unknown figures stay."""
    clauses: list[str] = []
    params: list[Any] = []
    fields = _group_fields(compat)
    for rule in compat.rules:
        if isinstance(rule, LimitRule):
            column = _column(rule.field)
            op = "<=" if rule.op == "le" else ">="
            clauses.append(f"({column} IS NULL OR {column} {op} ?)")
            params.append(rule.limit)
        elif isinstance(rule, ValueRule):
            positions = [fields.index(f) for f in rule.fields]
            rejected: dict[Any, None] = {}
            for group in groups(conn, cache, compat.category, fields, cell):
                values = {f: group.values[f] for f in rule.fields}
                if rule.judge(values).status != "incompatible":
                    continue
                if len(positions) == 1:
                    rejected[group.raw[positions[0]]] = None
                else:
                    rejected[SEP.join(group.quoted[p] for p in positions)] = None
            if not rejected:
                continue
            if len(positions) == 1:
                column = _column(rule.fields[0])
                clauses.append(f"({column} IS NULL OR {column} NOT IN "
                               "(SELECT value FROM json_each(?)))")
            else:
                clauses.append(f"{key_sql(rule.fields)} NOT IN "
                               "(SELECT value FROM json_each(?))")
            params.append(json.dumps(list(rejected)))
    return clauses, params


def compat_count(conn: sqlite3.Connection, cache: GroupCache, compat: CompatFilter,
                 cell: Cell) -> int:
    """How many of the category's parts ``compat`` keeps (no text or filters)."""
    fields = _group_fields(compat)
    return sum(g.count for g in groups(conn, cache, compat.category, fields, cell)
               if compat.judge_values(g.values).status != "incompatible")
