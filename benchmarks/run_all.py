"""Run every benchmark (each in its own process), print their figures, and write
bench-results.json with the machine they ran on. `make bench` runs this."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SCRIPTS = ["bench_startup.py", "bench_search.py", "bench_checks.py", "bench_compare.py",
           "bench_compare_switch.py", "bench_fit.py", "bench_serving.py", "bench_cluster.py",
           "bench_pdf.py", "bench_memory.py", "bench_catalog_build.py",
           "bench_catalog_size.py", "bench_picker.py", "bench_price_import.py"]


def machine() -> dict[str, object]:
    import psutil

    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpu": platform.processor() or platform.machine(),
            "cores": psutil.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30),
            "date": time.strftime("%Y-%m-%d %H:%M")}


def main() -> int:
    results: dict[str, object] = {"machine": machine(), "benchmarks": {}}
    failed = []
    for script in SCRIPTS:
        print(f"\n=== {script}", flush=True)
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as handle:
            out = Path(handle.name)
        env = dict(os.environ, BENCH_JSON=str(out), QT_QPA_PLATFORM="offscreen")
        proc = subprocess.run([sys.executable, str(HERE / script)], env=env, cwd=REPO)
        if out.stat().st_size:
            data = json.loads(out.read_text())
            results["benchmarks"][data["name"]] = data["result"]  # type: ignore[index]
        if proc.returncode != 0:
            failed.append(script)
        out.unlink(missing_ok=True)
    (REPO / "bench-results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwrote {REPO / 'bench-results.json'}" + (f"; failed: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
