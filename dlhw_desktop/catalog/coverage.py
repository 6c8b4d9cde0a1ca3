"""How many recent parts carry every figure the build checks read (``dlhw catalog info
--coverage``).

The figures come from ``core.check_inputs`` (the declaration a test ties to the checks);
the counting is one SQL query per category. A text figure that is empty counts as missing,
as the checks read it; an input that does not apply to a part (a card's length to an SXM
module) is not asked of it; an input with stand-ins (a kit's capacity from its module count
and size) is present when they all are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.inputs import CHECK_INPUTS, CheckInput
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category

SINCE_YEAR = 2020


@dataclass(frozen=True, slots=True)
class CategoryCoverage:
    """One category: parts released since ``since_year`` and how many are complete."""

    category: Category
    inputs: tuple[str, ...]
    parts: int
    complete: int
    missing: dict[str, int] = field(default_factory=dict)
    """Per input field: recent parts lacking it, most often missing first."""
    undated: int = 0
    undated_complete: int = 0
    """Parts with no release year (not counted above), and how many of them are complete."""

    @property
    def share(self) -> float | None:
        """Complete / parts; ``None`` when the category has no recent part or no inputs."""
        if not self.parts or not self.inputs:
            return None
        return self.complete / self.parts


def _present(column: str) -> str:
    if FIELDS_BY_NAME[column].kind == "text":
        return f"({column} IS NOT NULL AND trim({column}) != '')"
    return f"({column} IS NOT NULL)"


def _missing_sql(spec: CheckInput) -> str:
    """1 when a part lacks the input (and it applies to the part), else 0."""
    lacking = f"NOT {_present(spec.field)}"
    if spec.or_else:
        lacking += " AND NOT (" + " AND ".join(_present(f) for f in spec.or_else) + ")"
    if spec.unless is not None:
        column, values = spec.unless
        FIELDS_BY_NAME[column]  # a vocabulary name: safe to put in the statement
        listed = ", ".join("'" + v.replace("'", "''") + "'" for v in sorted(values))
        lacking += (f" AND lower(coalesce(CAST({column} AS TEXT), '')) NOT IN ({listed})")
    return f"({lacking})"


def category_coverage(catalog: Catalog, category: Category,
                      since_year: int = SINCE_YEAR) -> CategoryCoverage:
    inputs = CHECK_INPUTS[category]
    missing = [_missing_sql(spec) for spec in inputs]
    incomplete = " OR ".join(missing) if missing else "0"
    columns = ", ".join(f"sum({m})" for m in missing)
    bucket = "CASE WHEN release_year IS NULL THEN 'undated' WHEN release_year >= ? " \
             "THEN 'recent' ELSE 'older' END"
    sql = (f"SELECT {bucket} AS bucket, count(*), sum(NOT ({incomplete}))"
           f"{', ' + columns if columns else ''} FROM parts WHERE category = ? GROUP BY bucket")
    rows = {r[0]: tuple(r[1:]) for r in catalog.run_query(sql, (since_year, category.value))}
    recent = rows.get("recent", (0, 0, *([0] * len(inputs))))
    undated = rows.get("undated", (0, 0))
    counts = {spec.field: int(n or 0) for spec, n in zip(inputs, recent[2:], strict=True)}
    ordered = dict(sorted(((k, v) for k, v in counts.items() if v),
                          key=lambda kv: (-kv[1], kv[0])))
    return CategoryCoverage(category, tuple(s.field for s in inputs), int(recent[0] or 0),
                            int(recent[1] or 0), ordered, int(undated[0] or 0),
                            int(undated[1] or 0))


def coverage(catalog: Catalog, since_year: int = SINCE_YEAR) -> list[CategoryCoverage]:
    """Every category, in the app's order."""
    return [category_coverage(catalog, c, since_year) for c in Category]


def overall_share(rows: list[CategoryCoverage]) -> float | None:
    """Complete / parts over the categories the checks read figures of."""
    checked = [r for r in rows if r.inputs]
    total = sum(r.parts for r in checked)
    return sum(r.complete for r in checked) / total if total else None
