"""Issue 15, bounds and clear messages: every input that used to hang, grow without end or
end in a traceback now gives one line on stderr and exit status 2, or bounded output.

No test here times anything: each asserts a bounded output (lines, rows, pages, counts of
executed lines) or that the command ends at all (a FIFO used to block for ever).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.cli import main
from dlhw_desktop.commands.common import print_json
from dlhw_desktop.core import limits
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build, QuantityLimitError
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.errors import BuildFileError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import BuildWorkload

BUNDLED = Path(__file__).resolve().parents[2] / "catalog.db"
RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
H100_SXM = "accelerator/nvidia-h100-sxm5-80-gb"
TPU_V4 = "cloud/google-cloud-cloud-tpu-v4-per-chip"
P4D = "cloud/aws-p4d-24xlarge-8x-a100-40-gb"
CPU = "cpu/amd-ryzen-9-7950x"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def document(parts: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"format": "dlhw-build", "version": 1, "name": "t", "parts": parts, **extra}


def custom(figure: str, raw: str, category: str = "accelerator") -> str:
    """A build file whose one custom part carries ``figure`` as raw JSON text ``raw``."""
    marker = "__VALUE__"
    text = json.dumps(document([{"id": f"custom/{category}/x-y", "quantity": 1,
                                 "custom": {"category": category, "name": "X", "vendor": "x",
                                            figure: marker}}]))
    return text.replace(f'"{marker}"', raw)


def parts_text(*parts: dict[str, Any], **extra: Any) -> str:
    return json.dumps(document(list(parts), **extra))


# (case, build file text, words the one line must hold)
BAD_BUILD_FILES: list[tuple[str, str, str]] = [
    ("figure_1e308", custom("tdp_w", "1e308"), "at most 1,000,000,000"),
    ("figure_1e999", custom("tdp_w", "1e999"), "too large"),
    ("figure_nan", custom("tdp_w", "NaN"), "NaN"),
    ("figure_infinity", custom("tdp_w", "Infinity"), "Infinity"),
    ("figure_minus_infinity", custom("tdp_w", "-Infinity"), "Infinity"),
    ("figure_negative", custom("tdp_w", "-500"), "0 or more"),
    ("price_nan", custom("price_usd", "NaN"), "NaN"),
    ("price_negative", custom("price_usd", "-1"), "0 or more"),
    ("slot_spacing_0", custom("x16_slot_spacing", "0", "motherboard"), "more than 0"),
    ("int_5000_digits", custom("tdp_w", "9" * 5000), "5,000 digits"),
    ("quantity_10_30", parts_text({"id": RTX_4090, "quantity": 10**30}), "digits"),
    ("quantity_10_7_pcie", parts_text({"id": RTX_4090, "quantity": 10**7}), "10,000,000 asked"),
    ("quantity_21_pcie", parts_text({"id": RTX_4090, "quantity": 21}),
     "20 PCIe accelerator cards"),
    ("quantity_pcie_split", parts_text({"id": RTX_4090, "quantity": 15},
                                       {"id": RTX_4090, "quantity": 15}),
     "20 PCIe accelerator cards"),
    ("quantity_sxm", parts_text({"id": H100_SXM, "quantity": 10**5}), "72 SXM/OAM"),
    ("quantity_sxm_73", parts_text({"id": H100_SXM, "quantity": 73}),
     "72 SXM/OAM accelerator modules"),
    ("quantity_tpu", parts_text({"id": TPU_V4, "quantity": 10_001}),
     "10,000 cloud instances or chips"),
    ("quantity_cloud", parts_text({"id": P4D, "quantity": 10**6}), "10,000 cloud"),
    ("quantity_storage", parts_text({"id": "storage/samsung-990-pro-2tb-mz-v9p2t0b-am",
                                     "quantity": 91}, workload={"tier": "demanding"}),
     "90 drives"),
    ("quantity_memory", parts_text({"id": "memory/x", "category": "memory",
                                    "quantity": 49}), "48 memory kits"),
    ("lone_surrogate_name", parts_text({"id": RTX_4090}, name="\ud800"), "lone surrogate"),
    ("lone_surrogate_custom", custom("name", '"\\ud800"'), "lone surrogate"),
    ("long_id", parts_text({"id": "accelerator/" + "x" * 1_000_000}), "at most 200"),
    ("long_notes", parts_text({"id": RTX_4090}, notes="x" * 10_000_000), "at most 20,000"),
    ("notes_20001", parts_text({"id": RTX_4090}, notes="x" * 20_001), "at most 20,000"),
    ("notes_lines", parts_text({"id": RTX_4090}, notes="x\n" * 600), "at most 500"),
    ("long_name", parts_text({"id": RTX_4090}, name="n" * 201), "at most 200"),
    ("too_many_parts", parts_text(*({"id": f"custom/accelerator/p{i}",
                                     "category": "accelerator"} for i in range(1_001))),
     "at most 1,000"),
]


@pytest.mark.parametrize(("case", "text", "words"), BAD_BUILD_FILES,
                         ids=[c[0] for c in BAD_BUILD_FILES])
def test_bad_build_files_are_one_line_exit_2(case: str, text: str, words: str,
                                             tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{case}.dlhw.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for command in (["check", str(path)], ["check", "--json", str(path)],
                    ["fit", "--model", "llama-3.1-8b", "--build", str(path)]):
        code, out, err = run(command, capsys)
        assert code == 2, (command, out, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dlhw: error: "), err
        assert "Traceback" not in err and words in lines[0], lines[0]


def test_export_refuses_the_same_files(qapp: Any, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    for case in ("figure_nan", "quantity_21_pcie", "quantity_tpu", "long_id"):
        text = dict((c, t) for c, t, _ in BAD_BUILD_FILES)[case]
        path = tmp_path / f"{case}.dlhw.json"
        path.write_text(text, encoding="utf-8")
        code, _, err = run(["export", str(path), "-o", str(tmp_path / "x.pdf")], capsys)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert not (tmp_path / "x.pdf").exists()


# --- command-line arguments ------------------------------------------------------------

BAD_ARGUMENTS = [
    ["find", "--limit", "99999999999999999999", "rtx"],
    ["find", "--limit", "9" * 5000, "rtx"],
    ["check", "x.dlhw.json", "--price-per-kwh", "nan"],
    ["check", "x.dlhw.json", "--utilisation", "inf"],
    ["check", "x.dlhw.json", "--price-per-kwh", "1e999"],
    ["fit", "--model", "llama-3.1-8b", "--pue", "nan"],
    ["fit", "--model", "llama-3.1-8b", "--years", "inf"],
    ["fit", "--model", "llama-3.1-8b", "--electricity", "-inf"],
    ["fit", "--model", "llama-3.1-8b", "--mfu", "nan"],
    ["fit", "--params", "inf", "--mode", "training"],
    ["fit", "--model", "llama-3.1-8b", "--batch", "99999999999999999999"],
    ["fit", "--model", "llama-3.1-8b", "--gpus", f"{RTX_4090}x1000000"],
    ["fit", "--model", "llama-3.1-8b", "--gpus", f"{RTX_4090}x" + "9" * 5000],
    ["fit", "--model", "llama-3.1-8b", "--gpus", f"{H100_SXM}x73"],
    ["fit", "--model", "llama-3.1-8b", "--rank", "99999999999999999999"],
    ["export", "x.dlhw.json", "--paper", "a4", "-o", "a" * 300 + ".pdf"],
]


@pytest.mark.parametrize("args", BAD_ARGUMENTS, ids=lambda a: " ".join(a)[:60])
def test_bad_arguments_are_one_line_exit_2(args: list[str], tmp_path: Path, qapp: Any,
                                          capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.dlhw.json").write_text(parts_text({"id": RTX_4090}))
    code, _, err = run(args, capsys)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err


def test_json_output_never_holds_nan(capsys: pytest.CaptureFixture[str]) -> None:
    print_json({"a": float("nan"), "b": [float("inf"), 1.5], "c": {"d": -float("inf")}})
    assert json.loads(capsys.readouterr().out) == {"a": None, "b": [None, 1.5],
                                                   "c": {"d": None}}


# --- files that are not regular files ---------------------------------------------------


def _cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command in a child process, so a blocking open cannot hang the suite."""
    return subprocess.run([sys.executable, "-c", "from dlhw_desktop.cli import main; "
                           "raise SystemExit(main())", *args],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_fifo_and_devices_are_refused_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.dlhw.json"
    os.mkfifo(fifo)
    for args in (("check", str(fifo)), ("--catalog", str(fifo), "find", "rtx"),
                 ("check", "/dev/zero")):
        done = _cli(*args)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "not a regular file" in lines[0]


def test_a_build_file_over_16_mb_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.dlhw.json"
    with path.open("wb") as handle:
        handle.truncate(limits.MAX_BUILD_FILE_BYTES + 1)
    with pytest.raises(BuildFileError, match="larger than 16 MB"):
        buildfile.load(path, lambda _id: None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_replay_folder_with_a_fifo_does_not_block(tmp_path: Path) -> None:
    from dlhw_desktop.core.detect.host import RecordedHost

    commands = tmp_path / "commands"
    commands.mkdir()
    (commands / "nvidia-smi.txt").write_text("recorded")
    os.mkfifo(commands / "nvidia-smi.stderr")
    os.mkfifo(commands / "nvidia-smi.exit")
    os.mkfifo(tmp_path / "host.json")
    result: list[Any] = []
    worker = threading.Thread(target=lambda: result.append(RecordedHost.load(tmp_path)),
                              daemon=True)
    worker.start()
    worker.join(60)  # a guard against a hang, not a timing: it returns at once or never
    assert result, "reading a replay folder with FIFOs in it blocked"
    assert result[0].commands["nvidia-smi"].stdout == "recorded"


# --- work grows with the distinct parts -------------------------------------------------


def _custom_parts_document(n: int) -> dict[str, Any]:
    return document([{"id": f"custom/cloud/c{i}", "quantity": 1,
                      "custom": {"category": "cloud", "name": f"Offer {i}", "vendor": "v",
                                 "price_per_hour_usd": 1.5}} for i in range(n)])


def _lines_executed(n: int) -> int:
    data = _custom_parts_document(n)
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        buildfile.from_dict(json.loads(json.dumps(data)), lambda _id: None)
    finally:
        sys.settrace(None)
    return count


def test_loading_work_is_linear_in_distinct_parts() -> None:
    """Lines executed, not seconds: twice the parts must cost about twice the lines (it was
    quadratic: every add scanned the parts already there)."""
    small, large = _lines_executed(200), _lines_executed(400)
    assert large / small < 2.3, (small, large)


def test_repeated_entries_are_counted_once_and_resolved_once() -> None:
    asked: list[str] = []

    def resolve(part_id: str) -> Part | None:
        asked.append(part_id)
        return Part(part_id, Category.STORAGE, "v", "Drive", "test", "2025-01-01")

    loaded = buildfile.from_dict(document([{"id": "storage/d", "quantity": 2}] * 40),
                                 resolve)
    (item,) = loaded.build.items()
    assert item.quantity == 80 and asked == ["storage/d"]


def test_check_output_is_one_line_per_distinct_part(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    lines = []
    for quantity in (10, 20):
        path = tmp_path / f"q{quantity}.dlhw.json"
        path.write_text(parts_text({"id": RTX_4090, "quantity": quantity}, {"id": CPU}))
        _, out, _ = run(["check", str(path)], capsys)
        lines.append(len(out.splitlines()))
    assert lines[0] == lines[1]


def test_fit_prints_one_line_for_identical_gpus(capsys: pytest.CaptureFixture[str]) -> None:
    counts = []
    for n in (8, 16):
        _, out, _ = run(["fit", "--model", "llama-3.1-8b", "--mode", "inference",
                         "--gpus", f"{RTX_4090}x{n}"], capsys)
        verdicts = [line for line in out.splitlines() if "RTX 4090" in line and "needs" in line]
        assert len(verdicts) == 1 and verdicts[0].strip().split()[1] == f"{n}x"
        counts.append(len(out.splitlines()))
    assert counts[0] == counts[1]


def test_workload_checks_of_a_cloud_fleet_are_one_result(catalog: Any) -> None:
    from dlhw_desktop.catalog.userparts import PartResolver
    from dlhw_desktop.core.build.workload_fit import workload_checks

    find = PartResolver(catalog).find
    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "mode": "inference"}))
    build.add(catalog.get(TPU_V4), 10_000)
    results = workload_checks(build, find)
    assert len(results) == 1 and results[0].message.startswith("10,000x ")
    big = Build(workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "mode": "inference"}))
    big.add(catalog.get(P4D), 10_000)  # 80,000 GPUs: more than a fit weighs
    (refused,) = workload_checks(big, find)
    assert refused.status == "unknown" and "16,384" in refused.message


