"""Screenshots of the workload panel's serving answer and its inputs (issue #30): Llama 3.3
70B in FP8 on two RTX PRO 6000 Blackwell Workstation cards with vLLM, 1,000-token prompts,
500-token answers, 20 tokens/s per user wanted; at 1600x1000 and 1280x720, light and dark.

Usage: .venv/bin/python scripts/shoot_serving.py [OUT_DIR]   (default docs/screenshots)
Run under Xvfb (xvfb-run -a -s "-screen 0 1600x1000x24") or with QT_QPA_PLATFORM=offscreen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from _shots import build_windows, sandbox

REPO = Path(__file__).resolve().parent.parent
GPU = "accelerator/nvidia-rtx-pro-6000-blackwell-workstation-edition"
WORKLOAD = {"model": "llama-3.3-70b", "mode": "inference", "precision": "FP8",
            "kv_precision": "FP8", "serving": "vllm", "input_tokens": 1000,
            "output_tokens": 500, "target_tps": 20}


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    folder = sandbox()
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QScrollArea

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.workload.build_workload import BuildWorkload

    catalog = Catalog.open()
    for window, theme, width, height, _ in build_windows(catalog, folder):
        tab = window.build_tab
        tab.build.add(catalog.get(GPU), 2)
        tab.set_name("Two RTX PRO 6000 serving Llama 3.3 70B")
        tab.build.set_workload(BuildWorkload.from_mapping(WORKLOAD))
        tab.undo_stack.setClean()
        QTest.qWait(400)
        panel = tab.workload_panel
        assert panel is not None
        tab.right.setSizes([height // 5, height])  # as a user drags the splitter up
        QTest.qWait(200)
        scroll = panel.findChild(QScrollArea, "workload_scroll")
        view = panel.serving_view  # type: ignore[attr-defined]
        form = panel.serving_form  # type: ignore[attr-defined]
        for name, widget in (("serving", view), ("serving-inputs", form)):
            if scroll is not None:  # the widget at the top of the panel's view
                scroll.verticalScrollBar().setValue(widget.y() - 40)
            QTest.qWait(300)
            path = out / f"{name}-{width}x{height}-{theme}.png"
            window.grab().save(str(path))
            print("wrote", path)
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
