"""A short attack run (issue #27's method) on what was added since: ``dlhw part
set/list/remove/fields``, ``dlhw fit``'s serving flags and ``dlhw price import``'s
--currency/--header-row/--build, plus price lists and book exports with absurd cells.

Each case runs ``dlhw`` in a fresh data folder, with a 10 s limit. It holds when the
command ends in time, prints no traceback, exits 0 or 2 (bad input: exit 2, one line),
and passes the case's own check (e.g. nothing saved, the value refused). Run:
``.venv/bin/python scripts/attack_run.py`` (prints one line per case and the counts).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
COOLER = "cooler/corsair-a115-air-165mm-84-5-cfm-black"
GPU = "accelerator/nvidia-geforce-rtx-4090"
PSU = "psu/corsair-rm1000x-2024-black-atx-1000w-fully-modular"
ABSURD = ["1e308", "nan", "inf", "-inf", "-5", "0", "9" * 5000, "1" * 2000 + ".5", "",
          " ", "abc", "１８０", "1e-308", "0x10", "1_000", "180 W", "²"]


@dataclass
class Result:
    rc: int | None
    out: str
    err: str
    data: Path


@dataclass
class Case:
    name: str
    argv: list[str]
    setup: Callable[[Path], None] | None = None
    check: Callable[[Result], bool] | None = None
    stdin: str | None = None


def run(case: Case) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        data.mkdir()
        work = Path(folder)
        if case.setup is not None:
            case.setup(work)
        argv = [a.replace("{tmp}", str(work)) for a in case.argv]
        env = dict(os.environ, DLHW_DATA_DIR=str(data), PYTHONIOENCODING="utf-8")
        try:
            done = subprocess.run([PY, "-m", "dlhw_desktop", *argv], capture_output=True,
                                  text=True, timeout=10, env=env, cwd=work,
                                  input=case.stdin, errors="replace")
        except subprocess.TimeoutExpired:
            return False, "hang (over 10 s)"
        finally:
            subprocess.run(["chattr", "-R", "-i", str(work)], capture_output=True)
        result = Result(done.returncode, done.stdout, done.stderr, data)
        if "Traceback" in done.stderr:
            return False, "traceback: " + done.stderr.strip().splitlines()[-1][:160]
        if done.returncode not in (0, 2):
            return False, f"exit {done.returncode}: {done.stderr.strip()[:160]}"
        if done.returncode == 2 and len(done.stderr.strip().splitlines()) > 3:
            return False, "more than one line for bad input: " + done.stderr[:160]
        if case.check is not None and not case.check(result):
            return False, (f"check failed (exit {done.returncode}): "
                           f"{(done.stderr or done.stdout).strip()[:200]}")
        return True, f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[:100]}"


def refused(r: Result) -> bool:
    return r.rc == 2


def nothing_saved(r: Result) -> bool:
    return not any(p.name.endswith(".db") for p in r.data.iterdir()) or _no_rows(r.data)


def _no_rows(data: Path) -> bool:
    for path in data.glob("*.db"):
        conn = sqlite3.connect(path)
        try:
            for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'"):
                if table != "preferences" and conn.execute(
                        f"SELECT count(*) FROM [{table}]").fetchone()[0]:
                    return False
        finally:
            conn.close()
    return True


def refused_and_nothing_saved(r: Result) -> bool:
    return refused(r) and nothing_saved(r)


def fifo(name: str) -> Callable[[Path], None]:
    def make(work: Path) -> None:
        os.mkfifo(work / name)
    return make


def write(name: str, text: str | bytes) -> Callable[[Path], None]:
    def make(work: Path) -> None:
        target = work / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
    return make


def both(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def make(work: Path) -> None:
        for step in steps:
            step(work)
    return make


def store_is(kind: str, name: str) -> Callable[[Path], None]:
    """The user's store (in the data folder) made a FIFO, a folder, garbage or a link."""
    def make(work: Path) -> None:
        target = work / "data" / name
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "dir":
            target.mkdir()
        elif kind == "garbage":
            target.write_bytes(b"not a database\n" * 100)
        elif kind == "zero":
            target.symlink_to("/dev/zero")
        elif kind == "empty":
            target.write_bytes(b"")
    return make


