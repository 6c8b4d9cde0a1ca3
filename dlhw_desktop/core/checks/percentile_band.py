"""Percentile bands: what a figure is for parts like this one, when its maker publishes
none. A band is the 5th and 95th percentile of the published figures of a group of parts
(towers taking the same boards, supplies of the same wattage class): a size no larger than
its low end fits 95 % of the group; one larger than its high end fits at most 5 %.
"""

from __future__ import annotations

from collections.abc import Sequence


def quantile(values: Sequence[float], share: float) -> float:
    """The value at ``share`` of the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]
