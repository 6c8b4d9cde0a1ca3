"""The catalog's SQLite schema, derived from the field vocabulary in ``core.fields``."""

from __future__ import annotations

from dlhw_desktop.core.fields import ALL_FIELDS, FieldSpec

# Bump when the layout changes; the app refuses a catalog of another version.
SCHEMA_VERSION = 9  # 2: cpu_sockets, max_sockets; 3: parts_fts.category; 4: redundant;
#                    5: parts.price_kind and the prices table;
#                    6: the server category (GPU server platforms) and its fields;
#                    7: chip_id (board-partner cards), ecc_support, dimm_kinds,
#                       connectors_eps, psu_form_factor, pcie_slot_layout
#                    8: board_gpus, part_aliases, prices.amount_high
#                    9: pcie_x4_x8_slots

REQUIRED_TABLES = ("parts", "parts_fts", "figure_sources", "workload_tiers", "prices", "meta")

PRICE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("part_id", "TEXT NOT NULL REFERENCES parts(id)"),
    ("amount", "REAL NOT NULL"),
    ("currency", "TEXT NOT NULL"),
    ("price_kind", "TEXT NOT NULL"),
    ("price_date", "TEXT NOT NULL"),
    ("source", "TEXT NOT NULL"),
    ("source_date", "TEXT NOT NULL"),
    ("note", "TEXT NOT NULL DEFAULT ''"),
    ("amount_high", "REAL"),
)

_SQL_TYPES = {"text": "TEXT", "int": "INTEGER", "float": "REAL", "bool": "INTEGER"}

TIER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("tier", "TEXT NOT NULL"),
    ("component", "TEXT NOT NULL"),
    ("level", "TEXT NOT NULL"),
    ("description", "TEXT NOT NULL"),
    ("cores", "INTEGER"),
    ("threads", "INTEGER"),
    ("memory_gb", "REAL"),
    ("ram_gb", "REAL"),
    ("capacity_gb", "REAL"),
    ("storage_kind", "TEXT"),
    ("wattage_w", "INTEGER"),
    ("efficiency_rating", "TEXT"),
    ("example_part_names", "TEXT"),
    ("source", "TEXT NOT NULL"),
    ("source_date", "TEXT NOT NULL"),
)

# Indexed for the filters and sorts the Catalog tab offers on large catalogs. The figure
# indexes hold only the parts that have the figure (most of 26,000 parts have no price or
# TDP): a range filter (``price_usd <= ?``) implies it, and so does min/max.
INDEXED_COLUMNS = ("category, vendor", "category, price_usd",
                   "category, tdp_w", "category, memory_gb", "category, release_year")
_PARTIAL_FROM = 1  # the indexes from this one on are partial (WHERE <figure> IS NOT NULL)
# The short text figures the filters offer as choices. One index holds them all, so the
# distinct values of any of them within a category are read from the index alone: at
# 25,000 parts each such query was 70-100 ms reading every row of the category (three of
# them at start-up for the Accelerators' filters), 2-10 ms from this index (+4 % file size).
FACET_COLUMNS = ("accelerator_type", "form_factor", "market_segment", "socket", "memory_type",
                 "storage_kind", "efficiency_rating", "cooler_kind", "case_kind",
                 "board_form_factor", "chipset", "psu_form_factor", "provider",
                 "offering_kind", "gpu_form_factor", "system_cooling")
FACET_INDEX = "parts_facets"
# The default order (name, case-insensitive). A search that matches a large share of the
# catalog walks these in order and stops at the page size instead of sorting every match.
NAME_INDEX = "parts_by_name"
CATEGORY_NAME_INDEX = "parts_by_category_name"
CATEGORY_RELEVANCE_INDEX = "parts_by_category_relevance"
# Letters first, then names that open with a digit (mostly part numbers and bare series
# numbers: "0A65633 1TB HDD", "110-BQ-0600-K1 600 BQ"), then punctuation ("(PH-EC6…").
NAME_RANK = ("CASE WHEN name GLOB '[A-Za-z]*' THEN 0 WHEN name GLOB '[0-9]*' THEN 1 "
             "ELSE 2 END")
RELEVANCE_TERMS = ("release_year IS NULL, release_year DESC, price_usd IS NULL, "
                   f"{NAME_RANK}, name COLLATE NOCASE")
"""The default order's terms, written once: the index matches the ORDER BY only when
the expressions are the same text."""


def column_sql(spec: FieldSpec) -> str:
    constraint = ""
    if spec.name == "id":
        constraint = " PRIMARY KEY"
    elif spec.name in ("category", "vendor", "name", "source", "source_date"):
        constraint = " NOT NULL"
    return f"{spec.name} {_SQL_TYPES[spec.kind]}{constraint}"


def create_statements() -> list[str]:
    """DDL for an empty catalog (DELETE journal mode so it opens from read-only folders)."""
    columns = ",\n  ".join(column_sql(spec) for spec in ALL_FIELDS)
    tier_columns = ",\n  ".join(f"{name} {kind}" for name, kind in TIER_COLUMNS)
    statements = [
        f"CREATE TABLE parts (\n  {columns}\n)",
        "CREATE TABLE figure_sources (\n  part_id TEXT NOT NULL REFERENCES parts(id),\n"
        "  field TEXT NOT NULL,\n  source TEXT NOT NULL,\n  source_date TEXT NOT NULL,\n"
        "  note TEXT NOT NULL DEFAULT '',\n  PRIMARY KEY (part_id, field)\n)",
        f"CREATE TABLE workload_tiers (\n  {tier_columns},\n"
        "  PRIMARY KEY (tier, component, level)\n)",
        "CREATE TABLE prices (\n  " + ",\n  ".join(f"{n} {k}" for n, k in PRICE_COLUMNS)
        + ",\n  PRIMARY KEY (part_id, price_kind, price_date, currency)\n)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # A duplicate row the build merged into another: its id still finds the part.
        "CREATE TABLE part_aliases (alias TEXT PRIMARY KEY, part_id TEXT NOT NULL)",
        # Token-prefix search over names, vendors, families and notes; see catalog.search.
        # ``category`` lets a category's matches be counted in the index alone. The index
        # keeps no copy of the text (contentless: the text was a third of the file at
        # 26,000 parts; only rowids are read back), and no word positions (no phrase
        # queries are made).
        "CREATE VIRTUAL TABLE parts_fts USING fts5(search_text, category, "
        "content = '', detail = column, columnsize = 0, "
        "tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')",
    ]
    for i, cols in enumerate(INDEXED_COLUMNS):
        where = (f" WHERE {cols.split(', ')[-1]} IS NOT NULL" if i >= _PARTIAL_FROM else "")
        statements.append(f"CREATE INDEX parts_idx_{i} ON parts ({cols}){where}")
    statements.append(f"CREATE INDEX {FACET_INDEX} ON parts (category, "
                      f"{', '.join(FACET_COLUMNS)})")
    # Ties in name order go by rowid, which every index entry carries (parts are numbered
    # in id order), so the id need not be in these indexes.
    statements.append(f"CREATE INDEX {NAME_INDEX} ON parts (name COLLATE NOCASE)")
    statements.append(
        f"CREATE INDEX {CATEGORY_NAME_INDEX} ON parts (category, name COLLATE NOCASE)")
    # A category's default order (``part_query.RELEVANCE``), walked to the first page:
    # 0.1 ms instead of sorting the category (25-50 ms at 100,000 parts).
    statements.append(f"CREATE INDEX {CATEGORY_RELEVANCE_INDEX} ON parts (category, "
                      f"{RELEVANCE_TERMS})")
    return statements
