"""Launch to first paint and to catalog ready: the packaged app (dist/dlhw/dlhw) against
running from source.

Run after `make package`. Each runs `--exit-after-show` (first frame) and
`--exit-when-ready` (the Catalog tab's first rows painted) offscreen, interleaved, 7 times.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, interleaved_process_ms, summarize

REPO = Path(__file__).resolve().parent.parent


def run(runs: int = 7) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DLHW_DATA_DIR="/tmp/dlhw-bench-pkg",
               XDG_CONFIG_HOME="/tmp/dlhw-bench-pkg/config")
    apps = {"source": [sys.executable, "-m", "dlhw_desktop"]}
    folder = REPO / "dist" / "dlhw" / "dlhw"
    onefile = REPO / "dist" / "dlhw-onefile"
    if folder.exists():
        apps["packaged_one_folder"] = [str(folder)]
    if onefile.exists():
        apps["packaged_one_file"] = [str(onefile)]
    variants = {f"{name}_{milestone}": [*cmd, flag] for name, cmd in apps.items()
                for milestone, flag in (("first_paint", "--exit-after-show"),
                                        ("catalog_ready", "--exit-when-ready"))}
    samples = interleaved_process_ms(variants, env, runs)
    return {name: summarize(values) for name, values in samples.items()}


if __name__ == "__main__":
    emit("packaged launch: first paint and catalog ready", run())
