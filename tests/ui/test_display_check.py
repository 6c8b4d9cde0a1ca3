"""A first start on a fresh machine: missing window libraries are named with the exact
install line, and a virtual screen still starting is waited for, before Qt loads."""

from __future__ import annotations

import pytest

from dlhw_desktop.ui.shell import display_check
from dlhw_desktop.ui.shell.display_check import (
    WINDOW_LIBRARIES,
    missing_packages,
    wait_for_display,
    window_problem,
)


def test_a_library_the_loader_cannot_find_is_named_by_its_package() -> None:
    def load(name: str) -> object:
        if name == "libxcb-cursor.so.0":
            raise OSError(f"{name}: cannot open shared object file")
        return object()

    assert missing_packages(load) == ["libxcb-cursor0"]
    assert missing_packages(lambda name: object()) == []
    assert len(WINDOW_LIBRARIES) == 9


def test_the_install_line_is_said_before_qt_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_check.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(display_check, "missing_packages",
                        lambda: ["libxcb-cursor0", "libxcb-icccm4"])
    problem = window_problem()
    assert problem is not None
    assert "sudo apt-get install --no-install-recommends libxcb-cursor0 libxcb-icccm4" in problem


def test_a_display_still_starting_is_waited_for_then_used() -> None:
    answers = iter([False, False, False, True])
    said: list[str] = []
    slept: list[float] = []
    assert wait_for_display(":99", 15, answers=lambda _d: next(answers),
                            sleep=slept.append, say=said.append)
    assert len(slept) == 3 and said == ["dlhw: waiting up to 15 s for the display :99 to "
                                        "start…"]


def test_a_display_that_never_answers_is_one_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display_check.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":98")
    monkeypatch.setattr(display_check, "missing_packages", lambda: [])
    monkeypatch.setattr(display_check, "display_answers", lambda _d: False)
    monkeypatch.setattr(display_check.time, "sleep", lambda _s: None)
    problem = window_problem()
    assert problem is not None and "display :98 does not answer" in problem
    assert "xvfb-run -a dlhw" in problem


def test_offscreen_and_wayland_are_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert window_problem() is None
