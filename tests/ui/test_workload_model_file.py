"""A model from disk in the workload panel: File > Open model…, or dropped on the panel."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QUndoStack
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.ui.planner.build_commands import SetWorkloadCommand
from dlhw_desktop.ui.workload import model_drop as panel_module
from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
# Llama 3.1 8B's published config.json (meta-llama/Llama-3.1-8B), the fields that matter
CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
          "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
          "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 131072,
          "tie_word_embeddings": False, "torch_dtype": "bfloat16", "hidden_act": "silu"}


@pytest.fixture
def panel(qtbot: QtBot, catalog: Catalog) -> WorkloadPanel:
    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "gpt2", "mode": "inference", "batch": 4}))
    build.add(catalog.get(RTX_4090), 1)
    widget = WorkloadPanel(catalog)
    qtbot.addWidget(widget)
    widget.set_build(build)
    stack = QUndoStack(widget)
    widget.workload_edited.connect(lambda w: stack.push(SetWorkloadCommand(build, w)))
    widget.stack = stack  # type: ignore[attr-defined]
    widget.resize(460, 900)
    widget.show()
    return widget


def model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "Llama-3.1-8B"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(CONFIG), encoding="utf-8")
    return folder


def test_a_model_folder_becomes_the_workload_and_survives_a_save(
        panel: WorkloadPanel, tmp_path: Path) -> None:
    loaded = panel.open_model_file(model_folder(tmp_path))
    assert loaded is not None
    build = panel.build
    assert build is not None and build.workload.workload is not None
    model = build.workload.workload.model
    assert model.layers == 32 and model.kv_heads == 8
    assert model.params == pytest.approx(8.03e9, rel=0.01)
    assert build.workload.workload.batch == 4  # the job's other settings are kept
    assert "Llama-3.1-8B" in panel.file_label.text() and panel.file_label.isVisible()
    assert panel.results.bar.rows  # estimated at once
    # an edit of the batch keeps the model as read, not a re-guess from its size
    panel.form.batch_spin.setValue(2)
    assert build.workload.workload.model == model and build.workload.workload.batch == 2
    # the build remembers the model's figures, not the path: it opens without the folder
    again = BuildWorkload.from_mapping(build.workload.to_mapping())
    assert again.workload is not None and again.workload.model.layers == 32
    panel.stack.undo()  # type: ignore[attr-defined]
    panel.stack.undo()  # type: ignore[attr-defined]
    assert build.workload.workload.model.key == "gpt2"


def test_a_bad_model_file_is_a_dialog_and_changes_nothing(
        panel: WorkloadPanel, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(panel_module, "show_error", lambda _p, _t, text: shown.append(text))
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUX" + b"\0" * 60)
    before = panel.build.workload  # type: ignore[union-attr]
    assert panel.open_model_file(bad) is None
    assert shown and "magic" in shown[0]
    assert panel.build.workload == before  # type: ignore[union-attr]


def test_dropping_a_model_folder_on_the_panel_opens_it(panel: WorkloadPanel, qtbot: Any,
                                                       tmp_path: Path) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(model_folder(tmp_path)))])
    drop = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    panel.dropEvent(drop)  # read on a worker thread: the window stays live
    qtbot.waitUntil(lambda: panel.build.workload.workload is not None  # type: ignore
                    and panel.build.workload.workload.model.layers == 32, timeout=10_000)
    workload = panel.build.workload.workload  # type: ignore[union-attr]
    assert workload is not None and workload.model.layers == 32
    text = QMimeData()
    text.setText("not a file")
    assert panel_module.dropped_path(text) is None