def readonly(name: str) -> Callable[[Path], None]:
    """A store that exists and holds a row, made immutable with its folder (``chattr +i``:
    root ignores permission bits, not this)."""
    def make(work: Path) -> None:
        data = work / "data"
        if name == "price_book.db":
            from dlhw_desktop.catalog.price_store import PriceBook
            from dlhw_desktop.core.prices.book import UserPrice

            PriceBook(data / name).save([UserPrice(GPU, 1500.0, "USD", "2026-11-20")])
        else:
            from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
            from dlhw_desktop.core.user_figures import UserFigure

            UserFiguresStore(data / name).save([UserFigure(
                COOLER, "cooling_capacity_w", 150.0, "2026-11-20", "")])
        for path in sorted(data.iterdir()):
            subprocess.run(["chattr", "+i", str(path)], check=True)
        subprocess.run(["chattr", "+i", str(data)], check=True)
    return make


def unchanged_and_refused(r: Result) -> bool:
    return r.rc == 2


def data_unwritable(work: Path) -> None:
    """The data folder replaced by a file: nothing can be created in it (root ignores
    permission bits, so a file in the way stands for an unwritable folder)."""
    shutil.rmtree(work / "data")
    (work / "data").write_text("a file where the folder should be")


QUOTE = ("ACME GmbH\nAngebot 1;;\n\nArt.-Nr.;Bezeichnung;Unit price (EUR)\n"
         "CP-9020271-EU;Netzteil;189,90\n")


