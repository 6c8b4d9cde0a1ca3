"""Users read labels, never internal names: a scan of what the app shows for field names
with an underscore (``cooling_capacity_w``), bare coded values ("gpu", "pcie", "oam"),
part ids inside sentences, and maintainers' notes. Every tab with every template, the
checks panel and its tooltips, the details pane of a sample of every category, the dialogs
that open without a file, the build sheet's text (pdftotext) and the shared build, in each
of its formats. The target is zero."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QComboBox, QWidget
from pytestqt.qtbot import QtBot
from text_rules import raw_words
from visible_text import plain, visible_texts

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver, UserParts
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.templates import TEMPLATES
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.reports.build_share import share_text
from dlhw_desktop.reports.build_sheet import sheet_from_catalog
from dlhw_desktop.ui.catalog.part_details import catalog_chip_links, part_html
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.main_window import BUILD, CLUSTER, MainWindow

SAMPLE_PER_CATEGORY = 30
WORKLOAD = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "tokens": 1e9}


def _where(found: list[tuple[str, str]], place: str, into: dict[tuple[str, str], str]) -> None:
    for word, text in found:
        into.setdefault((word, text), place)


def test_the_rules_catch_what_was_reported() -> None:
    """The scan itself: the issue's examples are caught, ordinary words are not."""
    caught = {word for word, _ in raw_words([
        "cooling_capacity_w is empty", "GPUs it takes: accelerator/nvidia-h100-sxm5-80-gb",
        "gpu", "consumer", "Form factor: pcie", "8x oam", "price_kind"])}
    assert caught == {"cooling_capacity_w", "accelerator/nvidia-h100-sxm5-80-gb", "gpu",
                      "consumer", "pcie", "oam", "price_kind"}
    assert raw_words(["A consumer card with active cooling in a tower case",
                      "https://example.com/gpu_list.csv", "Accelerator · id accelerator/x",
                      "RTX 4090\naccelerator/nvidia-geforce-rtx-4090"]) == []


def test_every_tab_template_and_dialog_speaks_in_labels(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    found: dict[tuple[str, str], str] = {}
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        _where(raw_words(visible_texts(window)), window.tabs.tabText(index), found)
    catalog_tab = window.catalog_tab
    for category in Category:  # each category's own columns, filters and tooltips
        catalog_tab.set_category(category)
        qtbot.wait(10)
        _where(raw_words(visible_texts(catalog_tab)), f"catalog {category.value}", found)
    tab = window.build_tab
    combo = window.findChild(QComboBox, "workload_model")
    for template in TEMPLATES:
        window.tabs.setCurrentIndex(BUILD)
        assert tab.apply_template(template.key) is not None
        combo.setCurrentIndex(combo.findData("llama-3.1-8b"))
        qtbot.wait(10)
        _where(raw_words(visible_texts(tab)), template.key, found)
        window.tabs.setCurrentIndex(CLUSTER)
        qtbot.wait(10)
        _where(raw_words(visible_texts(window.cluster_tab)), f"cluster {template.key}", found)
        tab.undo_stack.setClean()
    window.tabs.setCurrentIndex(BUILD)
    for category in Category:  # the picker's rows, key figures and hidden-part reasons
        tab.picker.set_category(category)
        qtbot.wait(10)
        _where(raw_words(visible_texts(tab.picker)), f"picker {category.value}", found)
    for name, dialog in _dialogs(window, catalog):
        _where(raw_words(visible_texts(dialog)), name, found)
        dialog.close()
    assert found == {}, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (word, text), where in sorted(found.items()))


