"""Which model file or folder a drag onto the workload panel carries."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData

MODEL_SUFFIXES = (".gguf", ".json", ".safetensors")


def dropped_path(mime: QMimeData) -> Path | None:
    """The model file or folder a drag carries (a local file URL), else None."""
    if not mime.hasUrls():
        return None
    for url in mime.urls():
        if url.isLocalFile():
            path = Path(url.toLocalFile())
            if path.is_dir() or path.suffix.lower() in MODEL_SUFFIXES:
                return path
    return None