def cases() -> list[Case]:
    found: list[Case] = []
    add = found.append
    # --- dlhw part set: absurd values and odd text ----------------------------------
    for value in ABSURD:
        sane = value in ("１８０", "1_000", "180 W")  # may be read as 180 / 1,000
        add(Case(f"part set cooling {value[:12]!r}", ["part", "set", COOLER,
                                                     "cooling_capacity_w", value],
                 check=(lambda r: r.rc in (0, 2)) if sane else refused_and_nothing_saved))
    for value in ("1e308", "nan", "inf", "-1", "0", "9" * 5000):
        add(Case(f"part set memory_gb {value[:12]!r}", ["part", "set", GPU, "memory_gb",
                                                        value], check=refused_and_nothing_saved))
    add(Case("part set unknown field", ["part", "set", COOLER, "warp_drive", "1"],
             check=refused))
    add(Case("part set field of another category", ["part", "set", COOLER, "memory_gb", "8"],
             check=refused))
    add(Case("part set price_usd", ["part", "set", COOLER, "price_usd", "50"], check=refused))
    add(Case("part set unknown id", ["part", "set", "cooler/none", "cooling_capacity_w",
                                     "180"], check=refused))
    add(Case("part set 5000-char id", ["part", "set", "x" * 5000, "cooling_capacity_w",
                                       "180"], check=refused))
    add(Case("part set ../ id", ["part", "set", "../../etc/passwd", "cooling_capacity_w",
                                 "180"], check=refused))
    add(Case("part set 100 KB note", ["part", "set", COOLER, "cooling_capacity_w", "180",
                                    "--note", "n" * 100_000],
             check=lambda r: r.rc == 2 and nothing_saved(r)))
    add(Case("part set ANSI note", ["part", "set", COOLER, "cooling_capacity_w", "180",
                                    "--note", "\x1b[2J\x1b[31mred"],
             check=lambda r: "\x1b" not in r.out))
    add(Case("part set label as field", ["part", "set", COOLER, "Rated heat capacity",
                                         "180"], check=lambda r: r.rc in (0, 2)))
    for kind in ("fifo", "dir", "garbage", "zero", "empty"):
        add(Case(f"part set store {kind}", ["part", "set", COOLER, "cooling_capacity_w",
                                            "180"], setup=store_is(kind, "your_figures.db")))
        add(Case(f"part list store {kind}", ["part", "list"],
                 setup=store_is(kind, "your_figures.db")))
        add(Case(f"part remove store {kind}", ["part", "remove", COOLER],
                 setup=store_is(kind, "your_figures.db")))
    for argv in (["part", "set", COOLER, "cooling_capacity_w", "180"],
                 ["part", "remove", COOLER], ["part", "list"], ["part", "fields", COOLER]):
        add(Case(f"read-only figures: {' '.join(argv[:2])}", argv,
                 setup=readonly("your_figures.db"),
                 check=(lambda r: r.rc == 0) if argv[1] in ("list", "fields")
                 else unchanged_and_refused))
    for argv in (["price", "set", GPU, "1400"], ["price", "remove", GPU],
                 ["price", "rate", "EUR", "1.08"], ["price", "currency", "EUR"],
                 ["price", "import", "{tmp}/q.csv", "--apply", "--currency", "USD"],
                 ["price", "list"], ["price", "export"]):
        add(Case(f"read-only book: {' '.join(argv[:2])}", argv,
                 setup=both(readonly("price_book.db"), write("q.csv", QUOTE)),
                 check=(lambda r: r.rc == 0) if argv[1] in ("list", "export")
                 else unchanged_and_refused))
    add(Case("part set unwritable folder", ["part", "set", COOLER, "cooling_capacity_w",
                                            "180"], setup=data_unwritable, check=refused))
    add(Case("part remove unknown", ["part", "remove", COOLER, "cooling_capacity_w"],
             check=refused))
    add(Case("part remove unknown field name", ["part", "remove", COOLER, "warp"],
             check=refused))
    add(Case("part list --json empty", ["part", "list", "--json"]))
    add(Case("part list weird id", ["part", "list", "\x1b[31m" + "y" * 3000]))
    add(Case("part fields unknown id", ["part", "fields", "nope/nope"], check=refused))
    add(Case("part fields empty id", ["part", "fields", ""], check=refused))
    add(Case("part fields cloud", ["part", "fields", "cloud/none"], check=refused))
    # --- dlhw fit's serving flags -----------------------------------------------------
    base = ["fit", "--model", "llama-3.1-8b", "--gpus", GPU, "--mode", "inference"]
    for flag in ("--users", "--input-tokens", "--output-tokens"):
        for value in ("1e308", "nan", "inf", "-1", "0", "9" * 5000, "1.5", "２", "²",
                      "99999999999999999999"):
            add(Case(f"fit {flag} {value[:12]!r}", [*base, flag, value], check=refused))
    for flag in ("--target-tps", "--target-ttft"):
        for value in ("1e308", "nan", "inf", "-1", "0", "9" * 5000, "1e-308", "-0"):
            add(Case(f"fit {flag} {value[:12]!r}", [*base, flag, value],
                     check=lambda r: r.rc == 2 or (r.rc == 0 and " 0 ms" not in r.out
                                                   and " 0 tokens/s" not in r.out
                                                   and "nan" not in r.out.lower())))
    add(Case("fit serving flags in training", ["fit", "--model", "llama-3.1-8b", "--gpus", GPU,
                                               "--mode", "training", "--users", "4"],
             check=refused))
    add(Case("fit serving flags without GPUs", ["fit", "--model", "llama-3.1-8b", "--mode",
                                                "inference", "--users", "4"], check=refused))
    add(Case("fit huge tokens", [*base, "--input-tokens", "1000000", "--output-tokens",
                                 "1000000", "--users", "100000"]))
    add(Case("fit --json serving 1e-300 tps", [*base, "--target-tps", "1e-300", "--json"],
             check=lambda r: r.rc == 2 or ("NaN" not in r.out and "Infinity" not in r.out)))
    # --- dlhw price import: the new options ------------------------------------------
    imp = ["price", "import", "{tmp}/q.csv"]
    quote = write("q.csv", QUOTE)
    for code in ("", "€", "eur", "ZZZ", "X" * 5000, "\x1b[31m", "USD EUR"):
        add(Case(f"import --currency {code[:10]!r}", [*imp, "--currency", code, "--apply"],
                 setup=quote, check=lambda r: r.rc in (0, 2) and (
                     r.rc == 2 or nothing_saved(r))))
    add(Case("import --header-row 4 (the real one)", [*imp, "--header-row", "4", "--apply"],
             setup=quote, check=lambda r: r.rc == 0 and "no EUR rate" in r.out
             and nothing_saved(r)))
    for line in ("0", "-1", "1e308", "nan", "99999999999999999999", "9" * 5000, "2", "3"):
        add(Case(f"import --header-row {line[:12]!r}", [*imp, "--header-row", line,
                                                        "--apply"],
                 setup=quote, check=lambda r: r.rc == 2 and nothing_saved(r)))
    build_setups = {
        "fifo": fifo("b.json"), "missing": None, "folder": lambda w: (w / "b.json").mkdir(),
        "garbage": write("b.json", b"\x00\xff" * 1000), "zero": lambda w: (
            w / "b.json").symlink_to("/dev/zero"),
        "json 1e308": write("b.json", '{"format": 1, "parts": [{"id": "x", "quantity": 1e308}]}'),
        "sparse 2 GB": lambda w: _sparse(w / "b.json"),
    }
    for name, setup in build_setups.items():
        add(Case(f"import --build {name}", [*imp, "--build", "{tmp}/b.json", "--apply"],
                 setup=both(quote, setup) if setup else quote,
                 check=lambda r: r.rc == 2 and nothing_saved(r)))
    add(Case("import quote FIFO", ["price", "import", "{tmp}/f.csv"], setup=fifo("f.csv"),
             check=refused))
    add(Case("import EUR without rate", [*imp, "--apply"], setup=quote,
             check=lambda r: r.rc == 0 and "no EUR rate" in r.out and nothing_saved(r)))
    for cell in ("1e308", "nan", "inf", "-5", "9" * 5000, "１８９", "0", "1.0e3"):
        add(Case(f"import price cell {cell[:12]!r}", [*imp, "--apply", "--currency", "USD"],
                 setup=write("q.csv", f"Part number;Price\nCP-9020271-EU;{cell}\n"),
                 check=lambda r: r.rc == 0 and nothing_saved(r)))
    add(Case("import 100,000-line letterhead", imp,
             setup=write("q.csv", "Letterhead\n" * 100_000 + "Part number;Price\nA;1\n"),
             check=lambda r: r.rc in (0, 2)))
    for label, body in {
        "amount 1e308": "switch:qm9700,1e308,USD,2026-11-20,,,price",
        "amount nan": "switch:qm9700,nan,USD,2026-11-20,,,price",
        "amount 5000 digits": "switch:qm9700," + "9" * 5000 + ".00,USD,,,,price",
        "amount negative": "switch:qm9700,-5.00,USD,,,,price",
        "rate 0": "EUR,0.00,USD,2026-11-20,,,rate",
        "rate 1e308": "EUR,1e308,USD,2026-11-20,,,rate",
        "rate USD": "USD,1.00,USD,2026-11-20,,,rate",
        "rate bad date": "EUR,1.08,USD,+2026-0_1-01,,,rate",
        "display ZZZ": ",,ZZZ,,,,display currency",
        "unknown kind": "x,1.00,USD,,,,rocket",
        "duplicate": "a,1.00,USD,,,,price\na,2.00,USD,,,,price",
        "date fullwidth": "a,1.00,USD,２０２６-01-01,,,price",
        "id 5000": "x" * 5000 + ",1.00,USD,,,,price",
    }.items():
        add(Case(f"import book export {label}", [*imp, "--apply"],
                 setup=write("q.csv", "part_id,price,currency,date,note,source,kind\n"
                             + body + "\n"), check=refused_and_nothing_saved))
    add(Case("import book export to unwritable folder", [*imp, "--apply"],
             setup=both(write("q.csv", "part_id,price,currency,date,note,source,kind\n"
                              "switch:qm9700,1.00,USD,,,,price\n"), data_unwritable),
             check=refused))
    add(Case("import into a FIFO book", [*imp, "--apply", "--currency", "USD"],
             setup=both(quote, store_is("fifo", "price_book.db")), check=refused))
    add(Case("export to an unwritable folder", ["price", "export", "-o", "{tmp}/no/x.csv"],
             setup=write("no", "a file, not a folder"), check=refused))
    return found


def _sparse(path: Path) -> None:
    with path.open("wb") as handle:
        handle.truncate(2 * 2**30)


def main() -> int:
    only = sys.argv[1] if len(sys.argv) > 1 else ""
    held = failed = 0
    for case in cases():
        if only and only not in case.name:
            continue
        ok, why = run(case)
        held += ok
        failed += not ok
        print(f"{'held' if ok else 'FAIL'}  {case.name}: {why}".replace("\n", " ")[:240],
              flush=True)
    print(f"{held + failed} cases, {held} held, {failed} failed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
