"""Issue 15: a settings file must never run code, and it lives in DLHW_DATA_DIR when set.

PySide6 unpickles ``PySide::PyObjectWrapper`` values as soon as ``QSettings`` parses the
section holding one; the settings are therefore checked as text first. Each crafted file
below would create a marker file if it were unpickled."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from dlhw_desktop.ui.common import safe_ini
from dlhw_desktop.ui.common.settings import AppSettings, settings_file


class _RunsCode:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # what an attacker would plant: os.system on load
        return (os.system, (f"touch {self.marker}",))


def pickled_variant(marker: Path, prefix: str = "@Variant(") -> str:
    """A value as PySide6 writes a pickled object, each byte escaped as Qt's INI allows."""
    data = pickle.dumps(_RunsCode(marker), protocol=4)
    stream = (struct.pack(">II", 127, 24) + b"PySide::PyObjectWrapper\0"
              + struct.pack(">I", len(data)) + data)
    return prefix + "".join(f"\\x{b:02x}" for b in stream) + ")"


CRAFTED = {
    "plain": "[view]\ntheme={payload}\n",
    "escaped_at": "[view]\ntheme={payload_escaped}\n",
    "another_key_same_section": "[view]\nfoo={payload}\ntheme=dark\n",
    "general_section": "[General]\nx={payload}\n[view]\ntheme=dark\n",
    "continued_line": "[view]\ntheme=\\\n{payload}\n",
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_settings_file_does_not_run_code(tmp_path: Path, case: str) -> None:
    marker = tmp_path / "PWNED"
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CRAFTED[case].format(
        payload=pickled_variant(marker),
        payload_escaped=pickled_variant(marker, prefix="\\x40Variant(")), encoding="utf-8")
    settings = AppSettings()
    theme = settings.get("view/theme")
    settings.get("compare/log")  # and every other section
    assert not marker.exists()
    assert theme in ("system", "dark")  # the default, or the plain value beside it
    if case in ("plain", "escaped_at", "continued_line"):
        assert theme == "system"
    assert settings.problem and "could run code" in settings.problem
    assert (path.parent / (path.name + ".unsafe")).exists()  # kept, for whoever looks
    assert not safe_ini.is_dangerous(path.read_text(encoding="utf-8"))


def test_the_app_starts_with_the_default_theme_from_a_crafted_file(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "dlhw_desktop.conf").write_text(
        f"[view]\ntheme={pickled_variant(marker)}\n", encoding="utf-8")
    env = {**os.environ, "DLHW_DATA_DIR": str(data_dir), "QT_QPA_PLATFORM": "offscreen",
           "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-m", "dlhw_desktop", "--exit-after-show"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert "could run code" in done.stderr and "Traceback" not in done.stderr
    assert "theme=" not in (data_dir / "dlhw_desktop.conf").read_text(encoding="utf-8")


def test_values_of_the_wrong_type_give_the_default(tmp_path: Path) -> None:
    path = tmp_path / "s.ini"
    path.write_text("[build]\nelectricity_usd_per_kwh=dark\nutilisation=nan\n"
                    "recent_files=@ByteArray(x)\n[compare]\nlog=maybe\n[window]\n"
                    "geometry=plain text\n", encoding="utf-8")
    settings = AppSettings(QSettings(str(path), QSettings.Format.IniFormat))
    assert settings.get("build/electricity_usd_per_kwh") == 0.17
    assert settings.get("build/utilisation") == 0.5
    assert settings.get("compare/log") is True
    assert settings.get("window/geometry") == b""


def test_settings_live_in_the_data_dir_when_it_is_set(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DLHW_DATA_DIR", str(tmp_path / "portable"))
    assert settings_file() == tmp_path / "portable" / "dlhw_desktop.conf"
    settings = AppSettings()
    settings.set("view/theme", "dark")
    settings.sync()
    assert "theme=dark" in (tmp_path / "portable" / "dlhw_desktop.conf").read_text()
    monkeypatch.delenv("DLHW_DATA_DIR")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert settings_file() == tmp_path / "xdg" / "dlhw" / "dlhw_desktop.conf"


def test_the_tests_never_touch_the_real_home(tmp_path: Path) -> None:
    """The autouse fixture gives every test its own data dir (and so settings file)."""
    data_dir = Path(os.environ["DLHW_DATA_DIR"])
    assert settings_file().parent == data_dir
    assert not str(data_dir).startswith(str(Path.home() / ".config"))


@pytest.mark.parametrize("kind", ["fifo", "device", "huge"])
def test_a_settings_file_that_is_not_a_small_regular_file_is_not_read(
        tmp_path: Path, kind: str) -> None:
    path = settings_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)  # Qt would block reading it
    elif kind == "device":
        path.symlink_to("/dev/zero")  # Qt would never finish reading it
    else:
        path.write_bytes(b"[view]\ntheme=dark\n" + b";" * (5 * 1024 * 1024))
    settings = AppSettings()
    assert settings.get("view/theme") == "system"
    assert "was not read" in settings.problem
    settings.set("view/theme", "dark")  # kept in memory for the session
    assert settings.get("view/theme") == "dark"
