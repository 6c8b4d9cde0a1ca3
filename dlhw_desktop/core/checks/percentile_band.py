"""Percentile bands: what a figure is for parts like this one, when its maker publishes
none, and how often a verdict on the band is wrong for a part left out of the fit.

A band is the 5th and 95th percentile of the published figures of a group of parts (towers
taking the same boards, supplies of the same wattage class). A size no larger than the
band's low end fits 95 % of the group; one larger than its high end fits at most 5 %.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def quantile(values: Sequence[float], share: float) -> float:
    """The value at ``share`` of the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[round(share * (len(ordered) - 1))]


def _groups(data: Iterable[tuple[K, float]]) -> dict[K, list[float]]:
    groups: dict[K, list[float]] = {}
    for key, value in data:
        groups.setdefault(key, []).append(value)
    return groups


def fit_bands(data: Iterable[tuple[K, float]],
              min_count: int) -> dict[K, tuple[float, float, int]]:
    """Per key with at least ``min_count`` figures: (5th, 95th percentile, count)."""
    return {key: (quantile(v, 0.05), quantile(v, 0.95), len(v))
            for key, v in sorted(_groups(data).items(), key=lambda kv: repr(kv[0]))
            if len(v) >= min_count}


def leave_out_error(data: Iterable[tuple[K, float]], min_count: int,
                    sizes: Iterable[float]) -> dict[str, float]:
    """Each figure left out in turn, each size judged against the band of the rest of its
    group (a size fits when it is no larger than the figure): the share of passes (size at
    or below the low end) that the left-out part does not take, and of fails (size above
    the high end) that it does take."""
    wanted = list(sizes)
    passes = fails = wrong_pass = wrong_fail = 0
    for values in _groups(data).values():
        if len(values) - 1 < min_count:
            continue
        ordered = sorted(values)
        for i, actual in enumerate(ordered):
            rest = ordered[:i] + ordered[i + 1:]
            low, high = quantile(rest, 0.05), quantile(rest, 0.95)
            for size in wanted:
                if size <= low:
                    passes += 1
                    wrong_pass += size > actual
                elif size > high:
                    fails += 1
                    wrong_fail += size <= actual
    return {"false_pass_share": round(wrong_pass / max(passes, 1), 3),
            "false_fail_share": round(wrong_fail / max(fails, 1), 3),
            "passes": passes, "fails": fails}
