"""The picker's compatibility rules: what a buyer is offered as the build grows."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.compat.filter import FIT_FIELDS, compat_filter, is_active
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from tests.core.conftest import make_part


def cpu(name: str, socket: str | None, memory_type: str | None = "DDR5", **o: Any) -> Part:
    return make_part(Category.CPU, "AMD", name, socket=socket, memory_type=memory_type, **o)


def board(name: str, socket: str | None, memory_type: str | None = "DDR5", **o: Any) -> Part:
    return make_part(Category.MOTHERBOARD, "ASUS", name, socket=socket,
                     memory_type=memory_type, **o)


def kit(name: str, memory_type: str | None, registered: bool | None = False) -> Part:
    return make_part(Category.MEMORY, "Kingston", name, memory_type=memory_type,
                     registered=registered)


def build_of(*parts: Part) -> Build:
    build = Build()
    for part in parts:
        build.add(part)
    return build


def test_an_empty_build_hides_nothing() -> None:
    for category in Category:
        assert not is_active(compat_filter(Build(), category))


def test_an_am5_board_rules_out_lga1700_cpus_and_says_why() -> None:
    rules = compat_filter(build_of(board("TUF B650", "AM5")), Category.CPU)
    assert rules.judge(cpu("Ryzen 9 7950X", "AM5")).status == "ok"
    fit = rules.judge(make_part(Category.CPU, "Intel", "Core i9-14900K", socket="LGA 1700",
                                memory_type="DDR5; DDR4"))
    assert fit.status == "incompatible"
    assert "LGA 1700" in fit.describe() and "AM5" in fit.describe()


def test_a_cpu_with_an_unknown_socket_stays_and_is_marked() -> None:
    fit = compat_filter(build_of(board("TUF B650", "AM5")), Category.CPU).judge(
        cpu("Mystery", None))
    assert fit.status == "unknown"
    assert fit.describe() == "Not checked: socket unknown"


def test_ddr4_kits_do_not_fit_a_ddr5_platform() -> None:
    rules = compat_filter(build_of(board("TUF B650", "AM5")), Category.MEMORY)
    assert rules.judge(kit("FURY 32GB DDR5", "DDR5")).status == "ok"
    fit = rules.judge(kit("FURY 32GB DDR4", "DDR4"))
    assert fit.status == "incompatible" and "DDR4" in fit.reasons[0]


def test_registered_memory_does_not_fit_a_consumer_socket_without_dimm_kinds() -> None:
    rules = compat_filter(build_of(board("TUF B650", "AM5")), Category.MEMORY)
    fit = rules.judge(kit("RDIMM 32GB", "DDR5", registered=True))
    assert fit.status == "incompatible" and "registered" in fit.reasons[0]


def test_dimm_kinds_decide_over_the_socket() -> None:
    ws = board("W790", "LGA4677", dimm_kinds="RDIMM")
    rules = compat_filter(build_of(ws), Category.MEMORY)
    assert rules.judge(kit("RDIMM", "DDR5", registered=True)).status == "ok"
    assert rules.judge(kit("UDIMM", "DDR5", registered=False)).status == "incompatible"
    both = compat_filter(build_of(board("H13SAE", "AM5", dimm_kinds="UDIMM;RDIMM")),
                         Category.MEMORY)
    assert both.judge(kit("RDIMM", "DDR5", registered=True)).status == "ok"


def test_an_unclassified_socket_leaves_registered_unknown() -> None:
    rules = compat_filter(build_of(board("Odd", "LGA2011")), Category.MEMORY)
    fit = rules.judge(kit("RDIMM", "DDR5", registered=True))
    assert fit.status == "unknown" and "memory modules" in fit.describe()


def test_a_chosen_registered_kit_rules_out_consumer_boards() -> None:
    rules = compat_filter(build_of(kit("RDIMM", "DDR5", registered=True)), Category.MOTHERBOARD)
    assert rules.judge(board("TUF B650", "AM5")).status == "incompatible"
    assert rules.judge(board("H13SSL", "SP5")).status == "ok"


def test_case_board_size_card_length_and_cooler_height() -> None:
    case = make_part(Category.CASE, "Fractal", "North", max_gpu_length_mm=355,
                     max_cooler_height_mm=170, supported_board_form_factors="ATX; mATX")
    build = build_of(case)
    eatx = board("WRX90", "sTR5", board_form_factor="EEB")
    assert compat_filter(build, Category.MOTHERBOARD).judge(eatx).status == "incompatible"
    matx = board("B650M", "AM5", board_form_factor="Micro-ATX")
    assert compat_filter(build, Category.MOTHERBOARD).judge(matx).status == "ok"
    long_card = make_part(Category.ACCELERATOR, "ASUS", "ROG 4090", board_length_mm=357)
    fit = compat_filter(build, Category.ACCELERATOR).judge(long_card)
    assert fit.status == "incompatible" and "355 mm" in fit.reasons[0]
    tall = make_part(Category.COOLER, "Noctua", "NH-D15", height_mm=171,
                     supported_sockets="AM5")
    assert compat_filter(build, Category.COOLER).judge(tall).status == "incompatible"
    unknown = make_part(Category.COOLER, "Noctua", "NH-?", supported_sockets="AM5")
    fit = compat_filter(build, Category.COOLER).judge(unknown)
    assert fit.status == "unknown" and fit.describe() == "Not checked: height unknown"


def test_the_case_side_of_each_rule() -> None:
    card = make_part(Category.ACCELERATOR, "NVIDIA", "RTX 4090", board_length_mm=304,
                     power_connectors="1x 16-pin", tdp_w=450, form_factor="pcie")
    build = build_of(card)
    small = make_part(Category.CASE, "X", "Small", max_gpu_length_mm=300)
    big = make_part(Category.CASE, "X", "Big", max_gpu_length_mm=400)
    rules = compat_filter(build, Category.CASE)
    assert rules.judge(small).status == "incompatible"
    assert rules.judge(big).status == "ok"


def test_psus_need_the_cards_cables() -> None:
    card = make_part(Category.ACCELERATOR, "NVIDIA", "RTX 4090", power_connectors="1x 16-pin",
                     tdp_w=450, form_factor="pcie")
    build = Build()
    build.add(card, 2)
    rules = compat_filter(build, Category.PSU)
    native = make_part(Category.PSU, "X", "Two 16-pin", connectors_12vhpwr=2,
                       connectors_pcie_8pin=0)
    adapters = make_part(Category.PSU, "X", "Eight 8-pin", connectors_12vhpwr=0,
                         connectors_pcie_8pin=8)
    short = make_part(Category.PSU, "X", "One 16-pin", connectors_12vhpwr=1,
                      connectors_pcie_8pin=2)
    unknown = make_part(Category.PSU, "X", "Unknown")
    assert rules.judge(native).status == "ok"
    assert rules.judge(adapters).status == "ok"  # the check warns: adapters
    assert rules.judge(short).status == "incompatible"
    fit = rules.judge(unknown)
    assert fit.status == "unknown" and "12V-2x6" in fit.describe()


def test_cooler_sockets_against_the_cpu() -> None:
    rules = compat_filter(build_of(cpu("Threadripper 7970X", "sTR5")), Category.COOLER)
    tr5 = make_part(Category.COOLER, "Noctua", "NH-U14S TR5-SP6", supported_sockets="sTR5; SP6")
    am5 = make_part(Category.COOLER, "Noctua", "NH-D15", supported_sockets="AM5; LGA1700")
    assert rules.judge(tr5).status == "ok"
    assert rules.judge(am5).status == "incompatible"


def test_sxm_modules_are_not_offered_for_a_desktop_build() -> None:
    rules = compat_filter(build_of(board("TUF B650", "AM5")), Category.ACCELERATOR)
    sxm = make_part(Category.ACCELERATOR, "NVIDIA", "H100 SXM", form_factor="sxm")
    assert rules.judge(sxm).status == "incompatible"


def test_cloud_only_accelerators_are_never_offered_for_a_machine() -> None:
    """A TPU or a Trainium is rented, not bought: the picker hid SXM modules from a
    desktop build but listed TPU v6e first among the fastest accelerators."""
    rules = compat_filter(build_of(board("TUF B650", "AM5")), Category.ACCELERATOR)
    tpu = make_part(Category.ACCELERATOR, "Google", "TPU v6e", form_factor="cloud")
    card = make_part(Category.ACCELERATOR, "NVIDIA", "RTX 4090", form_factor="pcie")
    assert rules.judge(tpu).status == "incompatible"
    assert "cloud instance" in rules.judge(tpu).describe()
    assert rules.judge(card).status == "ok"


def test_unknown_on_the_builds_side_marks_every_candidate() -> None:
    rules = compat_filter(build_of(board("Mystery", None)), Category.CPU)
    fit = rules.judge(cpu("Ryzen 9 7950X", "AM5"))
    assert fit.status == "unknown"
    assert "socket of ASUS Mystery unknown" in fit.describe()


BUILDS = {
    "desktop": [(Category.MOTHERBOARD, "TUF B650"), (Category.CASE, "North"),
                (Category.COOLER, "NH-D15 G2"), (Category.ACCELERATOR, "GeForce RTX 4090"),
                (Category.PSU, "RM850e"), (Category.MEMORY, "VENGEANCE 32GB")],
    "workstation": [(Category.CPU, "Threadripper 7970X"), (Category.MEMORY, "M321R4GA3PB0"),
                    (Category.CASE, "7000D"), (Category.PSU, "TX-1600"),
                    (Category.ACCELERATOR, "RTX 6000 Ada")],
}


@pytest.mark.parametrize("build_name", sorted(BUILDS))
@pytest.mark.parametrize("category", [Category.CPU, Category.MEMORY, Category.COOLER,
                                      Category.CASE, Category.MOTHERBOARD, Category.PSU,
                                      Category.ACCELERATOR, Category.SERVER])
def test_sql_filter_and_hover_reasons_agree_on_the_catalog(catalog, category,
                                                           build_name) -> None:
    """Every part the SQL filter hides is one the hover calls incompatible, and back."""
    from dlhw_desktop.catalog.part_query import PartQuery

    build = Build()
    for cat, text in BUILDS[build_name]:
        found = catalog.search(PartQuery(category=cat, text=text), 0, 1)
        assert found, text
        build.add(found[0])
    rules = compat_filter(build, category)
    everything = catalog.search(PartQuery(category=category), 0, 100_000, with_sources=False)
    shown = {p.id for p in catalog.search(PartQuery(category=category, compat=rules), 0,
                                          100_000, with_sources=False)}
    judged = {p.id for p in everything if rules.judge(p).status != "incompatible"}
    assert shown == judged
    assert catalog.count(PartQuery(category=category, compat=rules)) == len(shown)
    assert set(rules.fields) <= set(FIT_FIELDS[category])  # one grouping per category
    # with search text the count runs in SQL: it agrees too
    typed = PartQuery(category=category, text="a", compat=rules)
    matching = {p.id for p in catalog.search(replace(typed, compat=None), 0, 100_000,
                                             with_sources=False)}
    assert catalog.count(typed) == len(matching & judged)
