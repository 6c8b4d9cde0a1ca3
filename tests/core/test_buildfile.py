"""Saving and opening ``.dlhw.json`` build files."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from dlhw_desktop.core.build.build import Build, BuildItem, Slot
from dlhw_desktop.core.build.buildfile import (
    Resolver,
    custom_part_id,
    is_placeholder,
    load,
    loads,
    save,
)
from dlhw_desktop.core.errors import BuildFileError, UnknownPartError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import BuildWorkload

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory


def resolver(*known: Part) -> Resolver:
    """What the catalog's ``find`` does, over a few parts."""
    by_id = {p.id: p for p in known}
    return by_id.get


@pytest.fixture
def full_build(parts: PartFactory) -> Build:
    build = Build("Lab box", notes="For the vision team.\nSecond line.", tier="demanding",
                  workload=BuildWorkload.kept_as_is(
                      {"model": "llama-3-8b", "mode": "lora", "precision": "bf16"}))
    for part, qty in ((parts.ryzen_9_7950x(), 1), (parts.proart_x670e(), 1),
                      (parts.ddr5_64gb_kit(), 2), (parts.rtx_4090(), 2),
                      (parts.samsung_990_pro_2tb(), 1), (parts.exos_x18_16tb(), 2),
                      (parts.prime_tx_1600(), 1)):
        build.add(part, qty)
    return build


def test_round_trip_keeps_everything_the_user_set(full_build: Build, tmp_path: Path) -> None:
    path = save(full_build, tmp_path / "lab.dlhw.json")
    loaded = load(path, resolver(*(i.part for i in full_build.items())))
    assert loaded.warnings == () and loaded.missing_ids == ()
    assert loaded.build.snapshot() == full_build.snapshot()


