"""Invariants of the checks that must hold for any build a user can assemble."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category

PROPS = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


_POOLS: dict[tuple[int, Category], list] = {}


def _pool(catalog: Catalog, category: Category) -> list:
    """A category's parts, read from the catalog once per run (not once per example: reading
    4,000 accelerators 240 times was four minutes of the suite)."""
    key = (id(catalog), category)
    if key not in _POOLS:
        _POOLS[key] = [p for p in catalog.parts(category)
                       if category != Category.ACCELERATOR or p.get("form_factor") == "pcie"]
    return _POOLS[key]


def _pick(catalog: Catalog, category: Category, data: st.DataObject, label: str):
    return data.draw(st.sampled_from(_pool(catalog, category)), label=label)


def _random_build(catalog: Catalog, data: st.DataObject) -> Build:
    build = Build(name="fuzz")
    for category in (Category.CPU, Category.MOTHERBOARD, Category.PSU, Category.CASE,
                     Category.COOLER):
        if data.draw(st.booleans(), label=f"has {category.value}"):
            build.add(_pick(catalog, category, data, category.value))
    for _ in range(data.draw(st.integers(0, 3), label="gpus")):
        part = _pick(catalog, Category.ACCELERATOR, data, "gpu")
        if build.find(part.id) is None:
            build.add(part, data.draw(st.integers(1, 4), label="count"))
    if data.draw(st.booleans(), label="has memory"):
        build.add(_pick(catalog, Category.MEMORY, data, "memory"))
    return build


@PROPS
@given(st.data())
def test_adding_an_accelerator_never_lowers_the_required_power(catalog: Catalog,
                                                               data: st.DataObject) -> None:
    build = _random_build(catalog, data)
    before = check_build(build).summary.sustained_w
    extra = _pick(catalog, Category.ACCELERATOR, data, "extra")
    if build.find(extra.id) is None:
        build.add(extra)
    else:
        build.set_quantity(extra.id, build.find(extra.id).quantity + 1)
    after = check_build(build).summary.sustained_w
    if before is not None and after is not None:
        assert after >= before


@PROPS
@given(st.data(), st.integers(50, 2000))
def test_a_bigger_psu_never_turns_a_pass_into_a_fail(catalog: Catalog, data: st.DataObject,
                                                     extra_w: int) -> None:
    build = _random_build(catalog, data)
    psu = _pick(catalog, Category.PSU, data, "psu")
    wattage = psu.number("wattage_w")
    if wattage is None:
        return
    build.add(psu)
    small = {r.id: r.status for r in check_build(build).results}
    bigger = replace(psu, id=psu.id + "-bigger",
                     specs={**psu.specs, "wattage_w": int(wattage) + extra_w})
    build.replace(psu.id, bigger)
    large = {r.id: r.status for r in check_build(build).results}
    for check_id, status in small.items():
        if status == "pass":
            assert large.get(check_id, "pass") != "fail", check_id
