"""Fit the training utilisation model (``training_mfu``) on published runs.

For each kept row of ``resources/benchmarks/training_measurements.csv`` the utilisation
the run implies is found by bisection on ``training_check.predict`` (the same compute
and exchange the app times a job with), so that the exchange between GPUs is not blamed
on the kernels. ln(utilisation) is then fitted by least squares on ``training_mfu``'s
features. ``holdout`` refits with every source left out in turn (rows from one repository
share a code base and a cluster, so they are not independent) and predicts its rows.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import training_check as tc
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import custom_model
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.training_mfu import FEATURES, HIGH, LOW, features
from dlhw_desktop.core.workload.workload import Workload


@dataclass(frozen=True, slots=True)
class Sample:
    """One kept row: its regressors and the utilisation it implies."""

    row: int
    source: str
    x: tuple[float, ...]
    implied: float


def implied_mfu(row: Mapping[str, str], part: Part) -> float | None:
    """The utilisation at which ``predict`` meets the row's measured rate (within
    ``LOW``-``HIGH``); ``None`` when the row cannot be predicted."""
    measured = float(row["tokens_per_s_per_gpu"])
    low, high = LOW, HIGH
    at_high = tc.predict(row, part, mfu=high)
    if at_high is None:
        return None
    if at_high <= measured:
        return high
    if tc.predict(row, part, mfu=low) >= measured:  # type: ignore[operator]
        return low
    for _ in range(40):
        mid = math.sqrt(low * high)
        if tc.predict(row, part, mfu=mid) < measured:  # type: ignore[operator]
            low = mid
        else:
            high = mid
    return math.sqrt(low * high)


def row_features(row: Mapping[str, str], part: Part) -> tuple[float, ...] | None:
    """``training_mfu.features`` of one row, as ``predict`` describes the run."""
    mode = tc.METHODS.get(row["method"].strip())
    if mode is None:
        return None
    key = next((k for pattern, k in tc.MODELS if re.search(pattern, row["model"])),
               None)
    model = preset(key) if key else custom_model(float(row["params_b"]) * 1e9)
    probe = Workload(model, mode, tc._precision(row.get("precision", ""), mode))
    peak = peak_flops(part, probe.compute)
    if peak is None:
        return None
    return features(peak, model.compute_params, mode in ("lora", "qlora"),
                    probe.compute == "FP8", "unfused attention" in row.get("note", ""))


def samples(rows: Sequence[Mapping[str, str]], find: Callable[[str], Part | None]
            ) -> list[Sample]:
    """Every kept row the app can describe, with its implied utilisation."""
    checked, _ = tc.check(rows, find)
    out: list[Sample] = []
    for c in checked:
        row = rows[c.row]
        part = find(next(pid for pattern, pid in tc.GPUS
                         if re.search(pattern, row["gpu"])))
        assert part is not None
        x = row_features(row, part)
        implied = implied_mfu(row, part)
        if x is not None and implied is not None:
            out.append(Sample(c.row, c.source, x, implied))
    return out


def least_squares(data: Sequence[Sample], ridge: float = 1e-3) -> dict[str, float]:
    """ln(implied) on the features, with a small ridge so a factor no row varies stays 0."""
    k = len(FEATURES)
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for s in data:
        y = math.log(s.implied)
        for i in range(k):
            b[i] += s.x[i] * y
            for j in range(k):
                a[i][j] += s.x[i] * s.x[j]
    for i in range(1, k):
        a[i][i] += ridge * len(data)
    # Gaussian elimination with partial pivoting
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(k):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return {name: m[i][k] / m[i][i] for i, name in enumerate(FEATURES)}


@dataclass(frozen=True, slots=True)
class Holdout:
    """Each source's rows predicted by a fit on the other sources."""

    errors: dict[int, float]
    """Row -> predicted / measured - 1."""
    sources: int

    def share_within(self, tolerance: float = 0.25) -> float:
        values = list(self.errors.values())
        return sum(abs(e) <= tolerance for e in values) / len(values) if values else 0.0

    @property
    def median_error(self) -> float:
        values = sorted(abs(e) for e in self.errors.values())
        return values[len(values) // 2] if values else float("nan")


def holdout(rows: Sequence[Mapping[str, str]], find: Callable[[str], Part | None],
            data: Sequence[Sample]) -> Holdout:
    """Leave one source out: fit on the others, predict its rows through ``check``."""
    sources = sorted({s.source for s in data})
    errors: dict[int, float] = {}
    for source in sources:
        coefficients = least_squares([s for s in data if s.source != source])
        keep = [s.row for s in data if s.source == source]
        subset = [rows[i] if i in keep else {**rows[i], "excluded_reason": "-"}
                  for i in range(len(rows))]
        checked, _ = tc.check(subset, find, coefficients=coefficients)
        errors.update({c.row: c.error for c in checked})
    return Holdout(errors, len(sources))