def _dialogs(window: MainWindow, catalog: Catalog) -> list[tuple[str, QWidget]]:
    """The dialogs that open without a file or a question, as a user would see them."""
    from dlhw_desktop.core.checks import CheckSettings
    from dlhw_desktop.ui.planner.check_settings_dialog import CheckSettingsDialog
    from dlhw_desktop.ui.planner.custom_part_dialog import CustomPartDialog

    help_window = window.help_window()
    help_window.show_guide()  # type: ignore[attr-defined]
    guide = visible_texts(help_window)
    help_window.show_shortcuts()  # type: ignore[attr-defined]
    dialogs: list[tuple[str, QWidget]] = [("user guide", help_window)]
    assert guide  # read before the shortcuts replaced it
    dialogs.append(("check settings", CheckSettingsDialog(CheckSettings(), window)))
    for category in (Category.ACCELERATOR, Category.COOLER, Category.CASE, Category.SERVER):
        dialogs.append((f"custom {category.value}",
                        CustomPartDialog(UserParts(), category, window)))
    panel = window.build_tab.findChild(QWidget, "workload_panel")
    if panel is not None and hasattr(panel, "open_what_fits"):
        fits = panel.open_what_fits()
        if fits is not None:
            dialogs.append(("what fits", fits))
        dialogs.append(("advisor", panel.open_advisor()))
    for widget in (w for _, w in dialogs):
        widget.show()
    return [("user guide text", _Texts(guide)), *dialogs]


class _Texts(QWidget):
    """Texts read earlier, scanned like a widget's."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__()
        self.setToolTip("\n".join(texts))


def test_the_details_pane_of_every_category_speaks_in_labels(catalog: Catalog) -> None:
    links = catalog_chip_links(catalog)
    found: dict[tuple[str, str], str] = {}
    shown = 0
    for category in Category:
        parts = catalog.parts(category)
        step = max(1, len(parts) // SAMPLE_PER_CATEGORY)
        for part in parts[::step]:
            text = plain(part_html(part, links(part), enterable=True))
            _where(raw_words(text.split("\n")), part.id, found)
            shown += 1
    assert shown > 250
    assert found == {}, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (word, text), where in sorted(found.items()))


def _pdf_lines(text: str) -> list[str]:
    """pdftotext's lines (``-layout``), a web address wrapped in its table cell joined
    back: the next line's text that starts in the address's column continues it."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        above = lines[i - 1]
        start = above.find("://")
        if start < 0:
            continue
        column = above.rfind(" ", 0, start) + 1
        line = lines[i]
        if len(line) > column and line[column] != " " and not line[:column].strip():
            end = line.find(" ", column) % (len(line) + 1)  # -1: to the line's end
            url_end = above.find(" ", start) % (len(above) + 1)
            lines[i - 1] = above[:url_end] + line[column:end] + above[url_end:]
            lines[i] = line[:column] + line[end:]
    return lines


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
def test_the_build_sheet_and_the_shared_build_speak_in_labels(
        qapp: Any, catalog: Catalog, tmp_path: Path) -> None:
    from dlhw_desktop.ui.pdf import write_build_sheet_pdf

    resolver = PartResolver(catalog, UserParts())
    tiers = tiers_from_rows(catalog.tier_rows())
    found: dict[tuple[str, str], str] = {}
    for template in TEMPLATES:
        document = {"format": buildfile.FORMAT, "version": buildfile.VERSION,
                    "name": template.name, "notes": template.description,
                    "workload": {"tier": template.tier, **WORKLOAD},
                    "parts": [{"id": i, "quantity": q} for i, q in template.parts]}
        build = buildfile.from_dict(document, resolver).build
        sheet = sheet_from_catalog(build, check_build(build, None, tiers), catalog,
                                   date="2026-11-28")
        path = tmp_path / f"{template.key}.pdf"
        write_build_sheet_pdf(sheet, path, "a4")
        text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                              text=True, check=True).stdout
        _where(raw_words(_pdf_lines(text)), f"sheet {template.key}", found)
        for fmt in ("markdown", "bbcode", "text"):
            shared = share_text(sheet, fmt)
            _where(raw_words(shared.split("\n")), f"share {fmt} {template.key}", found)
    assert found == {}, "\n".join(f"{where}: {word!r} in {text!r}"
                                  for (word, text), where in sorted(found.items()))
