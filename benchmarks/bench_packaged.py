"""Launch to first paint: the packaged app (dist/dlhw/dlhw) against running from source.

Run after `make package`. Both run `--exit-after-show` offscreen, interleaved, 7 times.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize

REPO = Path(__file__).resolve().parent.parent


def _run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def run(runs: int = 7) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DLHW_DATA_DIR="/tmp/dlhw-bench-pkg")
    variants = {"source": [sys.executable, "-m", "dlhw_desktop", "--exit-after-show"]}
    folder = REPO / "dist" / "dlhw" / "dlhw"
    onefile = REPO / "dist" / "dlhw-onefile"
    if folder.exists():
        variants["packaged_one_folder"] = [str(folder), "--exit-after-show"]
    if onefile.exists():
        variants["packaged_one_file"] = [str(onefile), "--exit-after-show"]
    samples: dict[str, list[float]] = {k: [] for k in variants}
    for cmd in variants.values():
        _run(cmd, env)  # warm the file cache
    for _ in range(runs):
        for name, cmd in variants.items():
            samples[name].append(_run(cmd, env))
    return {name: summarize(values) for name, values in samples.items()}


if __name__ == "__main__":
    emit("packaged launch to first paint", run())