def test_file_has_the_documented_shape(full_build: Build, tmp_path: Path) -> None:
    path = save(full_build, tmp_path / "lab.dlhw.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "dlhw-build" and data["version"] == 1
    assert data["name"] == "Lab box"
    workload = data["workload"]
    # the typed workload is written in full: the preset's canonical key, every setting
    assert workload["tier"] == "demanding"
    assert {k: workload[k] for k in ("model", "mode", "precision")} == {
        "model": "llama-3.1-8b", "mode": "lora", "precision": "BF16"}
    assert BuildWorkload.from_mapping({k: v for k, v in workload.items() if k != "tier"}) \
        == full_build.workload
    assert {"id": "accelerator/nvidia-geforce-rtx-4090", "quantity": 2}.items() <= \
        data["parts"][3].items()


def test_save_is_atomic_and_leaves_no_temp_files(full_build: Build, tmp_path: Path) -> None:
    path = tmp_path / "lab.dlhw.json"
    path.write_text("old contents", encoding="utf-8")
    save(full_build, path)
    assert [p.name for p in tmp_path.iterdir()] == ["lab.dlhw.json"]
    assert json.loads(path.read_text(encoding="utf-8"))["name"] == "Lab box"


def test_failed_save_keeps_the_old_file(full_build: Build, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lab.dlhw.json"
    path.write_text("old contents", encoding="utf-8")

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(BuildFileError, match=r"cannot save lab\.dlhw\.json: No space left"):
        save(full_build, path)
    assert path.read_text(encoding="utf-8") == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["lab.dlhw.json"]


def test_save_into_a_missing_folder_is_a_build_file_error(full_build: Build,
                                                          tmp_path: Path) -> None:
    with pytest.raises(BuildFileError, match="cannot save"):
        save(full_build, tmp_path / "nope" / "x.dlhw.json")


def _doc(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "dlhw-build", "version": 1, "name": "x",
                           "parts": [{"id": "cpu/amd-ryzen-9-7950x", "quantity": 1}],
                           "workload": {"tier": None}, "notes": ""}
    doc.update(changes)
    return doc


def _part_doc(**entry: Any) -> dict[str, Any]:
    return _doc(parts=[{"id": "accelerator/nvidia-geforce-rtx-4090", **entry}])


BAD_FILES: list[tuple[str, bytes, str]] = [
    ("not json", b"this is not json", "invalid JSON"),
    ("empty", b"", "invalid JSON"),
    ("json list", b"[1, 2, 3]", "a JSON list"),
    ("not utf-8", b"\xff\xfe\x00{", "not UTF-8"),
    ("wrong format", json.dumps(_doc(format="kicad")).encode(), "not a DL Hardware build"),
    ("no format", json.dumps({"parts": []}).encode(), "not a DL Hardware build"),
    ("newer version", json.dumps(_doc(version=2)).encode(), "newer version"),
    ("text version", json.dumps(_doc(version="1")).encode(), "version must be"),
    ("missing parts", json.dumps({k: v for k, v in _doc().items() if k != "parts"}).encode(),
     "no \"parts\""),
    ("parts not a list", json.dumps(_doc(parts={"a": 1})).encode(), "must be a list"),
    ("part not an object", json.dumps(_doc(parts=["cpu/x"])).encode(), "not an object"),
    ("part without id", json.dumps(_doc(parts=[{"quantity": 1}])).encode(), "has no id"),
    ("text quantity", json.dumps(_part_doc(quantity="2")).encode(), "whole number"),
    ("fractional quantity", json.dumps(_part_doc(quantity=1.5)).encode(), "whole number"),
    ("boolean quantity", json.dumps(_part_doc(quantity=True)).encode(), "whole number"),
    ("negative quantity", json.dumps(_part_doc(quantity=-1)).encode(), "at least 1"),
    ("zero quantity", json.dumps(_part_doc(quantity=0)).encode(), "at least 1"),
    ("workload not object", json.dumps(_doc(workload=[])).encode(), "workload"),
    ("name not text", json.dumps(_doc(name=3)).encode(), "\"name\" must be text"),
]


@pytest.mark.parametrize(("label", "content", "expected"), BAD_FILES,
                         ids=[b[0] for b in BAD_FILES])
def test_bad_files_raise_one_clear_line(tmp_path: Path, parts: PartFactory, label: str,
                                        content: bytes, expected: str) -> None:
    path = tmp_path / "bad.dlhw.json"
    path.write_bytes(content)
    with pytest.raises(BuildFileError) as caught:
        load(path, resolver(parts.ryzen_9_7950x(), parts.rtx_4090()))
    message = str(caught.value)
    assert expected in message
    assert message.startswith("cannot open bad.dlhw.json: ")
    assert "\n" not in message


def test_missing_file_is_a_build_file_error(tmp_path: Path) -> None:
    with pytest.raises(BuildFileError, match=r"cannot open gone\.dlhw\.json"):
        load(tmp_path / "gone.dlhw.json", resolver())


def test_unknown_part_becomes_a_named_placeholder(parts: PartFactory) -> None:
    doc = _doc(parts=[{"id": "cpu/amd-ryzen-9-7950x", "quantity": 1},
                      {"id": "accelerator/acme-x1", "quantity": 2, "category": "accelerator",
                       "name": "ACME X1"}])
    loaded = loads(json.dumps(doc), resolver(parts.ryzen_9_7950x()))
    assert loaded.missing_ids == ("accelerator/acme-x1",)
    assert len(loaded.warnings) == 1 and "ACME X1" in loaded.warnings[0]
    (item,) = loaded.build.accelerators
    assert item.quantity == 2 and is_placeholder(item.part)
    assert item.part.display_name == "ACME X1" and item.part.number("tdp_w") is None


def test_placeholder_category_comes_from_the_id_when_not_saved(parts: PartFactory) -> None:
    loaded = loads(json.dumps(_doc(parts=[{"id": "psu/acme-1000"}])), resolver())
    assert loaded.build.psu is not None and is_placeholder(loaded.build.psu)


def test_part_of_unknown_kind_is_left_out_with_a_warning() -> None:
    loaded = loads(json.dumps(_doc(parts=[{"id": "gadget", "quantity": 1}])), resolver())
    assert len(loaded.build) == 0 and "left out" in loaded.warnings[0]


def test_placeholder_is_saved_back_under_its_id(parts: PartFactory, tmp_path: Path) -> None:
    doc = _doc(parts=[{"id": "accelerator/acme-x1", "quantity": 2}])
    loaded = loads(json.dumps(doc), resolver())
    path = save(loaded.build, tmp_path / "again.dlhw.json")
    again = json.loads(path.read_text(encoding="utf-8"))
    assert again["parts"][0]["id"] == "accelerator/acme-x1"
    assert again["parts"][0]["quantity"] == 2


def test_resolver_raising_unknown_part_is_treated_as_missing() -> None:
    def strict(part_id: str) -> Part:
        raise UnknownPartError(part_id)

    loaded = loads(json.dumps(_doc()), strict)
    assert loaded.missing_ids == ("cpu/amd-ryzen-9-7950x",)


def test_custom_parts_round_trip_even_without_the_users_parts(parts: PartFactory,
                                                              tmp_path: Path) -> None:
    mine = Part(id=custom_part_id(Category.ACCELERATOR, "Lab", "Modded 4090 48 GB"),
                category=Category.ACCELERATOR, vendor="Lab", name="Modded 4090 48 GB",
                source="our measurement", source_date="2025-03-01", price_usd=2500,
                specs={"memory_gb": 48, "tdp_w": 450, "form_factor": "pcie", "ecc": False},
                custom=True)
    build = Build("Custom")
    build.add(mine, 2)
    path = save(build, tmp_path / "custom.dlhw.json")
    assert mine.id.startswith("custom/accelerator/")

    with_parts = load(path, resolver(mine))
    assert with_parts.warnings == () and with_parts.build.accelerators == (BuildItem(mine, 2),)

    elsewhere = load(path, resolver())  # a colleague without this custom part
    (item,) = elsewhere.build.accelerators
    assert item.part == mine and item.quantity == 2
    assert "restored from the figures saved in the file" in elsewhere.warnings[0]


def test_unknown_keys_are_tolerated_and_workload_keys_kept(parts: PartFactory) -> None:
    doc = _doc(future_field={"x": 1}, workload={"tier": "less-demanding", "model": "vit-b",
                                                "batch": 64})
    doc["parts"][0]["colour"] = "red"
    loaded = loads(json.dumps(doc), resolver(parts.ryzen_9_7950x()))
    assert loaded.build.tier == "less-demanding"
    assert loaded.build.workload.to_mapping() == {"model": "vit-b", "batch": 64}


def test_unknown_tier_is_dropped_with_a_warning(parts: PartFactory) -> None:
    loaded = loads(json.dumps(_doc(workload={"tier": "extreme"})), resolver(parts.ryzen_9_7950x()))
    assert loaded.build.tier is None and "extreme" in loaded.warnings[0]


def test_single_slot_quantity_is_read_as_one(parts: PartFactory) -> None:
    board = parts.proart_x670e()
    doc = _doc(parts=[{"id": board.id, "quantity": 2}])
    loaded = loads(json.dumps(doc), resolver(board))
    assert loaded.build.occupant(Slot.MOTHERBOARD) == BuildItem(board, 1)
    assert "read as 1" in loaded.warnings[0]


def test_missing_quantity_means_one(parts: PartFactory) -> None:
    loaded = loads(json.dumps(_part_doc()), resolver(parts.rtx_4090()))
    assert loaded.build.accelerators == (BuildItem(parts.rtx_4090(), 1),)
