"""The headless commands, as a user runs them: output, exit status, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dlhw_desktop.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_find_prints_matching_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "find", "rtx", "4090", "--category", "accelerator")
    assert code == 0
    assert "accelerator/nvidia-geforce-rtx-4090" in out


def test_find_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "find", "4090", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] >= 1
    assert any(p["id"] == "accelerator/nvidia-geforce-rtx-4090" for p in data["parts"])


def test_show_lists_every_field_and_source(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "accelerator/nvidia-geforce-rtx-4090")
    assert code == 0
    assert "Memory" in out and "24 GB" in out and "source:" in out
    code, out, _ = run(capsys, "show", "accelerator/nvidia-geforce-rtx-4090", "--json")
    data = json.loads(out)
    assert data["memory_gb"] == 24 and data["source"]


def test_unknown_id_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "accelerator/no-such-card")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown part id" in err


def test_bad_catalog_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "x.db"
    bad.write_bytes(b"\x00" * 5000)
    code, _, err = run(capsys, "--catalog", str(bad), "catalog", "info")
    assert code == 2 and "not a SQLite database" in err and "Traceback" not in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["find", "--category", "toaster"])
    assert exc.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_catalog_info(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "catalog", "info", "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == sum(data["counts"].values())


def test_python_dash_m_runs_the_same_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "dlhw_desktop", "find", "a100", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["total"] >= 1