# --- the limits in the model itself -----------------------------------------------------


def test_build_refuses_quantities_beyond_their_kind(catalog: Any) -> None:
    build = Build()
    card = catalog.get(RTX_4090)
    build.add(card, 20)
    with pytest.raises(QuantityLimitError, match="at most 20 PCIe accelerator cards"):
        build.add(card, 1)
    with pytest.raises(QuantityLimitError, match="21 asked"):
        build.set_quantity(RTX_4090, 21)
    assert build.room_for(card) == 0 and build.find(RTX_4090).quantity == 20
    build.set_quantity(RTX_4090, 5)
    assert build.room_for(card) == 15
    build.restore(Build().snapshot())
    assert build.room_for(card) == 20


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(figure=st.sampled_from(["tdp_w", "memory_gb", "slot_width", "board_length_mm",
                               "price_usd", "power_connectors", "release_year",
                               "x16_slot_spacing", "pcie_x16_slots"]),
       value=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                       st.integers(min_value=-(10**40), max_value=10**40),
                       st.text(max_size=30),
                       st.sampled_from(["99999999999999999999x 16-pin", "\ud800", "1e999"])),
       quantity=st.integers(min_value=-5, max_value=10**25))
def test_any_custom_figure_loads_cleanly_or_is_refused(figure: str, value: Any,
                                                       quantity: int) -> None:
    """Whatever a custom part carries, loading either refuses it with BuildFileError or
    gives a build the checks run on without an exception."""
    category = "motherboard" if figure in ("x16_slot_spacing", "pcie_x16_slots") \
        else "accelerator"
    entry = {"id": f"custom/{category}/x", "quantity": quantity,
             "custom": {"category": category, "name": "X", "vendor": "v", figure: value}}
    text = json.dumps(document([entry, {"id": "custom/accelerator/y", "quantity": 2,
                                        "custom": {"category": "accelerator", "name": "Y",
                                                   "vendor": "v", "tdp_w": 300}}]))
    try:
        loaded = buildfile.loads(text.encode("utf-8", "surrogatepass"), lambda _id: None)
    except BuildFileError as exc:
        assert "\n" not in str(exc)
        return
    report = check_build(loaded.build)
    for result in report.results:
        result.message.encode("utf-8")


