"""Models from files on the workload panel: File > Open model…, a drop, and which model
file or folder a drag carries. A mixin of ``WorkloadPanel``: the file is read on a worker
thread, its model adopted as one undoable edit, a bad file shown as a dialog."""

from __future__ import annotations

from dataclasses import replace
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QLabel

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.workload import Workload, WorkloadError
from dlhw_desktop.ui.common.background import run_in_background
from dlhw_desktop.ui.common.dialogs import show_error

if TYPE_CHECKING:
    from dlhw_desktop.core.workload.model_files import LoadedModel

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


class ModelFileActions:
    """Open model…, drops, and the model they bring (mixed into ``WorkloadPanel``)."""

    file_label: QLabel
    _planned: Any
    _loaded: Any

    def adopt_workload(self, workload: Workload) -> None: ...

    def _refresh(self) -> None: ...

    def open_model_dialog(self) -> None:
        """File > Open model…: choose a model file or folder and take its model."""
        path, _ = QFileDialog.getOpenFileName(
            self, "Open model", str(Path.home()),
            "Model files (*.gguf *.safetensors config.json *.json);;All files (*)")
        if path:
            self.load_model_in_background(Path(path))

    def load_model_in_background(self, path: Path) -> None:
        """Read ``path`` on a worker thread (a slow disk or a network folder must not
        freeze the window); the model is taken when it arrives, a bad file is a dialog."""
        from dlhw_desktop.core.workload.model_files import load_model_file

        self.file_label.setText(f"Reading {escape(path.name)}…")
        run_in_background(lambda: load_model_file(path), self._take_loaded,
                          self._model_failed, self)

    def _model_failed(self, exc: BaseException) -> None:
        self.file_label.setText("")
        show_error(self, "Cannot read the model", str(exc) if isinstance(
            exc, DlhwError | OSError) else f"{type(exc).__name__}: {exc}")

    def open_model_file(self, path: Path) -> LoadedModel | None:
        """Read ``path`` (header and tensor table only) now and make its model the
        workload's, keeping the job's other settings; one undoable edit. A bad file is a
        dialog."""
        from dlhw_desktop.core.workload.model_files import load_model_file

        try:
            loaded = load_model_file(path)
        except (DlhwError, OSError) as exc:
            self._model_failed(exc)
            return None
        return self._take_loaded(loaded)

    def _take_loaded(self, loaded: LoadedModel) -> LoadedModel:
        base = self._planned.workload
        precision = loaded.precision or (base.precision if base is not None else "BF16")
        try:
            workload = (replace(base, model=loaded.model, precision=precision)
                        if base is not None else Workload(loaded.model, precision=precision))
        except WorkloadError:  # e.g. a 4-bit file while the job was full training
            workload = Workload(loaded.model, precision=precision)
        self.adopt_workload(workload)
        self._show_file(loaded)
        return loaded

    def _show_file(self, loaded: LoadedModel) -> None:
        size = (f"{loaded.params_exact / 1e9:,.2f}B parameters counted"
                if loaded.params_exact else f"~{loaded.model.params / 1e9:,.2f}B parameters")
        stored = f", {loaded.quantization}" if loaded.quantization else ""
        text = f"From {escape(Path(loaded.path).name)}: {size}{escape(stored)}"
        if loaded.warnings:
            text += "<br>" + "<br>".join(escape(w) for w in loaded.warnings)
        self.file_label.setText(text)
        self._loaded = loaded
        self._refresh()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if dropped_path(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        path = dropped_path(event.mimeData())
        if path is None:
            event.ignore()
            return
        event.acceptProposedAction()
        self.load_model_in_background(path)
