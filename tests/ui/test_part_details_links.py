"""Issue 15: the details pane links only http(s) sources; other schemes are plain text."""

from __future__ import annotations

import dataclasses
import re

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.parts import FigureSource
from dlhw_desktop.ui.catalog.part_details import PartDetails, part_html, web_address

BAD = ["javascript:alert(1)", "JavaScript:alert(1)", "file:///etc/passwd", "data:text/html,x",
       "vbscript:x", "smb://host/share", "https:", "http:///nohost", " https://x.example",
       "https://x.example/\x00", "//x.example/path", "ftp://x.example"]
GOOD = ["https://www.nvidia.com/en-us/", "http://example.com/a?b=c#d", "HTTPS://EXAMPLE.COM"]


@pytest.mark.parametrize("address", BAD)
def test_other_schemes_are_not_addresses(address: str) -> None:
    assert not web_address(address)


@pytest.mark.parametrize("address", GOOD)
def test_http_and_https_are(address: str) -> None:
    assert web_address(address)


def test_only_http_links_are_rendered_and_opened(qtbot: QtBot, catalog: Catalog,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    base = catalog.get("accelerator/nvidia-geforce-rtx-4090")
    part = dataclasses.replace(
        base, source="javascript:alert(document.cookie)",
        figure_sources={"tdp_w": FigureSource("file:///etc/passwd", "2025-01-01"),
                        "memory_gb": FigureSource("https://example.com/spec", "2025-01-01")})
    html = part_html(part)
    hrefs = re.findall(r"href='([^']*)'", html)
    assert hrefs == ["https://example.com/spec"]
    assert "javascript:alert(document.cookie)" in html  # still shown, as text
    assert "file:///etc/passwd" in html
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl",
                        staticmethod(lambda url: opened.append(url.toString()) or True))
    pane = PartDetails()
    qtbot.addWidget(pane)
    pane.show_part(part)
    assert not pane.openExternalLinks() and not pane.openLinks()
    for address in ("javascript:alert(1)", "file:///etc/passwd"):
        pane.anchorClicked.emit(QUrl(address))
    pane.anchorClicked.emit(QUrl("https://example.com/spec"))
    assert opened == ["https://example.com/spec"]


def test_a_link_no_browser_opens_is_copied_and_said(qtbot: QtBot, catalog: Catalog,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QGuiApplication

    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: False))
    pane = PartDetails()
    qtbot.addWidget(pane)
    pane.show_part(catalog.get("accelerator/nvidia-geforce-rtx-4090"))
    said: list[str] = []
    pane.status_message.connect(said.append)
    assert not pane.open_link(QUrl("https://example.com/datasheet.pdf"))
    assert QGuiApplication.clipboard().text() == "https://example.com/datasheet.pdf"
    assert said and "copied" in said[0] and "example.com/datasheet.pdf" in said[0]
