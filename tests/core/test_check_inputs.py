"""The declared check inputs (``core.check_inputs``) and the checks cannot drift apart.

- Every figure a check reads on a complete build is declared (as an input, or as optional
  with what happens without it).
- Blanking any declared input makes the checks it names say "unknown", naming the figure
  by its human label and the part by its name: a check never guesses a missing figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import WorkloadTier
from dlhw_desktop.core.checks import run_checks
from dlhw_desktop.core.checks.inputs import CHECK_INPUTS, OPTIONAL_INPUTS, CheckInput, applies_to
from dlhw_desktop.core.fields import COMMON_NAMES, FIELDS_BY_NAME, Category, field_label
from dlhw_desktop.core.parts import Part, make_part_id


def make_part(category: Category, vendor: str, name: str, **specs: object) -> Part:
    return Part(id=make_part_id(category, vendor, name), category=category, vendor=vendor,
                name=name, source="test fixture", source_date="2025-01-15",
                specs=dict(specs))  # type: ignore[arg-type]


def _server() -> Part:
    return make_part(Category.SERVER, "Supermicro", "SYS-821GE-TNHR", gpu_form_factor="sxm",
                     gpu_count=8, psu_count=6, psu_unit_w=3000, psu_redundancy="3+3",
                     max_power_w=10_200, socket="LGA4677", cpu_sockets=2, memory_slots=32,
                     memory_type="DDR5", max_memory_gb=8192, complete_system=False,
                     baseboard="HGX H100 8-GPU")


def _xeon() -> Part:
    return make_part(Category.CPU, "Intel", "Xeon Platinum 8480+", cores=56, threads=112,
                     tdp_w=350, socket="LGA4677", memory_type="DDR5", memory_channels=8,
                     max_memory_gb=4096, pcie_lanes=80, max_sockets=2)


def _aio(**o: Any) -> Part:
    specs: dict[str, Any] = dict(cooler_kind="aio", radiator_mm=360, cooling_capacity_w=300,
                                 supported_sockets="AM4, AM5, LGA1700, LGA1851")
    specs.update(o)
    return make_part(Category.COOLER, "ARCTIC", "Liquid Freezer III Pro 360", **specs)


def scenarios(F: Any, build_of: Callable[..., Build]) -> dict[str, Build]:
    """Builds in which every declared input is read; every figure filled."""
    workstation = build_of(
        F.tr_pro_7975wx(max_sockets=1),
        F.wrx90e_sage(cpu_sockets=1, x16_slot_spacing=1),
        (F.ddr5_rdimm_32gb(), 8), (F.rtx_4090(), 2),
        F.samsung_990_pro_2tb(), F.samsung_870_evo_4tb(), F.prime_tx_1600(),
        F.nh_u14s_tr5(cooling_capacity_w=350), F.define_7_xl(), tier="demanding")
    eight_pin = build_of(
        F.ryzen_9_7950x(max_sockets=1), F.proart_x670e(cpu_sockets=1), F.ddr5_64gb_kit(),
        F.rx_7900_xtx(), F.samsung_990_pro_2tb(), F.rm850x(), F.dark_rock_pro_5(),
        F.meshify_2())
    liquid = build_of(
        F.ryzen_9_7950x(max_sockets=1), F.proart_x670e(cpu_sockets=1), F.ddr5_64gb_kit(),
        F.rx_7900_xtx(), F.samsung_990_pro_2tb(), F.rm850x(), _aio(),
        F.meshify_2(max_radiator_mm=360))
    dual = build_of((F.epyc_7443(), 2), F.h12dsi_n6(), (F.ddr5_rdimm_32gb(memory_type="DDR4"), 16))
    passive = build_of(F.a100_pcie_80gb(), F.rackmount_4u(max_gpu_length_mm=450))
    server = build_of(_server(), (F.h100_sxm(), 8), (_xeon(), 2),
                      (F.ddr5_rdimm_32gb(), 16))
    # Two 3-slot cards in a board's two x16 slots: only the spacing says whether they fit.
    wide_cards = build_of(F.ryzen_9_7950x(max_sockets=1), F.proart_x670e(cpu_sockets=1),
                          (F.rtx_4090(), 2))
    return {"workstation": workstation, "8-pin card": eight_pin, "aio": liquid,
            "wide cards": wide_cards,
            "dual socket": dual,
            "passive card": passive, "gpu server": server}


def _blank(part: Part, names: tuple[str, ...]) -> Part:
    return replace(part, specs={k: v for k, v in part.specs.items() if k not in names})


def _with_blank(build: Build, category: Category, names: tuple[str, ...]) -> Build | None:
    """The build with ``names`` blanked on its part(s) of ``category``; None if it has none."""
    copy = Build(build.name, tier=build.tier)
    touched = False
    for item in build.items():
        part = item.part
        if part.category is category:
            part, touched = _blank(part, names), True
        copy.add(part, item.quantity)
    return copy if touched else None


def _cases() -> Iterator[tuple[Category, CheckInput]]:
    for category, inputs in CHECK_INPUTS.items():
        for spec in inputs:
            yield category, spec


@pytest.mark.parametrize(("category", "spec"), list(_cases()),
                         ids=[f"{c.value}.{s.field}" for c, s in _cases()])
def test_a_missing_input_is_unknown_and_named(
        category: Category, spec: CheckInput, part_factory: Any,
        make_build: Callable[..., Build], tier_set: dict[str, WorkloadTier]) -> None:
    assert spec.field in FIELDS_BY_NAME
    assert category in FIELDS_BY_NAME[spec.field].categories
    label = field_label(spec.field)
    said: list[str] = []
    for name, build in scenarios(part_factory, make_build).items():
        blanked = _with_blank(build, category, (spec.field, *spec.or_else))
        if blanked is None:
            continue
        parts = [i.part for i in blanked.items() if i.part.category is category
                 and applies_to(spec, i.part)]
        for result in run_checks(blanked, tiers=tier_set):
            if result.id not in spec.checks:
                continue
            if "_" in spec.field:  # an internal name never reaches a user
                assert spec.field not in result.message, (name, result.message)
            if result.status == "unknown" and label.lower() in result.message.lower() and any(
                    p.display_name in result.message for p in parts):
                said.append(result.id)
    assert set(said) == set(spec.checks), (
        f"blanking {spec.field} on a {category.value}: expected {spec.checks} to say unknown "
        f"naming '{label}', got {sorted(set(said))}")


def test_every_figure_the_checks_read_is_declared(
        monkeypatch: pytest.MonkeyPatch, part_factory: Any,
        make_build: Callable[..., Build], tier_set: dict[str, WorkloadTier]) -> None:
    read: set[tuple[Category, str]] = set()
    original = Part.get

    def tracing_get(self: Part, name: str):  # type: ignore[no-untyped-def]
        read.add((self.category, name))
        return original(self, name)

    monkeypatch.setattr(Part, "get", tracing_get)
    for build in scenarios(part_factory, make_build).values():
        run_checks(build, tiers=tier_set)
    monkeypatch.undo()
    undeclared = sorted(
        f"{category.value}.{name}" for category, name in read
        if name not in COMMON_NAMES
        and name not in {s.field for s in CHECK_INPUTS[category]}
        and not any(name in s.or_else for s in CHECK_INPUTS[category])
        and name not in OPTIONAL_INPUTS[category])
    assert not undeclared, f"checks read figures core.check_inputs does not declare: {undeclared}"


def test_the_scenarios_are_complete_builds(
        part_factory: Any, make_build: Callable[..., Build],
        tier_set: dict[str, WorkloadTier]) -> None:
    """With every figure present, no declared check is unknown for want of one."""
    for name, build in scenarios(part_factory, make_build).items():
        for result in run_checks(build, tiers=tier_set):
            assert "missing" not in result.message, (name, result.id, result.message)


def test_inputs_apply_by_form_factor(part_factory: Any) -> None:
    F = part_factory
    slot_width = next(s for s in CHECK_INPUTS[Category.ACCELERATOR] if s.field == "slot_width")
    assert applies_to(slot_width, F.rtx_4090())
    assert not applies_to(slot_width, F.h100_sxm())
    assert not applies_to(slot_width, F.tpu_v5e())
