"""Build > Detect this computer: the machine becomes a build in the planner, checked like any."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QUndoStack
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog import matching
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.detect import HostInfo, RecordedHost
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.composition import make_build_tab

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "detect"


def recorded(name: str) -> RecordedHost:
    data = json.loads((FIXTURES / "machines" / f"{name}.json").read_text(encoding="utf-8"))

    def text(ref: str) -> str:
        return ref[5:] if ref.startswith("text:") else (FIXTURES / ref).read_text("utf-8")

    return RecordedHost(HostInfo.from_dict(data["host"]),
                        commands={k: RecordedHost.command(text(r), c)
                                  for k, (r, c) in data["commands"].items()},
                        files={p: text(r) for p, r in data["files"].items()})


def test_detected_workstation_opens_in_the_planner(qtbot: QtBot, catalog: Catalog,
                                                   app_settings: AppSettings,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    real = matching.detect_build
    monkeypatch.setattr(matching, "detect_build",
                        lambda cat, **_: real(cat, host=recorded("gpu-workstation")))
    stack = QUndoStack()
    tab = make_build_tab(catalog, app_settings, stack)
    qtbot.addWidget(tab)
    tab.detect_computer()
    qtbot.waitUntil(lambda: len(tab.build.items()) > 0, timeout=20_000)
    ids = [item.part.id for item in tab.build.items()]
    assert "accelerator/nvidia-geforce-rtx-4090" in ids
    assert "Detected" in tab.build.notes
    assert tab.report is not None and tab.report.results  # checked like any build
    stack.undo()  # one undo step brings the previous build back
    assert tab.build.items() == ()
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]
