"""``dlhw check``: the planner's checks from a shell, with exit status 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.cli import main
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
PSU_750 = "psu/seasonic-focus-gx-750-atx-3"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def save_template(catalog: Catalog, key: str, path: Path) -> Path:
    return buildfile.save(template(key).build(catalog.get), path)


@pytest.fixture
def two_4090s_on_750w(catalog: Catalog, tmp_path: Path) -> Path:
    build = Build(name="Two 4090s")
    build.add(catalog.get(RTX_4090), 2)
    build.add(catalog.get(PSU_750))
    return buildfile.save(build, tmp_path / "two.dlhw.json")


def test_a_build_where_nothing_fails_exits_0(catalog: Catalog, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = save_template(catalog, "single-rtx-4090", tmp_path / "one.dlhw.json")
    code, out, err = run(capsys, "check", str(path))
    assert code == 0, out
    assert out.startswith("Single RTX 4090 workstation: PASS")
    assert "[PASS] power.psu_load" in out and "price $" in out
    assert err == ""


def test_a_failing_check_exits_1_and_says_why(two_4090s_on_750w: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(two_4090s_on_750w))
    assert code == 1
    assert "[FAIL] power.psu_load: Sustained load 900 W is 120 % of the 750 W" in out
    assert "-> Power-limit" in out


def test_json_shape(two_4090s_on_750w: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(two_4090s_on_750w), "--json")
    data = json.loads(out)
    assert code == 1
    assert {"checks", "summary", "parts", "warnings", "name"} <= set(data)
    first = data["checks"][0]
    assert {"id", "kind", "status", "message", "figures"} <= set(first)
    load = next(c for c in data["checks"] if c["id"] == "power.psu_load")
    assert load["status"] == "fail" and load["figures"]["sustained_w"] == 900
    summary = data["summary"]
    assert summary["status"] == "fail"
    assert summary["sustained_w"] == 900 and summary["wall_w"] > 900
    assert summary["price_usd"] == 2 * 1599 and summary["vram_gb"] == 48
    assert {"heat_w", "bf16_tflops", "yearly_cost_usd", "psu_load"} <= set(summary)
    assert {"id": RTX_4090, "quantity": 2} .items() <= data["parts"][0].items()


def test_settings_change_the_circuit_verdict(catalog: Catalog, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = save_template(catalog, "four-gpu-workstation", tmp_path / "four.dlhw.json")
    _, out, _ = run(capsys, "check", str(path), "--json", "--mains", "120V-15A")
    circuit = next(c for c in json.loads(out)["checks"] if c["id"] == "power.circuit")
    assert circuit["status"] == "fail" and circuit["figures"]["circuit_limit_w"] == 1440
    _, out, _ = run(capsys, "check", str(path), "--json", "--mains", "230V-16A",
                    "--price-per-kwh", "0.30", "--utilisation", "1")
    data = json.loads(out)
    circuit = next(c for c in data["checks"] if c["id"] == "power.circuit")
    assert circuit["status"] == "pass"
    assert data["summary"]["yearly_cost_usd"] == pytest.approx(
        data["summary"]["yearly_kwh"] * 0.30)


def test_unknown_parts_warn_on_stderr_and_read_as_unknown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gone.dlhw.json"
    path.write_text(json.dumps({
        "format": "dlhw-build", "version": 1, "name": "Old",
        "parts": [{"id": "accelerator/nvidia-rtx-9999", "quantity": 1,
                   "category": "accelerator", "name": "RTX 9999"},
                  {"id": PSU_750, "quantity": 1}]}))
    code, out, err = run(capsys, "check", str(path), "--json")
    data = json.loads(out)
    assert code == 0  # nothing is known to fail
    assert "dlhw: warning: RTX 9999 (accelerator/nvidia-rtx-9999) is not in the catalog" in err
    gone = next(p for p in data["parts"] if p["id"] == "accelerator/nvidia-rtx-9999")
    assert gone["known"] is False
    load = next(c for c in data["checks"] if c["id"] == "power.psu_load")
    assert load["status"] == "unknown" and "TDP of" in load["message"]


@pytest.mark.parametrize(("content", "says"), [
    ("{not json", "invalid JSON"),
    ("[]", "not a build file"),
    ('{"format": "dlhw-build", "version": 99, "parts": []}', "newer version"),
    ('{"format": "something-else", "version": 1}', "not a DL Hardware build file"),
])
def test_bad_input_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         content: str, says: str) -> None:
    path = tmp_path / "bad.dlhw.json"
    path.write_text(content)
    code, out, err = run(capsys, "check", str(path))
    assert code == 2 and out == ""
    assert err.startswith("dlhw: error: ") and says in err and err.count("\n") == 1


def test_missing_file_and_bad_settings_exit_2(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", str(tmp_path / "nowhere.dlhw.json"))
    assert code == 2 and "cannot open nowhere.dlhw.json" in err
    code, _, err = run(capsys, "check", str(tmp_path / "x.dlhw.json"), "--utilisation", "3")
    assert code == 2 and "utilisation" in err
