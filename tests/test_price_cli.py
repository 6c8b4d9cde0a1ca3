"""``dlhw price``: set, list, rate, export, and an import that saves nothing until --apply;
the user's price wins where a build is checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver
from dlhw_desktop.cli import main

RTX = "accelerator/nvidia-geforce-rtx-4090"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_set_list_and_export(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "price", "set", RTX, "1.799,00", "--currency", "EUR",
                       "--date", "2026-11-20", "--note", "quote from ACME")
    assert code == 0 and "1,799.00 EUR" in out and "set a rate" in out
    assert run(capsys, "price", "rate", "EUR", "1.08")[0] == 0
    code, out, _ = run(capsys, "price", "list", "--json")
    row = json.loads(out)["prices"][0]
    assert row["part_id"] == RTX and row["price_usd"] == pytest.approx(1942.92)
    assert row["catalog_price_kind"] == "list" and row["note"] == "quote from ACME"
    target = tmp_path / "book.csv"
    assert run(capsys, "price", "export", "-o", str(target))[0] == 0
    assert target.read_text().splitlines()[1].startswith(f"{RTX},1799.00,EUR,2026-11-20")
    code, _, err = run(capsys, "price", "export", "-o", str(target))
    assert code != 0 and "--force" in err  # an existing file is never replaced unasked
    target.write_text("keep me")
    assert run(capsys, "price", "export", "-o", str(target))[0] != 0
    assert target.read_text() == "keep me"
    assert run(capsys, "price", "export", "-o", str(target), "--force")[0] == 0
    assert target.read_text().startswith("part_id,price,currency")


@pytest.mark.parametrize(("args", "message"), [
    (("price", "set", RTX, "0"), "above zero"),
    (("price", "set", RTX, "-3"), "above zero"),
    (("price", "set", RTX, "12abc"), "is not a price"),
    (("price", "set", RTX, "10", "--currency", "ZZZ"), "unknown currency"),
    (("price", "set", "accelerator/no-such-gpu", "10"), "no-such-gpu"),
    (("price", "remove", RTX), "has no price"),
    (("price", "import", "/no/such/file.csv"), "cannot open file.csv"),
])
def test_bad_input_is_one_line_and_saves_nothing(capsys: pytest.CaptureFixture[str],
                                                 args: tuple[str, ...], message: str) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert PriceBook().prices() == []


def test_import_previews_then_applies(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    quote = tmp_path / "quote.csv"
    quote.write_bytes("Mfr. Part #;Description;Unit Price;Currency\n"
                      ";GeForce RTX 4090;1.650,00;USD\n"
                      ";Mystery Widget;10;USD\n"
                      ";RTX 4090;12;USD\n".encode("cp1252"))
    code, out, _ = run(capsys, "price", "import", str(quote))
    assert code == 0 and "1 matched, 1 ambiguous, 1 unmatched, 0 with errors" in out
    assert "nothing saved" in out and PriceBook().prices() == []
    code, out, _ = run(capsys, "price", "import", str(quote), "--apply", "--json")
    data = json.loads(out)
    assert data["saved"] == 1 and data["delimiter"] == ";"
    assert [p.amount for p in PriceBook().prices()] == [1650.0]


def test_the_users_price_wins_when_a_part_is_resolved(capsys: pytest.CaptureFixture[str],
                                                      catalog: Catalog) -> None:
    assert run(capsys, "price", "set", RTX, "1500", "--date", "2026-11-20")[0] == 0
    part = PartResolver(catalog).get(RTX)
    assert part.price_usd == 1500.0 and part.price_kind == "user_quote"
    assert catalog.get(RTX).price_usd == 1599.0  # the catalog itself is untouched


@pytest.mark.parametrize("key", ["single-rtx-4090", "four-gpu-workstation", "eight-gpu-server",
                                 "demanding-recommended"])
def test_a_price_list_of_the_missing_parts_completes_a_templates_total(
        capsys: pytest.CaptureFixture[str], catalog: Catalog, tmp_path: Path, key: str) -> None:
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.build.templates import template
    from dlhw_desktop.core.checks import summarize

    tpl = template(key)
    document = {"format": buildfile.FORMAT, "version": buildfile.VERSION, "name": tpl.name,
                "parts": [{"id": i, "quantity": q} for i, q in tpl.parts]}
    before = summarize(buildfile.from_dict(document, PartResolver(catalog)).build)
    missing = [i for i, _ in tpl.parts if catalog.get(i).price_usd is None]
    assert before.unknown_price_parts == len(set(missing))
    quote = tmp_path / "quote.csv"
    quote.write_text("part_id,price,currency,date,vendor\n" + "".join(
        f"{i},{100 + n},USD,2026-11-20,ACME\n" for n, i in enumerate(dict.fromkeys(missing))))
    code, out, _ = run(capsys, "price", "import", str(quote), "--apply")
    assert code == 0 and f"saved {len(set(missing))} prices" in out
    after = summarize(buildfile.from_dict(document, PartResolver(catalog)).build)
    assert after.unknown_price_parts == 0 and after.price_usd is not None


def test_a_shared_build_totals_in_the_chosen_currency_with_its_rate(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    build = tmp_path / "one.dlhw.json"
    build.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "one",
                                 "parts": [{"id": RTX, "quantity": 1}]}), encoding="utf-8")
    assert run(capsys, "price", "currency", "EUR")[0] == 0
    code, out, _ = run(capsys, "share", str(build), "--format", "text")
    assert code == 0 and "Total: $1,599 (in US dollars: no EUR rate set" in out
    assert run(capsys, "price", "rate", "EUR", "1.25", "--date", "2026-11-20")[0] == 0
    code, out, _ = run(capsys, "price", "currency")
    assert "at 0.8 EUR/USD set 2026-11-20" in out
    code, out, _ = run(capsys, "share", str(build), "--format", "text")
    assert "Total: €1,279 (at 0.8 EUR/USD set 2026-11-20)" in out
    assert "$1,599" in out  # the part's own line keeps its dated dollar list price


def test_import_of_a_resellers_quote_with_currency_header_row_and_build(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    chip = "accelerator/nvidia-rtx-6000-ada-generation"
    psu = "psu/corsair-rm1000x-2024-black-atx-1000w-fully-modular"
    quote = tmp_path / "angebot.csv"
    quote.write_text("ACME GmbH\nAngebot 2026-1142;;\n\nArt.-Nr.;Bezeichnung;Einzelpreis\n"
                     "CP-9020271-EU;Netzteil;189,90\n;RTX 6000 Ada;6.899,00\n",
                     encoding="utf-8")
    build = tmp_path / "ws.dlhw.json"
    build.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "ws",
                                 "parts": [{"id": chip, "quantity": 2}]}), encoding="utf-8")
    code, out, _ = run(capsys, "price", "import", str(quote), "--apply")
    assert code == 0 and out.count("error: the file names no currency") == 2  # German: none
    assert PriceBook().prices() == []
    code, out, _ = run(capsys, "price", "import", str(quote), "--currency", "EUR", "--apply")
    assert code == 0 and out.count("no EUR rate") == 2 and PriceBook().prices() == []
    assert run(capsys, "price", "rate", "EUR", "1.08")[0] == 0
    code, out, _ = run(capsys, "price", "import", str(quote), "--currency", "EUR",
                       "--header-row", "4", "--build", str(build), "--apply", "--json")
    data = json.loads(out)
    assert data["header_line"] == 4 and data["in_build"] == {"6": [
        chip, "accelerator/pny-nvidia-rtx-6000-ada-generation-48gb-gddr6"]}
    assert {p.part_id: (p.amount, p.currency) for p in PriceBook().prices()} == {
        psu: (189.9, "EUR"), chip: (6899.0, "EUR")}
    code, _, err = run(capsys, "price", "import", str(quote), "--header-row", "2")
    assert code == 2 and "header row you chose has no price column" in err
