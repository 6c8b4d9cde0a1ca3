"""A chip and its board-partner cards in the Catalog tab and the Compare picker."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.catalog.part_details import ChipLinks, part_html
from dlhw_desktop.ui.common.part_table_model import PART_ROLE
from dlhw_desktop.ui.compare.compare_picker import AcceleratorPicker
from dlhw_desktop.ui.compare.compare_widgets import ID_ROLE

CHIP = "accelerator/nvidia-geforce-rtx-4090"
STRIX = "accelerator/asus-rog-strix-gaming-oc-geforce-rtx-4090-24gb-gddr6x-black"


@pytest.fixture(scope="module")
def cards_catalog(fresh_catalog_path: Path) -> Catalog:
    return Catalog.open(fresh_catalog_path)


def make_tab(qtbot: QtBot, catalog: Catalog) -> CatalogTab:
    tab = CatalogTab(catalog)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    return tab


def shown(tab: CatalogTab) -> list:
    while tab.model.canFetchMore():
        tab.model.fetchMore()
    return [tab.model.index(r, 0).data(PART_ROLE) for r in range(tab.model.rowCount())]


def test_a_chip_lists_its_cards_and_show_all_returns(qtbot: QtBot,
                                                    cards_catalog: Catalog) -> None:
    tab = make_tab(qtbot, cards_catalog)
    everything = tab.model.total
    assert tab.select_part(CHIP)
    text = tab.details.toPlainText()
    assert "board-partner cards built on this chip" in text and "List them" in text
    assert "<span" not in text and "$1,599 — " in text  # the price's markup is not shown
    count = int(text.split(" board-partner cards built on this chip")[0].split()[-1])
    assert count >= 40
    tab.details.anchorClicked.emit(QUrl(f"dlhw-cards:{CHIP}"))  # the "List them" link
    cards = shown(tab)
    assert len(cards) == tab.model.total == count
    assert all(p.get("chip_id") == CHIP for p in cards)
    assert tab.result_label.text() == (
        f"{count} board-partner cards of NVIDIA GeForce RTX 4090")
    assert tab.all_cards_button.isVisible()
    qtbot.mouseClick(tab.all_cards_button, _left())
    assert tab.model.total == everything and not tab.all_cards_button.isVisible()
    assert tab.result_label.text() == f"{everything:,} parts"


def test_a_cards_list_can_be_searched_and_ends_with_another_category(
        qtbot: QtBot, cards_catalog: Catalog) -> None:
    tab = make_tab(qtbot, cards_catalog)
    tab.set_category(Category.CPU)
    tab.show_chip_cards(CHIP)  # from any category
    assert tab.category is Category.ACCELERATOR
    tab.search.setText("strix")
    tab.apply_query()
    cards = shown(tab)
    assert cards and all(p.vendor == "ASUS" and p.get("chip_id") == CHIP for p in cards)
    tab.set_category(Category.PSU)
    tab.set_category(Category.ACCELERATOR)
    assert not tab.all_cards_button.isVisible()
    strix = shown(tab)  # the search stays; the chip's list has ended
    assert len(strix) > len(cards)
    assert any(p.get("chip_id") not in (None, CHIP) for p in strix)


def test_a_card_links_back_to_its_chip(qtbot: QtBot, cards_catalog: Catalog) -> None:
    tab = make_tab(qtbot, cards_catalog)
    assert tab.select_part(STRIX)
    text = tab.details.toPlainText()
    assert "Board-partner card built on NVIDIA GeForce RTX 4090" in text
    assert "GPU chip\nNVIDIA GeForce RTX 4090\n" in text  # its name, not its id
    assert "358" in text and "(the chip's" in text  # a figure taken from the chip says so
    tab.details.anchorClicked.emit(QUrl(f"dlhw-part:{CHIP}"))
    assert tab.details.part is not None and tab.details.part.id == CHIP
    assert tab.selected_ids() == [CHIP]


def test_other_parts_say_nothing_of_chips(cards_catalog: Catalog) -> None:
    cpu = cards_catalog.parts(Category.CPU)[0]
    assert "board-partner" not in part_html(cpu, ChipLinks(card_count=3))
    lonely = cards_catalog.get("accelerator/nvidia-a100-pcie-40-gb")
    assert "board-partner" not in part_html(lonely, ChipLinks(card_count=0))


def test_the_compare_picker_offers_chips_not_their_cards(qtbot: QtBot,
                                                        cards_catalog: Catalog) -> None:
    picker = AcceleratorPicker(cards_catalog, set(), lambda: "BF16")
    qtbot.addWidget(picker)
    picker.setText("4090")
    picker.update_completions()
    offered = [picker.completions.item(r).data(ID_ROLE)
               for r in range(picker.completions.rowCount())]
    assert CHIP in offered
    assert not any(cards_catalog.get(i).get("chip_id") for i in offered)
    picker.include_cards = True
    picker.update_completions()
    offered = [picker.completions.item(r).data(ID_ROLE)
               for r in range(picker.completions.rowCount())]
    assert any(cards_catalog.get(i).get("chip_id") == CHIP for i in offered)


def _left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton
