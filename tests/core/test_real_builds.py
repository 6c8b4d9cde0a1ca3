"""Published real builds entered from catalog parts, each with the verdict its source supports.

The table is in ``real_builds.py`` (sources, dates, parts as published). For each build:

- every published part name, typed into the catalog search as a user would, finds the
  catalog part the build uses (no custom parts, no placeholders);
- the checks give the verdict the source supports: nothing fails for a build that works,
  and the named check fails for a documented failure.

A build with a part the catalog lacks is an expected failure (strict), naming the part.
"""

from __future__ import annotations

import pytest

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.core.fields import Category
from tests.core.real_builds import BUILDS, RealBuild

SEARCH_LIMIT = 400
"""How far down the search results a user would look (the list is sorted by name)."""


def _params() -> list[object]:
    params: list[object] = []
    for build in BUILDS:
        marks = ([pytest.mark.xfail(strict=True, reason="missing: " + "; ".join(build.missing))]
                 if build.missing else [])
        params.append(pytest.param(build, id=build.key, marks=marks))
    return params


def enter(catalog: Catalog, real: RealBuild) -> Build:
    build = Build(name=real.title)
    for line in real.parts:
        part = catalog.find(line.part_id)
        assert part is not None, f"{line.name!r}: {line.part_id} is not in the catalog"
        assert not part.custom
        build.add(part, line.quantity)
    return build


@pytest.mark.parametrize("real", _params())
def test_each_published_name_finds_its_part(catalog: Catalog, real: RealBuild) -> None:
    lost = []
    for line in real.parts:
        query = PartQuery(category=Category(line.category), text=line.name)
        found = {p.id for p in catalog.search(query, limit=SEARCH_LIMIT, with_sources=False)}
        if line.part_id not in found:
            lost.append(f"{line.name!r} does not find {line.part_id} ({len(found)} results)")
    assert not lost, "; ".join(lost)


@pytest.mark.parametrize("real", _params())
def test_the_checks_give_the_verdict_the_source_supports(catalog: Catalog,
                                                         real: RealBuild) -> None:
    build = enter(catalog, real)
    report = check_build(build, CheckSettings(mains=real.mains))
    failing = {r.id: r.message for r in report.results if r.status == "fail"}
    if real.expect == "works":
        assert not failing, f"{real.title} works per its source, the app says: {failing}"
    else:
        assert real.expect in failing, (
            f"{real.title} fails per its source ({real.why}); the app's failures: {failing}; "
            f"{real.expect}: {report.get(real.expect)}")
    for check_id in real.warn:
        result = report.get(check_id)
        assert result is not None and result.status in ("warn", "fail"), (check_id, result)


def test_the_table_is_fifteen_builds_with_at_least_two_failures() -> None:
    assert len(BUILDS) == 15
    assert len({b.key for b in BUILDS}) == 15
    assert sum(b.expect != "works" for b in BUILDS) >= 2
    assert all(b.source.startswith("http") and b.date for b in BUILDS)
