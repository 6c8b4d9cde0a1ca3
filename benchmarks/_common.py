"""Shared helpers for the benchmark scripts: medians, percentiles, printing."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summarize(samples_ms: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(samples_ms), 3),
            "p95_ms": round(percentile(samples_ms, 0.95), 3),
            "min_ms": round(min(samples_ms), 3), "runs": len(samples_ms)}


def time_ms(fn: Callable[[], Any], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def show(title: str, result: dict[str, Any]) -> None:
    print(f"{title}:")
    for key, value in result.items():
        print(f"  {key:<34} {value}")


def emit(name: str, result: dict[str, Any]) -> None:
    """Print a result, and write it as JSON when run by run_all.py (BENCH_JSON is set)."""
    import json
    import os

    show(name, result)
    target = os.environ.get("BENCH_JSON")
    if target:
        with open(target, "w", encoding="utf-8") as handle:
            json.dump({"name": name, "result": result}, handle, indent=2, default=str)


def process_ms(cmd: list[str], env: dict[str, str]) -> float:
    """Wall time of one process run, start to exit."""
    start = time.perf_counter()
    # No timeout: with one, Popen.wait polls in steps of up to 50 ms and quantises timing.
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def interleaved_process_ms(commands: dict[str, list[str]], env: dict[str, str],
                           runs: int) -> dict[str, list[float]]:
    """Each command run ``runs`` times, interleaved so machine noise hits all alike,
    after one warm-up run each (file cache)."""
    for cmd in commands.values():
        process_ms(cmd, env)
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, cmd in commands.items():
            samples[name].append(process_ms(cmd, env))
    return samples
