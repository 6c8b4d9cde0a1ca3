"""What ``dlhw catalog build`` says about the open-data import, in words."""

from __future__ import annotations

from dlhw_desktop.catalog.opendb.importer import ATTRIBUTION, SOURCE_COMMIT, OpenDataReport
from dlhw_desktop.core.fields import Category


def summary_lines(report: OpenDataReport) -> list[str]:
    """Per category: imported, merged with a curated row, skipped (counted by reason)."""
    lines = [f"open data: {ATTRIBUTION}, commit {SOURCE_COMMIT[:7]}"]
    for category in Category:
        counts = report.categories.get(category.value)
        if counts is None:
            continue
        skipped = sum(counts.skipped.values())
        line = (f"  {category.plural:<16} {counts.imported:>6} imported, {counts.merged:>3} "
                f"merged with a curated row, {skipped:>3} skipped")
        if counts.renamed:
            line += f", {counts.renamed} duplicate names kept apart"
        lines.append(line)
        for reason, n in sorted(counts.skipped.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"      skipped {n:>4}: {reason}")
    lines.extend(report.card_lines)
    if report.disagreements:
        lines.append(f"  {len(report.disagreements)} figures where a curated row and the open "
                     "data differ (the curated figure is kept)")
    return lines
