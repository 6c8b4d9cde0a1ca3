"""``dlhw price``: the buyer's price book (set, list, remove, rate, import, export).

A price the user sets wins over the catalog's wherever a part is resolved (build files,
``dlhw check``, ``dlhw fit --build``, ``dlhw export``, the planner). ``price import`` shows
what it would do and saves nothing until ``--apply``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dlhw_desktop.commands.common import (
    add_force,
    bounded_int,
    checked_output,
    open_catalog,
    print_json,
    warn_lines,
)
from dlhw_desktop.core.errors import DlhwError


def register(sub: argparse._SubParsersAction) -> None:
    price = sub.add_parser("price", help="your own prices: quotes and price lists")
    actions = price.add_subparsers(dest="price_command", metavar="ACTION", required=True)

    set_ = actions.add_parser("set", help="set your price for a part or network gear")
    set_.add_argument("id", help="part id, e.g. accelerator/nvidia-geforce-rtx-4090, or a "
                                 "network item a cluster counts: switch:qm9700, cable:400, "
                                 "transceiver:400 (dlhw cluster prints the keys it reads)")
    set_.add_argument("amount", help="price, e.g. 1799 or 1.799,00")
    set_.add_argument("--currency", default="USD", help="ISO code (default USD)")
    set_.add_argument("--date", default=None, help="the date the price held (default today)")
    set_.add_argument("--note", default="", help='e.g. "quote from ACME, valid 30 days"')
    set_.set_defaults(func=cmd_set)

    list_ = actions.add_parser("list", help="your prices, with the catalog's beside them")
    list_.add_argument("--json", action="store_true", help="print JSON")
    list_.set_defaults(func=cmd_list)

    remove = actions.add_parser("remove", help="forget your price for a part")
    remove.add_argument("id")
    remove.set_defaults(func=cmd_remove)

    rate = actions.add_parser("rate", help="set a currency's rate: US dollars per unit")
    rate.add_argument("currency", help="ISO code, e.g. EUR")
    rate.add_argument("usd_per_unit", help="e.g. 1.08 (1 EUR = 1.08 USD)")
    rate.add_argument("--date", default=None, help="the date of the rate (default today)")
    rate.set_defaults(func=cmd_rate)

    currency = actions.add_parser(
        "currency", help="the currency totals are shown in (sheets, shared builds, the app)")
    currency.add_argument("code", nargs="?", default=None,
                          help="ISO code, e.g. EUR (USD for dollars); omit to show it")
    currency.set_defaults(func=cmd_currency)

    export = actions.add_parser("export", help="write your prices as CSV")
    export.add_argument("-o", "--output", type=Path, default=None,
                        help="file to write (default: standard output)")
    add_force(export)
    export.set_defaults(func=cmd_export)

    imp = actions.add_parser(
        "import", help="import a quote or price list (CSV); preview first, --apply to save")
    imp.add_argument("file", type=Path)
    imp.add_argument("--column", action="append", default=[], metavar="FIELD=HEADER",
                     help="map a column, e.g. --column price=\"Unit Price\" (fields: "
                          "part_id, part_number, name, price, currency, date, vendor, note)")
    imp.add_argument("--currency", default=None, metavar="CODE",
                     help="the currency of prices whose cell, row and column name none "
                          "(e.g. EUR); without it the file's own word counts, else USD")
    imp.add_argument("--header-row", type=bounded_int(1), default=None, metavar="LINE",
                     help="the file line of the header row, when a letterhead hides it")
    imp.add_argument("--build", type=Path, default=None, metavar="FILE",
                     help="a saved build: a line that could be several parts prices the "
                          "one in it")
    imp.add_argument("--apply", action="store_true",
                     help="save the matched rows (nothing is saved without it)")
    imp.add_argument("--json", action="store_true", help="print the preview as JSON")
    imp.set_defaults(func=cmd_import)


def _book():
    from dlhw_desktop.catalog.price_store import PriceBook

    return PriceBook()


def cmd_set(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.cluster.gear import gear_items, is_gear_key
    from dlhw_desktop.core.prices.book import user_price

    if is_gear_key(args.id):  # a switch, cable or transceiver a cluster plan counts
        price = user_price(args.id, args.amount, args.currency, args.date, args.note)
        _book().save([price])
        print(f"{gear_items()[args.id]}: {price.amount:,.2f} {price.currency}, your quote of "
              f"{price.price_date} (used by dlhw cluster and the Cluster tab)")
        return 0
    catalog = open_catalog(args)
    part = catalog.get(args.id)
    price = user_price(part.id, args.amount, args.currency, args.date, args.note)
    book = _book()
    book.save([price])
    shown = book.apply(part)
    usd = ("" if price.currency == "USD" else
           f" = ${shown.price_usd:,.2f}" if shown.price_usd is not None else
           f" (set a rate: dlhw price rate {price.currency} USD_PER_UNIT)")
    print(f"{part.display_name}: {price.amount:,.2f} {price.currency}{usd}, your quote of "
          f"{price.price_date}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.cluster.gear import gear_items

    catalog = open_catalog(args)
    book = _book()
    gear = gear_items()
    rows = []
    prices = book.prices()
    warn_lines(book.problems())  # rows of the wrong type: named, left out, said
    for price in prices:
        part = None if price.part_id in gear else catalog.find(price.part_id)
        shown = book.apply(part) if part else None
        rows.append({
            "part_id": price.part_id,
            "name": part.display_name if part else gear.get(price.part_id),
            "amount": price.amount, "currency": price.currency,
            "price_usd": shown.price_usd if shown else None, "price_date": price.price_date,
            "note": price.note, "source": price.source,
            "catalog_price_usd": part.price_usd if part else None,
            "catalog_price_kind": part.price_kind if part else None,
            "catalog_price_date": part.price_date if part else None,
        })
    if args.json:
        print_json({"prices": rows,
                    "rates": [vars_rate(r) for r in book.rates().values()]})
        return 0
    if not rows:
        print("your price book is empty: dlhw price set ID AMOUNT, or dlhw price import "
              "FILE.csv", file=sys.stderr)
        return 0
    for row in rows:
        catalog_text = (f"catalog ${row['catalog_price_usd']:,.0f} {row['catalog_price_kind']} "
                        f"{row['catalog_price_date']}" if row["catalog_price_usd"] is not None
                        else "catalog: no price")
        note = f"  {row['note']}" if row["note"] else ""
        print(f"{row['part_id']}  {row['amount']:,.2f} {row['currency']}  "
              f"{row['price_date']}  [{catalog_text}]{note}")
    for rate in book.rates().values():
        print(f"rate: 1 {rate.currency} = {rate.usd_per_unit} USD ({rate.rate_date})")
    return 0


def vars_rate(rate) -> dict[str, object]:
    return {"currency": rate.currency, "usd_per_unit": rate.usd_per_unit,
            "rate_date": rate.rate_date}


def cmd_remove(args: argparse.Namespace) -> int:
    if not _book().remove(args.id):
        raise DlhwError(f"your price book has no price for {args.id}")
    print(f"removed your price for {args.id}")
    return 0


def cmd_rate(args: argparse.Namespace) -> int:

    rate = _book().set_rate(args.currency, args.usd_per_unit, args.date)
    print(f"1 {rate.currency} = {rate.usd_per_unit} USD ({rate.rate_date})")
    return 0


def cmd_currency(args: argparse.Namespace) -> int:
    book = _book()
    chosen = book.set_display_currency(args.code) if args.code else book.display_currency()
    if chosen.converts:
        print(f"totals in {chosen.code}, {chosen.basis()}")
    elif chosen.missing_rate:
        print(f"totals in {chosen.code} once you set its rate; until then {chosen.basis()}")
    else:
        print("totals in US dollars")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.files.atomic import write_atomic
    from dlhw_desktop.core.prices.book_csv import contents_csv

    if args.output is not None:  # before reading: never over the book it exports
        checked_output(args, args.output)
    book = _book()
    contents = book.contents()
    prices = contents.prices
    warn_lines(book.problems())
    text = contents_csv(contents)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(args.output, text.encode("utf-8"))
    except OSError as exc:
        raise DlhwError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {len(prices)} prices, {len(contents.rates)} rates and the display "
          f"currency ({contents.display_currency}) to {args.output}")
    return 0


def _progress_line():
    """On a terminal, "reading rows: 5,000 of 10,000" on one line while a big list is read;
    nothing when the output goes to a file or a pipe."""
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total >= 2000:
            end = "\n" if done == total else ""
            print(f"\rreading rows: {done:,} of {total:,}", end=end, file=sys.stderr,
                  flush=True)
    return show


def _build_part_ids(path: Path, catalog) -> set[str]:
    """The part ids of a saved build (its warnings go to stderr)."""
    from dlhw_desktop.core.build import buildfile

    loaded = buildfile.load(path, catalog.find)
    warn_lines(loaded.warnings)
    return {item.part_id for item in loaded.build}


def read_price_list(path: Path) -> bytes:
    """A price list's bytes: a regular file of at most ``MAX_PRICE_LIST_BYTES`` (a FIFO,
    a device or a 1 GB file is one line, not a hang)."""
    from dlhw_desktop.core.files.reading import read_bounded
    from dlhw_desktop.core.limits import MAX_PRICE_LIST_BYTES

    return read_bounded(path, MAX_PRICE_LIST_BYTES)


def cmd_import(args: argparse.Namespace) -> int:
    from dlhw_desktop.core.cluster.gear import gear_items
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.core.prices.price_list import PartIndex, preview_import

    overrides: dict[str, str] = {}
    for item in args.column:
        field, sep, header = item.partition("=")
        if not sep or not field.strip() or not header.strip():
            raise DlhwError(f"--column {item!r}: use FIELD=HEADER, e.g. price=\"Unit Price\"")
        overrides[field.strip()] = header.strip()
    data = read_price_list(args.file)
    catalog = open_catalog(args)
    # A price list prices what one buys: cloud offers keep their own rates.
    parts = PartIndex(catalog.part_names(leave_out=[Category.CLOUD]), catalog.aliases())
    book = _book()
    rates = book.rates()
    build = _build_part_ids(args.build, catalog) if args.build else set()
    preview = preview_import(data, parts, overrides, progress=_progress_line(),
                             currency=args.currency, header_line=args.header_row,
                             rates=rates, build=build, other_names=gear_items())
    saved = book.save_import(preview) if args.apply else 0
    if args.json:
        print_json({
            "file": str(args.file), "encoding": preview.encoding,
            "delimiter": preview.delimiter, "columns": preview.columns,
            "header_line": preview.header_line, "currency": preview.currency,
            "currency_basis": preview.currency_basis,
            "in_build": {str(line): [c.id for c in cands]
                         for line, cands in preview.in_build.items()},
            "book": None if preview.book is None else {
                "rates": [vars_rate(r) for r in preview.book.rates],
                "display_currency": preview.book.display_currency},
            "matched": [{"line": r.line, "part_id": p.part_id, "amount": p.amount,
                         "currency": p.currency, "price_date": p.price_date}
                        for r, p, _ in preview.matched],
            "ambiguous": [{"line": r.line, "candidates": [c.id for c in cands]}
                          for r, cands in preview.ambiguous],
            "unmatched": [{"line": r.line, "values": r.values} for r in preview.unmatched],
            "errors": [{"line": line, "message": msg} for line, msg in preview.errors],
            "skipped": [{"line": line, "reason": why} for line, why in preview.skipped],
            "saved": saved,
        })
        return 0
    print(f"{args.file}: read as {preview.encoding}, separated by {preview.delimiter!r}; "
          f"header on line {preview.header_line:,}; columns "
          f"{', '.join(f'{k}={v!r}' for k, v in preview.columns.items())}")
    print(f"prices without a currency of their own: {preview.currency_basis}")
    for row, price, part in preview.matched:
        chosen = preview.in_build.get(row.line)
        why = (f"  [the part in your build; could also be "
               f"{', '.join(c.id for c in chosen[1:4])}]" if chosen else "")
        print(f"  line {row.line}: match   {part.id}  {price.amount:,.2f} {price.currency} "
              f"({price.price_date}){why}")
    for row, candidates in preview.ambiguous:
        names = ", ".join(c.id for c in candidates[:5])
        more = f" and {len(candidates) - 5} more" if len(candidates) > 5 else ""
        print(f"  line {row.line}: ambiguous, could be {names}{more}")
    for row in preview.unmatched:
        label = " / ".join(v for v in row.values.values() if v)[:80]
        print(f"  line {row.line}: no match for {label!r}")
    for line, message in preview.errors:
        print(f"  line {line}: error: {message}")
    for line, reason in preview.skipped:
        print(f"  line {line}: left out: {reason}")
    print(preview.summary())
    if preview.book is not None:
        print(f"an export of a price book: {len(preview.book.rates)} rates, display "
              f"currency {preview.book.display_currency or 'not given'}")
    if args.apply:
        print(f"saved {saved} prices to your price book")
    else:
        print("nothing saved: run again with --apply to save the matched rows")
    return 0