# --- damaged catalog rows ------------------------------------------------------------------


@pytest.fixture
def damaged_catalog(tmp_path: Path, catalog_path: Path) -> Path:
    copy = tmp_path / "catalog.db"
    shutil.copyfile(catalog_path, copy)
    with sqlite3.connect(copy) as db:
        db.execute("UPDATE parts SET tdp_w = 'lots' WHERE id = ?", (RTX_4090,))
        db.execute("UPDATE parts SET name = ? WHERE id = ?",
                   (b"\xff\xfe binary", "accelerator/nvidia-geforce-rtx-4080"))
        db.execute("UPDATE parts SET category = 'gizmo' WHERE id = ?",
                   ("accelerator/nvidia-geforce-rtx-4070",))
    return copy


def test_damaged_catalog_rows_are_unknown_or_one_line(damaged_catalog: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, out, err = run(["--catalog", str(damaged_catalog), "show", RTX_4090], capsys)
    assert code == 0 and "Traceback" not in err
    code, out, err = run(["--catalog", str(damaged_catalog), "show",
                          "accelerator/nvidia-geforce-rtx-4080"], capsys)
    assert code == 0 and "binary" in out
    code, out, err = run(["--catalog", str(damaged_catalog), "show",
                          "accelerator/nvidia-geforce-rtx-4070"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "unknown category 'gizmo'" in err
    # one damaged row does not hide the rest of the catalog
    code, out, err = run(["--catalog", str(damaged_catalog), "find", "geforce rtx", "--limit",
                          "10000"], capsys)
    assert code == 0 and RTX_4090 in out and "nvidia-geforce-rtx-4070 " not in out
    catalog = Catalog.open(damaged_catalog)
    assert len(catalog.parts()) == len(Catalog.open(BUNDLED).parts()) - 1


# --- the user's own parts -------------------------------------------------------------------


def _build_with_custom_part(tmp_path: Path) -> Path:
    path = tmp_path / "custom.dlhw.json"
    path.write_text(parts_text({"id": "custom/accelerator/acme-x1", "category": "accelerator",
                                "name": "Acme X1"}))
    return path


def test_damaged_user_parts_are_said_once_and_kept(tmp_path: Path,
                                                    _private_user_data: Path,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    from dlhw_desktop.catalog.userparts import UserParts

    db = _private_user_data / "user_parts.db"
    db.write_bytes(b"this is not a database" * 100)
    before = db.read_bytes()
    code, _, err = run(["check", str(_build_with_custom_part(tmp_path))], capsys)
    assert code in (0, 1)
    assert err.count("your parts database") == 1 and "damaged" in err
    assert db.read_bytes() == before
    store = UserParts(db)
    assert "damaged" in (store.problem() or "")
    moved = store.move_aside()
    assert moved.name.startswith("user_parts.db.damaged-") and moved.read_bytes() == before
    assert not db.exists() and UserParts(db).problem() is None


def test_a_foreign_user_parts_schema_is_never_altered(tmp_path: Path,
                                                       _private_user_data: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    db = _private_user_data / "user_parts.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE parts (id TEXT PRIMARY KEY, colour TEXT)")
        conn.execute("INSERT INTO parts VALUES ('custom/accelerator/acme-x1', 'red')")
    conn.close()
    before = db.read_bytes()
    code, _, err = run(["check", str(_build_with_custom_part(tmp_path))], capsys)
    assert code in (0, 1) and "was not made by this app" in err
    assert db.read_bytes() == before
    with sqlite3.connect(db) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(parts)")]
    conn.close()
    assert columns == ["id", "colour"]


def test_user_parts_with_bad_rows_are_one_message(_private_user_data: Path) -> None:
    from dlhw_desktop.catalog.userparts import UserParts, UserPartsError

    store = UserParts(_private_user_data / "user_parts.db")
    store.add(Category.ACCELERATOR, "Acme", "X1", {"tdp_w": 300})
    store.close()
    with sqlite3.connect(store.path) as conn:
        conn.execute("UPDATE parts SET category = 'gizmo', tdp_w = 'hot'")
    conn.close()
    with pytest.raises(UserPartsError, match="unknown category"):
        UserParts(store.path).all()
    with pytest.raises(UserPartsError, match="not a number"):
        store.add(Category.ACCELERATOR, "Acme", "X2", {"tdp_w": float("nan")})


def test_a_batch_is_admitted_against_what_it_already_took(catalog: Any) -> None:
    from dlhw_desktop.core.build.room import admit, quantity_refusal

    build = Build()
    card = catalog.get(RTX_4090)
    build.add(card, 18)
    fits, refused = admit(build, [(card, 1), (card, 1), (card, 1), (catalog.get(CPU), 1)])
    assert [q for _, q in fits] == [1, 1, 1] and len(refused) == 1
    assert "at most 20 PCIe accelerator cards; 21 asked" in refused[0]
    assert quantity_refusal(build, RTX_4090, 20) is None
    assert "21 asked" in (quantity_refusal(build, RTX_4090, 21) or "")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_check_settings_refuse_non_finite_prices(value: float) -> None:
    from dlhw_desktop.core.checks import CheckSettings

    with pytest.raises(ValueError, match="finite number"):
        CheckSettings(price_per_kwh_usd=value)


def test_a_detected_machine_beyond_the_limits_keeps_what_fits(catalog: Any) -> None:
    from dlhw_desktop.catalog.matching import MatchRecord, build_from_matches
    from dlhw_desktop.catalog.name_matching import MatchMethod
    from dlhw_desktop.core.detect.model import DetectionReport

    card = catalog.get(RTX_4090)
    records = [MatchRecord(Category.ACCELERATOR, "RTX 4090", card, 30, MatchMethod.EXACT, 1.0)]
    build = build_from_matches(DetectionReport(), records)
    assert build.find(RTX_4090).quantity == 20
    assert "10 of NVIDIA GeForce RTX 4090 left out: a build holds at most 20" in build.notes


def test_a_build_that_would_not_reopen_is_not_saved() -> None:
    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "pue": float("nan")}))
    with pytest.raises(BuildFileError, match="not JSON"):
        buildfile.dumps(build)
