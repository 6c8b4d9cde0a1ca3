"""A build as people share it: Markdown (GitHub, Reddit), BBCode (forums) and plain text.

Made from the build sheet (``sheet_model.BuildSheet``), so the shared text says exactly
what the PDF says: the parts with quantities, each price with its date, the total (and
which parts have no price), the verdict with the checks that did not pass, the workload
fit and where the figures come from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dlhw_desktop.core.formatting import markdown_text
from dlhw_desktop.reports.sheet_model import BuildSheet, CheckRow, PartRow

FORMATS: dict[str, str] = {"markdown": "Markdown", "bbcode": "BBCode", "text": "Plain text"}

VERDICT_WORDS = {"pass": "Works", "warn": "Works, with warnings", "fail": "Does not work",
                 "unknown": "Not known yet: figures are missing"}
STATUS_MARKS = {"fail": "FAIL", "warn": "WARN", "unknown": "UNKNOWN", "pass": "PASS"}


def share_text(sheet: BuildSheet, fmt: str) -> str:
    """The build in ``fmt`` (a key of ``FORMATS``); raises ``ValueError`` for another."""
    writer = _WRITERS.get(fmt)
    if writer is None:
        raise ValueError(f"unknown share format {fmt!r} (known: {', '.join(FORMATS)})")
    return writer(sheet)


# --- what every format says -------------------------------------------------------------
def _price(part: PartRow) -> str:
    """The price with what kind it is and when it held (the sheet's note says both)."""
    if part.unit_price_usd is None and part.unit_price in ("n/a", ""):
        return "no price"
    if part.note:
        return f"{part.unit_price} ({part.note})"
    return f"{part.unit_price} (price of {part.price_date})" if part.price_date \
        else part.unit_price


def _verdict(sheet: BuildSheet) -> str:
    counts = ", ".join(f"{n} {STATUS_MARKS[s].lower()}" for s, n in sheet.verdict_counts
                       if n and s != "pass")
    word = VERDICT_WORDS.get(sheet.verdict, sheet.verdict)
    return f"{word} ({counts})" if counts else word


def _problems(sheet: BuildSheet) -> list[CheckRow]:
    order = {"fail": 0, "warn": 1, "unknown": 2}
    return sorted((c for c in sheet.checks if c.status != "pass"),
                  key=lambda c: order.get(c.status, 3))


def _total(sheet: BuildSheet) -> str:
    total = sheet.price_total
    unpriced = [p.name for p in sheet.parts if p.unit_price_usd is None
                and not p.note.startswith("rented")]
    text = f"{total.label}: {total.value}"
    basis = total.note.split("; ")[0]
    if basis.startswith(("at ", "in US dollars")):  # the currency and rate it was shown in
        text += f" ({basis})"
    if unpriced:
        text += f" — without a price: {', '.join(unpriced)}"
    return text


def _workload_lines(sheet: BuildSheet) -> list[str]:
    w = sheet.workload
    if w is None:
        return []
    if w.error:
        return [f"Workload {w.title}: {w.error}"]
    lines = [f"Workload: {w.title} — {VERDICT_WORDS.get(w.status, w.status).lower()}"]
    lines += [f"{f.label}: {f.value}" + (f" ({f.note})" if f.note else "")
              for f in w.estimates]
    return lines


def _footer(sheet: BuildSheet) -> str:
    return (f"Figures from the {sheet.app_name} catalog {sheet.catalog_version} (data as of "
            f"{sheet.data_date}); shared on {sheet.date}. Prices are dated list or quoted "
            "prices, not today's street prices.")


def _headline(sheet: BuildSheet) -> list[str]:
    return [f"{f.label}: {f.value}" + (f" ({f.note})" if f.note else "")
            for f in sheet.headline if f.key != "price"]


# --- Markdown -----------------------------------------------------------------------------
def _md(text: str) -> str:
    """Literal text: links, images, raw HTML and @mentions in a name do nothing."""
    return markdown_text(text)


def _markdown(sheet: BuildSheet) -> str:
    out = [f"## {_md(sheet.build_name)}", "", f"**{_md(_verdict(sheet))}**", ""]
    out += ["| Part | Qty | Price | Subtotal |", "|---|---:|---:|---:|"]
    for part in sheet.parts:
        out.append(f"| {_md(part.category)}: {_md(part.name)} | {part.quantity:,} | "
                   f"{_md(_price(part))} | {_md(part.subtotal)} |")
    out += ["", f"**{_md(_total(sheet))}**", ""]
    out += [f"- {_md(line)}" for line in _headline(sheet)]
    problems = _problems(sheet)
    if problems:
        out += ["", "**Checks that did not pass**", ""]
        for c in problems:
            out.append(f"- {STATUS_MARKS[c.status]} {_md(c.message)}")
            if c.basis:
                out.append(f"  - rests on: {_md(c.basis)}")
    if sheet.your_figures:
        out += ["", "**Figures entered from the box**", ""]
        out += [f"- {_md(line)}" for line in sheet.your_figures]
    workload = _workload_lines(sheet)
    if workload:
        out += ["", f"**{_md(workload[0])}**", ""] + [f"- {_md(x)}" for x in workload[1:]]
    return "\n".join([*out, "", f"*{_md(_footer(sheet))}*", ""])


# --- BBCode -------------------------------------------------------------------------------
def _bb(text: str) -> str:
    return text.replace("[", "(").replace("]", ")")


def _bbcode(sheet: BuildSheet) -> str:
    out = [f"[b][size=4]{_bb(sheet.build_name)}[/size][/b]", f"[b]{_bb(_verdict(sheet))}[/b]",
           "", "[list]"]
    for part in sheet.parts:
        out.append(f"[*]{part.quantity:,} × {_bb(part.category)}: [b]{_bb(part.name)}[/b] — "
                   f"{_bb(_price(part))}, subtotal {_bb(part.subtotal)}")
    out += ["[/list]", f"[b]{_bb(_total(sheet))}[/b]", ""]
    out += [_bb(line) for line in _headline(sheet)]
    problems = _problems(sheet)
    if problems:
        out += ["", "[b]Checks that did not pass[/b]", "[list]"]
        out += [f"[*]{STATUS_MARKS[c.status]} {_bb(c.message)}"
                + (f" [i](rests on: {_bb(c.basis)})[/i]" if c.basis else "")
                for c in problems]
        out.append("[/list]")
    if sheet.your_figures:
        out += ["", "[b]Figures entered from the box[/b]", "[list]"]
        out += [f"[*]{_bb(line)}" for line in sheet.your_figures]
        out.append("[/list]")
    workload = _workload_lines(sheet)
    if workload:
        out += ["", f"[b]{_bb(workload[0])}[/b]", *(_bb(x) for x in workload[1:])]
    return "\n".join([*out, "", f"[i]{_bb(_footer(sheet))}[/i]", ""])


# --- plain text ---------------------------------------------------------------------------
def _columns(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right,
                                                                           strict=True)).rstrip()
            for row in rows]


def _text(sheet: BuildSheet) -> str:
    title = sheet.build_name
    out = [title, "=" * len(title), _verdict(sheet), ""]
    rows = [("Part", "Qty", "Price", "Subtotal")]
    rows += [(f"{p.category}: {p.name}", f"{p.quantity:,}", _price(p), p.subtotal)
             for p in sheet.parts]
    out += _columns(rows, (False, True, True, True))
    out += ["", _total(sheet), ""]
    out += _headline(sheet)
    problems = _problems(sheet)
    if problems:
        out += ["", "Checks that did not pass:"]
        for c in problems:
            out.append(f"  {STATUS_MARKS[c.status]:<8}{c.message}")
            if c.basis:
                out.append(f"  {'':<8}rests on: {c.basis}")
    if sheet.your_figures:
        out += ["", "Figures entered from the box:"]
        out += [f"  {line}" for line in sheet.your_figures]
    workload = _workload_lines(sheet)
    if workload:
        out += ["", workload[0], *(f"  {x}" for x in workload[1:])]
    return "\n".join([*out, "", _footer(sheet), ""])


_WRITERS: dict[str, Callable[[BuildSheet], str]] = {
    "markdown": _markdown, "bbcode": _bbcode, "text": _text}
