"""Platform rows fill what a CPU row leaves empty: lanes, PCIe generation, memory channels,
ECC and DIMM kinds, each with the platform row's source; a figure a CPU row states wins."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog.builder import collect
from dlhw_desktop.catalog.platforms import (
    PLATFORMS_FILE,
    apply_platforms,
    platform_for,
    read_platforms,
    socket_key,
)
from dlhw_desktop.catalog.source_refs import OPENDB_PREFIX
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.resources import catalog_sources_dir

# Every platform issue #16 names has a row.
NAMED_SOCKETS = ("AM4", "AM5", "sTRX4", "sTR5", "sWRX8", "LGA1200", "LGA1700", "LGA1851",
                 "LGA2066", "LGA3647", "LGA4189", "LGA4677", "LGA4710", "LGA7529", "SP3",
                 "SP5", "SP6", "LGA4926")


@pytest.fixture(scope="module")
def platforms() -> list[Any]:
    return read_platforms(catalog_sources_dir())


def _cpu(name: str, socket: str, family: str = "", **figures: Any) -> dict[str, Any]:
    return {"id": f"cpu/{name.lower().replace(' ', '-')}", "category": "cpu", "name": name,
            "family": family, "socket": socket, **figures}


def test_every_named_platform_has_a_sourced_row(platforms: list[Any]) -> None:
    sockets = {socket_key(p.socket) for p in platforms}
    assert {socket_key(s) for s in NAMED_SOCKETS} <= sockets
    for platform in platforms:
        assert platform.source.startswith("https://"), platform.name
        if platform.figures["pcie_generation"] is None:  # only with the reason stated
            assert re.search(r"left (empty|unknown)", platform.notes), platform.name
        for field, value in platform.figures.items():
            if value is None and field in ("pcie_lanes", "pcie_generation"):
                assert re.search(r"left (empty|unknown)|differ", platform.notes), (
                    platform.name, field)


SINGLE_SOCKET = ("AM4", "AM5", "sTR4", "sTRX4", "sTR5", "sWRX8", "LGA1150", "LGA1151",
                 "LGA1155", "LGA1200", "LGA1700", "LGA1851", "LGA2066", "AM3+", "FM2", "FM2+")


@pytest.mark.parametrize("socket", SINGLE_SOCKET)
def test_a_desktop_socket_gives_one_socket(platforms: list[Any], socket: str) -> None:
    rows = [p for p in platforms if socket_key(p.socket) == socket_key(socket)]
    assert rows, socket
    assert {p.figures["max_sockets"] for p in rows} == {1}, socket


@pytest.mark.parametrize(("name", "socket", "sockets", "lanes"), [
    ("Xeon E5 1650 V3", "LGA 2011-3", 1, 40),
    ("Xeon E5 2690 V4", "LGA 2011-3", 2, 40),
    ("Xeon E5-4650 v4", "LGA2011-3", 4, 40),
    ("Core i7 5820K", "LGA 2011-3", 1, 28),
    ("Core i7 6850K", "LGA 2011-3", 1, 40),
    ("Core i7 Extreme 6950X", "LGA 2011-3", 1, 40),
    ("Xeon E5 2690", "LGA 2011", 2, 40),
    ("Xeon E5-1650 v2", "LGA 2011", 1, 40),
    ("Xeon E5-2470 v2", "LGA 1356", 2, 24),
    ("Core i7 4790K", "LGA 1150", 1, 16),
    ("Core i5 9600K", "LGA 1151", 1, 16),
    ("Core i5 7640X", "LGA 2066", 1, 16),  # the open data writes a space, Intel a hyphen
    ("Core i7 7820X", "LGA 2066", 1, 28),
    ("Ryzen Threadripper 2990WX", "sTR4", 1, 60),
    ("Opteron 6378", "G34", 4, None),  # the lanes are on the chipset
    ("FX-8350", "AM3+", 1, None),
    ("Athlon 3000G", "AM4", 1, None),  # APU lanes differ by part
])
def test_older_sockets_and_server_sku_classes(platforms: list[Any], name: str, socket: str,
                                              sockets: int, lanes: int | None) -> None:
    platform = platform_for(_cpu(name, socket), platforms)
    assert platform is not None, name
    assert platform.figures["max_sockets"] == sockets, (name, platform.name)
    assert platform.figures["pcie_lanes"] == lanes, (name, platform.name)


@pytest.mark.parametrize("name", ["Athlon 200GE", "A12-9800", "Ryzen 5 4500", "Ryzen 3 2200G",
                                  "Ryzen 5 PRO 4650G"])
def test_every_am4_cpu_gets_a_generation_or_a_socket_count(platforms: list[Any],
                                                          name: str) -> None:
    platform = platform_for(_cpu(name, "AM4"), platforms)
    assert platform is not None and platform.figures["max_sockets"] == 1
    if "PRO" not in name:
        assert platform.figures["pcie_generation"] == 3, (name, platform.name)


@pytest.mark.parametrize("socket", ["SP3", "SP5", "LGA4189", "LGA4710", "LGA7529"])
def test_server_sockets_leave_the_socket_count_to_the_sku(platforms: list[Any],
                                                         socket: str) -> None:
    """EPYC P parts are 1P, the others 2P: the CPU row says, never the socket."""
    for platform in platforms:
        if socket_key(platform.socket) == socket_key(socket) and "Xeon W" not in platform.name:
            assert platform.figures["max_sockets"] is None, platform.name


@pytest.mark.parametrize(("name", "socket", "family", "lanes", "channels"), [
    ("Ryzen Threadripper PRO 9995WX", "sTR5", "Zen 5 (Threadripper PRO 9000 WX)", 144, 8),
    ("Ryzen Threadripper 9980X", "sTR5", "Zen 5 (Threadripper 9000)", 88, 4),
    ("Xeon w7-2495X", "LGA4677", "Sapphire Rapids (Xeon W-2400)", 64, 4),
    ("Xeon w9-3595X", "LGA4677", "Sapphire Rapids (Xeon W-3500)", 112, 8),
    ("Xeon Platinum 8480+", "LGA4677", "Sapphire Rapids", 80, 8),
    ("Xeon Platinum 8380", "LGA4189", "Ice Lake", 64, 8),
    ("Xeon Platinum 8380H", "LGA4189", "Cooper Lake", 48, 6),
    ("EPYC 7551", "SP3", "Zen (EPYC 7001)", 128, 8),
    ("Ryzen 9 5950X", "AM4", "Zen 3", 20, 2),
])
def test_a_socket_with_several_series_picks_the_cpus_own(
        platforms: list[Any], name: str, socket: str, family: str, lanes: int,
        channels: int) -> None:
    platform = platform_for(_cpu(name, socket, family), platforms)
    assert platform is not None
    assert platform.figures["pcie_lanes"] == lanes
    assert platform.figures["memory_channels"] == channels


def test_pcie_generation_follows_the_series_not_just_the_socket(platforms: list[Any]) -> None:
    naples = platform_for(_cpu("EPYC 7601", "SP3"), platforms)
    rome = platform_for(_cpu("EPYC 7402P", "SP3"), platforms)
    assert naples is not None and rome is not None
    assert (naples.figures["pcie_generation"], rome.figures["pcie_generation"]) == (3, 4)


def test_empty_figures_are_filled_with_the_platform_source(platforms: list[Any]) -> None:
    parts = {"cpu/x": _cpu("Xeon Gold 6430", "LGA4677", "Sapphire Rapids") | {"id": "cpu/x"}}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    filled = apply_platforms(parts, platforms, sources)
    cpu = parts["cpu/x"]
    assert (cpu["pcie_lanes"], cpu["pcie_generation"], cpu["memory_channels"]) == (80, 5, 8)
    assert cpu["ecc_support"] is True and cpu["dimm_kinds"] == "RDIMM"
    assert filled == 5
    source = sources[("cpu/x", "pcie_lanes")]
    assert source[2].startswith("https://") and "LGA4677" in source[4]


def test_a_figure_read_on_another_cpus_page_is_derived(platforms: list[Any]) -> None:
    from dataclasses import replace

    from dlhw_desktop.catalog.platforms import platform_note

    gold = _cpu("Xeon Gold 6430", "LGA4677", "Sapphire Rapids")
    platform = platform_for(gold, platforms)
    assert platform is not None
    sibling = replace(platform, source="https://www.intel.com/sku/xeon-platinum-8480/specs")
    note = platform_note(gold, sibling)
    assert note.startswith("derived:") and "another CPU's" in note
    own = replace(platform, source="https://www.intel.com/sku/xeon-gold-6430/specs")
    assert platform_note(gold, own).startswith("platform figure:")


def test_a_stated_figure_is_never_replaced(platforms: list[Any]) -> None:
    parts = {"cpu/y": _cpu("Ryzen Threadripper PRO 7995WX", "sTR5", pcie_lanes=128,
                           ecc_support=False) | {"id": "cpu/y"}}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    apply_platforms(parts, platforms, sources)
    assert parts["cpu/y"]["pcie_lanes"] == 128
    assert parts["cpu/y"]["ecc_support"] is False
    assert ("cpu/y", "pcie_lanes") not in sources
    assert parts["cpu/y"]["memory_channels"] == 8


def test_sockets_are_matched_however_they_are_spelled(platforms: list[Any]) -> None:
    assert socket_key("Socket sTR5") == socket_key("STR5")
    assert socket_key("LGA 1700") == socket_key("lga-1700") == "lga1700"
    cpu = _cpu("Core i9-14900K", "LGA 1700")
    platform = platform_for(cpu, platforms)
    assert platform is not None and platform.figures["pcie_lanes"] == 20


def test_unknown_socket_and_other_categories_are_left_alone(platforms: list[Any]) -> None:
    parts = {"cpu/z": _cpu("Mystery", "LGA9999") | {"id": "cpu/z"},
             "motherboard/b": {"id": "motherboard/b", "category": "motherboard",
                               "socket": "SP5", "name": "Board"}}
    assert apply_platforms(parts, platforms, {}) == 0
    assert "pcie_lanes" not in parts["cpu/z"]
    assert "memory_channels" not in parts["motherboard/b"]


def test_the_build_fills_curated_cpus(tmp_path: Path) -> None:
    rows, figure_sources, *_ = collect(catalog_sources_dir())
    by_id = {r["id"]: r for r in rows}
    epyc = by_id["cpu/amd-epyc-7402p"]
    assert epyc["ecc_support"] is True and epyc["dimm_kinds"] == "RDIMM;LRDIMM"
    sourced = {(f[0], f[1]) for f in figure_sources}
    assert ("cpu/amd-epyc-7402p", "dimm_kinds") in sourced
    curated = [r for r in rows if r["category"] == "cpu" and r.get("socket")
               and not r["source"].startswith(OPENDB_PREFIX)]
    assert curated and all(r.get("pcie_generation") is not None for r in curated)


@pytest.mark.parametrize(("cell", "message"), [
    ("cpu_pattern", "cpu_pattern"),
    ("source_date", "not an ISO date"),
    ("pcie_lanes", "pcie_lanes"),
])
def test_a_bad_platform_row_names_file_and_line(tmp_path: Path, cell: str,
                                                message: str) -> None:
    folder = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), folder)
    bad = {"cpu_pattern": "Ryzen (", "source_date": "26.11.2026", "pcie_lanes": "lots"}
    good = {"platform": "Test", "socket": "XYZ", "cpu_pattern": "", "memory_types": "",
            "pcie_lanes": "", "pcie_generation": "", "memory_channels": "",
            "ecc_support": "", "dimm_kinds": "", "max_sockets": "", "source": "https://example.com",
            "source_date": "2026-11-26", "notes": ""}
    good[cell] = bad[cell]
    path = folder / PLATFORMS_FILE
    header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
    lines = len(path.read_text(encoding="utf-8").splitlines())
    with path.open("a", encoding="utf-8") as handle:
        handle.write(",".join(f'"{good[c]}"' for c in header) + "\n")
    with pytest.raises(CatalogSourceError, match=rf"{PLATFORMS_FILE}:{lines + 1}.*{message}"):
        read_platforms(folder)


@pytest.mark.parametrize(("name", "socket", "generation", "lanes"), [
    ("Ryzen 7 5700", "AM4", 3, None),      # Cezanne die without graphics: PCIe 3.0
    ("Ryzen 5 5600GT", "AM4", 3, None),
    ("Ryzen 7 5800X3D", "AM4", 4, 20),
    ("Ryzen 5 8400F", "AM5", 4, None),     # Phoenix on AM5: PCIe 4.0, not 5.0
    ("Ryzen 9 9950X3D", "AM5", 5, 24),
    ("Core i7-7820X", "LGA2066", 3, 28),
    ("Core i7-7740X", "LGA2066", 3, 16),
    ("Core i9-7980XE", "LGA2066", 3, 44),
])
def test_exceptions_within_a_socket_win_over_the_socket_default(
        platforms: list[Any], name: str, socket: str, generation: int,
        lanes: int | None) -> None:
    platform = platform_for(_cpu(name, socket), platforms)
    assert platform is not None
    assert platform.figures["pcie_generation"] == generation
    assert platform.figures["pcie_lanes"] == lanes
