"""Where a curated (vendor-sourced) row and the open data describe the same part, the
curated figure is what the catalog holds; disagreements above 5 % are listed."""

from __future__ import annotations

from dlhw_desktop.catalog.builder import collect
from dlhw_desktop.resources import catalog_sources_dir


def test_curated_figures_win_over_open_data() -> None:
    rows, figure_sources, _tiers, _counts, _prices, report = collect(catalog_sources_dir())
    by_id = {r["id"]: r for r in rows}
    listed = [d for d in report.disagreements if d.share is None or d.share > 0.05]
    print("\ncurated vs BuildCores OpenDB, disagreements above 5 % (curated kept):")
    for d in listed:
        share = f"{d.share:.0%}" if d.share is not None else "differs"
        print(f"  {d.part_id} {d.field}: curated {d.curated!r}, open data {d.open_value!r} "
              f"({share}; opendb {d.opendb_id})")
    for d in report.disagreements:
        assert by_id[d.part_id][d.field] == d.curated, (d.part_id, d.field)
        # the figure keeps the curated row's own source, not the open data's
        source = figure_sources and next(
            (f for f in figure_sources if f[0] == d.part_id and f[1] == d.field), None)
        assert source is None or "buildcores" not in source[2]
    assert report.merged > 0
