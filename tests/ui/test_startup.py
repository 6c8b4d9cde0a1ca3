"""Start-up as a user (and the start-up benchmark) runs it: a fresh process, offscreen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def launch(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DLHW_DATA_DIR=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run([sys.executable, "-m", "dlhw_desktop", *args], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("flag", ["--exit-after-show", "--exit-when-ready"])
def test_the_app_starts_and_reaches_each_milestone(tmp_path: Path, flag: str) -> None:
    result = launch(tmp_path, flag)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_a_damaged_catalog_stops_start_up_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "catalog.db"
    bad.write_bytes(b"not a database" * 100)
    result = launch(tmp_path, "--catalog", str(bad), "--exit-when-ready")
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.startswith("dlhw:")]
    assert len(lines) == 1 and "catalog" in lines[0]
    assert "Traceback" not in result.stderr


def test_a_damaged_catalog_is_a_dialog_when_started_normally(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp) -> None:
    from dlhw_desktop.ui.common import dialogs
    from dlhw_desktop.ui.shell import app as app_module

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(dialogs, "show_error",
                        lambda _parent, title, text: shown.append((title, text)))
    bad = tmp_path / "catalog.db"
    bad.write_bytes(b"\x00" * 4096)
    assert app_module.run_app(catalog_path=bad) == 2
    assert len(shown) == 1 and "cannot open the catalog" in shown[0][0]
    assert str(bad) in shown[0][1] or "catalog" in shown[0][1]


def test_start_up_with_a_build_to_open_still_completes(tmp_path: Path) -> None:
    """``dlhw --open FILE`` puts the Build tab in front; start-up must still finish (the
    Catalog tab behind it is built but has nothing to paint)."""
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.build.build import Build

    build = Build("opened")
    build.add(Catalog.open().find("accelerator/nvidia-geforce-rtx-4090"))
    path = buildfile.save(build, tmp_path / "b.dlhw.json")
    result = launch(tmp_path, "--open", str(path), "--exit-when-ready")
    assert result.returncode == 0, result.stderr
