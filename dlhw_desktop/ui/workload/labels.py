"""Words, colours and number formats the workload widgets share (panel, What fits, advisor)."""

from __future__ import annotations

from html import escape

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

from dlhw_desktop.core import formatting
from dlhw_desktop.core.formatting import duration, gib, rate
from dlhw_desktop.core.workload import PUBLISHED_MFU, Workload
from dlhw_desktop.core.workload.training_mfu import basis as mfu_basis
from dlhw_desktop.core.workload.workload import DEFAULT_MFU
from dlhw_desktop.ui.common.theme import status_ink

__all__ = ["MODE_LABELS", "STATUS_TEXT", "STRATEGY_LABELS", "duration", "gib", "is_dark",
           "mfu_tooltip", "money", "rate", "status_text_colour", "workload_summary"]

PANEL_CENTS_BELOW = 10.0
"""The panels show cents below $10 ($0.42/h matters; $1,234 does not need cents)."""

MODE_LABELS: dict[str, str] = {
    "inference": "Inference (serving)",
    "training": "Full training",
    "lora": "LoRA fine-tuning",
    "qlora": "QLoRA fine-tuning (4-bit base)",
}

STRATEGY_LABELS: dict[str, str] = {
    "tp": "Tensor parallel (split every layer)",
    "ddp": "Data parallel (a full copy per GPU)",
    "zero1": "ZeRO-1 (shard optimizer state)",
    "zero2": "ZeRO-2 (+ shard gradients)",
    "zero3": "ZeRO-3 (+ shard weights)",
    "fsdp": "FSDP full shard",
}

STATUS_TEXT = {"pass": "Fits", "warn": "Tight", "fail": "Does not fit",
               "unknown": "Not known"}


def workload_summary(workload: Workload) -> str:
    """One line naming the job: model, mode, format, batch and sequence."""
    return (f"{workload.model.name} · {MODE_LABELS[workload.mode].split(' (')[0]} · "
            f"{workload.base_format} · batch {workload.batch} · {workload.seq_len:,} tokens")


def mfu_tooltip() -> str:
    runs = "".join(
        f"<li>{escape(r.name)} on {escape(r.hardware)}: <b>{r.mfu:.0%}</b><br>"
        f"<small>{escape(r.source)}</small></li>" for r in PUBLISHED_MFU)
    low = min(r.mfu for r in PUBLISHED_MFU)
    high = max(r.mfu for r in PUBLISHED_MFU)
    return (f"<p>Model FLOPs utilisation: the share of the GPUs' dense peak a real run "
            f"reaches. Left at {DEFAULT_MFU:.0%}, training is timed at the MFU fitted on "
            f"published multi-GPU runs for the GPU, model size and method: "
            f"{escape(mfu_basis())}. Any other value is used as yours. Published large "
            f"runs reach {low:.0%}–{high:.0%}.</p>"
            f"<ul>{runs}</ul>")


def money(value: float | None) -> str:
    """Dollars as the panels show them (``formatting.money`` with cents below $10)."""
    return formatting.money(value, cents_below=PANEL_CENTS_BELOW)


def is_dark(widget: QWidget) -> bool:
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128


def status_text_colour(status: str, dark: bool) -> str:
    """The status colour for text, at 4.5:1 on the theme's window colour."""
    return status_ink(status, QColor(43, 45, 48) if dark else QColor(239, 239, 239))
