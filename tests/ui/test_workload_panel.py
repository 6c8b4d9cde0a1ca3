"""The workload-fit panel as a user drives it: pick a job, read the bar, the verdict, the cost."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QUndoStack
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckContext, check_build
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.memory import GiB
from dlhw_desktop.ui.planner.build_commands import SetWorkloadCommand
from dlhw_desktop.ui.workload.memory_bar import MemoryBar
from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
LLAMA_8B = {"model": "llama-3.1-8b", "mode": "inference", "precision": "BF16"}
LLAMA_70B = {"model": "llama-3.1-70b", "mode": "inference", "precision": "BF16"}
# batch 1 (was 4): with the loss's fp32 logits counted as transformers holds them
# (14 bytes per logit, issue #19), batch 4 x 4096 tokens x 128,256 needs 29 GiB of logits
# alone and does not fit two 4090s
LORA_8B = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 1,
           "seq": 4096, "tokens": 1e8, "checkpointing": True}


def make_build(catalog: Catalog, gpus: int = 1, workload: dict[str, Any] | None = None) -> Build:
    build = Build(workload=BuildWorkload.from_mapping(workload or {}))
    if gpus:
        build.add(catalog.get(RTX_4090), gpus)
    return build


def model_of(build: Build) -> str:
    assert build.workload.workload is not None
    return build.workload.workload.model.key


def mode_of(build: Build) -> str:
    assert build.workload.workload is not None
    return build.workload.workload.mode


def make_panel(qtbot: QtBot, catalog: Catalog, build: Build | None = None) -> WorkloadPanel:
    panel = WorkloadPanel(catalog)
    qtbot.addWidget(panel)
    panel.resize(460, 900)
    if build is not None:
        panel.set_build(build)
    panel.show()
    return panel


def undoable(panel: WorkloadPanel, build: Build) -> QUndoStack:
    """Wire the panel as the Build tab does: every edit one undo command."""
    stack = QUndoStack(panel)
    panel.workload_edited.connect(lambda data: stack.push(SetWorkloadCommand(build, data)))
    return stack


def test_llama_8b_bf16_inference_fits_one_rtx_4090(qtbot: QtBot, catalog: Catalog) -> None:
    panel = make_panel(qtbot, catalog, make_build(catalog, 1, LLAMA_8B))
    (row,) = panel.results.bar.rows
    assert row.total / GiB == pytest.approx(17.0, abs=0.3)
    assert row.vram == 24 * GiB
    assert row.status == "pass"
    assert panel.results.status_label.property("status") == "pass"
    assert "Fits" in panel.results.status_label.text()
    assert {s.key for s in row.segments} == {"weights", "kv_cache", "activations", "overhead"}
    time_text = panel.results.time_label.text()
    assert "tokens/s" in time_text and "bandwidth ceiling" in time_text
    assert "Per million tokens" in panel.results.cost_label.text()


def test_llama_70b_bf16_inference_does_not_fit_one_rtx_4090(qtbot: QtBot,
                                                             catalog: Catalog) -> None:
    panel = make_panel(qtbot, catalog, make_build(catalog, 1, LLAMA_70B))
    (row,) = panel.results.bar.rows
    assert row.status == "fail" and row.total > row.vram  # type: ignore[operator]
    assert "Does not fit" in panel.results.status_label.text()
    assert "quantised format" in panel.results.notes_label.text()


def test_adding_gpus_to_the_build_redraws_the_verdict(qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 1, LLAMA_70B)
    panel = make_panel(qtbot, catalog, build)
    assert not panel.form.strategy_combo.isEnabled()
    build.set_quantity(RTX_4090, 8)
    (row,) = panel.results.bar.rows
    assert row.count == 8 and row.status == "pass"
    assert panel.form.strategy_combo.isEnabled()
    assert "tensor parallel" in panel.form.strategy_combo.currentText().lower()


def test_editing_batch_emits_the_new_workload_and_leaves_the_build_alone(
        qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 1, LLAMA_8B)
    panel = make_panel(qtbot, catalog, build)
    panel.form.batch_spin.setFocus()
    panel.form.batch_spin.selectAll()
    with qtbot.waitSignal(panel.workload_edited) as blocker:
        qtbot.keyClicks(panel.form.batch_spin, "8")
        qtbot.keyClick(panel.form.batch_spin, Qt.Key.Key_Return)
    edited = blocker.args[0].workload
    assert edited.batch == 8 and edited.model.key == "llama-3.1-8b"
    kept = build.workload.workload
    assert kept is not None and kept.model.key == "llama-3.1-8b" and kept.batch == 1
    # the panel already shows the edit: 8 sequences need more KV cache than 1
    kv = next(s for s in panel.results.bar.rows[0].segments if s.key == "kv_cache")
    assert kv.bytes == pytest.approx(8 * 0.5 * GiB)


def test_each_edit_is_one_undo_step_and_the_panel_follows_undo(
        qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 2, dict(LLAMA_8B))
    panel = make_panel(qtbot, catalog, build)
    stack = undoable(panel, build)
    panel.form.mode_combo.setCurrentIndex(panel.form.mode_combo.findData("lora"))
    assert mode_of(build) == "lora" and stack.count() == 1
    assert panel.form.checkpoint_check.isVisible()
    assert panel.form.tokens_label.text() == "Tokens to train on"
    stack.undo()
    assert mode_of(build) == "inference"
    assert panel.form.mode_combo.currentData() == "inference"
    assert not panel.form.checkpoint_check.isVisible()
    stack.redo()
    assert panel.form.mode_combo.currentData() == "lora"


def test_set_workload_command_with_a_bare_stack() -> None:
    build = Build(workload=BuildWorkload.from_mapping({"tier_note": "kept"}))
    stack = QUndoStack()
    stack.push(SetWorkloadCommand(
        build, BuildWorkload.from_mapping({"tier_note": "kept", **LLAMA_8B})))
    assert model_of(build) == "llama-3.1-8b"
    stack.push(SetWorkloadCommand(
        build, BuildWorkload.from_mapping({"tier_note": "kept", **LLAMA_8B, "batch": 2})))
    assert stack.count() == 1  # quick edits merge into one step
    stack.undo()
    assert build.workload.to_mapping() == {"tier_note": "kept"}
    stack.redo()
    assert build.workload.workload is not None and build.workload.workload.batch == 2


def test_extra_check_joins_the_planner_checks(qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 2)
    panel = make_panel(qtbot, catalog, build)
    assert check_build(build, extra_checks=[panel.extra_check]).by_kind("workload") == ()
    build.set_workload(BuildWorkload.from_mapping(LORA_8B))
    results = panel.extra_check(CheckContext(build))
    # two identical GPUs share one result, "2x ..." (issue 15)
    assert [r.kind for r in results] == ["workload"]
    assert [r.status for r in results] == [panel.results.bar.rows[0].status]
    assert results[0].message.startswith("2x ")
    report = check_build(build, extra_checks=[panel.extra_check])
    assert {r.id for r in report.by_kind("workload")} == {"workload.memory.gpu0"}


def test_no_workload_shows_a_hint_and_no_results(qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 1)
    panel = make_panel(qtbot, catalog, build)
    assert panel.form.model_combo.currentData() == ""
    assert panel.hint_label.isVisible() and "Choose a model" in panel.hint_label.text()
    assert not panel.results.isVisible()
    assert not panel.form.batch_spin.isEnabled()
    with qtbot.waitSignal(panel.workload_edited) as blocker:
        panel.form.model_combo.setCurrentIndex(panel.form.model_combo.findData("gpt2"))
    assert blocker.args[0].workload.model.key == "gpt2"
    assert panel.results.isVisible() and panel.results.bar.rows[0].status == "pass"


def test_lora_on_two_gpus_shows_training_time_and_cost(qtbot: QtBot, catalog: Catalog) -> None:
    panel = make_panel(qtbot, catalog, make_build(catalog, 2, LORA_8B))
    (row,) = panel.results.bar.rows
    assert row.count == 2 and row.label.startswith("2 × ")
    keys = [s.key for s in row.segments]
    assert keys == ["weights", "gradients", "optimizer", "activations", "overhead"]
    time_text = panel.results.time_label.text()
    assert "to train on 100M tokens on 2 GPUs" in time_text and "4ND" in time_text
    cost = panel.results.cost_label.text()
    assert "Own machine per hour" in cost and "Rent instead" in cost
    assert "it qualifies" in cost  # the offer says why it can run the same job
    assert "Break-even" in cost and "One run on this machine" in cost
    # the build holds only the GPUs: the rest of the machine is named, the price a bound
    assert "at least" in cost and "without a price" in cost


def test_a_custom_model_starts_from_the_last_preset(qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 1, LLAMA_8B)
    panel = make_panel(qtbot, catalog, build)
    with qtbot.waitSignal(panel.workload_edited) as blocker:
        panel.form.model_combo.setCurrentIndex(panel.form.model_combo.findData("custom"))
    edited = blocker.args[0].workload.model
    assert edited.key == "custom" and edited.params == pytest.approx(8.03e9)
    assert edited.kv_heads == 8 and panel.form.arch_box.isVisible()
    # KV heads must divide the heads: an error is shown and nothing is emitted
    with qtbot.assertNotEmitted(panel.workload_edited):
        panel.form.kv_heads_spin.setValue(7)
    assert "kv_heads" in panel.hint_label.text() and panel.hint_label.isVisible()
    # parameters only: the KV cache and activations are unknown, the total a lower bound
    with qtbot.waitSignal(panel.workload_edited) as blocker:
        panel.form.arch_check.setChecked(False)
    assert blocker.args[0].workload.model.layers is None
    (row,) = panel.results.bar.rows
    assert not row.complete and row.status == "unknown"
    assert "Lower bound" in panel.results.notes_label.text()


def test_mfu_is_editable_with_the_published_range_in_its_tooltip(
        qtbot: QtBot, catalog: Catalog) -> None:
    # LORA_8B does not fit one 4090 (16-bit base + fp32 logits at batch 4): a job that
    # does not fit gets no time (issue #19), so the MFU is shown on one that fits
    fits = {**LORA_8B, "mode": "qlora", "batch": 1, "seq": 2048}
    panel = make_panel(qtbot, catalog, make_build(catalog, 1, fits))
    assert panel.form.mfu_spin.value() == 40
    tip = panel.form.mfu_spin.toolTip()
    assert "PaLM" in tip and "36%" in tip and "46%" in tip
    with qtbot.waitSignal(panel.workload_edited) as blocker:
        panel.form.mfu_spin.setValue(20)
    assert blocker.args[0].workload.mfu == pytest.approx(0.2)
    assert "20% MFU" in panel.results.time_label.text()


def test_replacing_the_build_unsubscribes_from_the_old_one(qtbot: QtBot,
                                                          catalog: Catalog) -> None:
    old = make_build(catalog, 1, LLAMA_8B)
    new = make_build(catalog, 1, LLAMA_70B)
    panel = make_panel(qtbot, catalog, old)
    panel.set_build(new)
    old.set_workload(BuildWorkload.from_mapping({"model": "gpt2"}))
    assert panel.form.model_combo.currentData() == "llama-3.1-70b"
    assert panel.results.bar.rows[0].status == "fail"


def test_what_fits_and_advisor_requests_come_out_of_the_panel(
        qtbot: QtBot, catalog: Catalog) -> None:
    panel = make_panel(qtbot, catalog, make_build(catalog, 1, LLAMA_70B))
    dialog = panel.open_what_fits()
    assert dialog is not None and dialog.isVisible()
    qtbot.addWidget(dialog)
    first = dialog.options()[0]  # type: ignore[attr-defined]
    with qtbot.waitSignal(panel.add_requested) as blocker:
        dialog.add_option(first)  # type: ignore[attr-defined]
    assert blocker.args == [first.part_id, first.count if first.kind == "own" else 1]
    advisor = panel.open_advisor()
    qtbot.addWidget(advisor)
    card = next(c for c in advisor.cards  # type: ignore[attr-defined]
                if c.proposal is not None and c.proposal.buys)
    with qtbot.waitSignal(panel.apply_requested) as applied:
        card.apply_button.click()
    # one request carrying both the GPUs and the workload: the Build tab's one undo step
    assert applied.args[0] and isinstance(applied.args[0][0], tuple)
    assert applied.args[1].workload.model.key == "llama-3.1-70b"
    rent = [c for c in advisor.cards  # type: ignore[attr-defined]
            if c.proposal is not None and not c.proposal.buys]
    if rent:  # a rent proposal goes to the cost comparison, never into the build
        with qtbot.assertNotEmitted(panel.apply_requested):
            rent[0].apply_button.click()
        assert rent[0].apply_button.text() == "Compare with the build"
        assert panel.cheapest_cloud is not None
        assert panel.cheapest_cloud.part.id == rent[0].proposal.option.part.id


@pytest.mark.parametrize("dark", [False, True])
def test_the_bar_paints_its_segments_in_either_palette(qtbot: QtBot, catalog: Catalog,
                                                        dark: bool) -> None:
    bar = MemoryBar()
    qtbot.addWidget(bar)
    if dark:
        palette = QPalette(QApplication.palette())
        palette.setColor(QPalette.ColorRole.Window, QColor(43, 45, 48))
        palette.setColor(QPalette.ColorRole.WindowText, QColor(223, 225, 229))
        bar.setPalette(palette)
    panel = make_panel(qtbot, catalog, make_build(catalog, 1, LLAMA_8B))
    bar.set_rows(panel.results.bar.rows)
    bar.resize(420, bar.heightForWidth(420))
    image = bar.grab().toImage()
    line = bar.fontMetrics().height()
    y = round(MemoryBar.PAD + line + 4 + MemoryBar.BAR_H / 2)
    assert image.pixelColor(40, y) == bar.segment_colour("weights")
    # 17.2 (was 17.0): a SwiGLU layer's prompt working set holds its gate and up products
    # at the model's own MLP width (issue #19)
    assert "17.2 GiB of 24.0 GiB" in bar.summary()


def test_cloud_comparison_runs_the_same_software_stack(qtbot: QtBot, catalog: Catalog) -> None:
    """A CUDA build is priced against CUDA instances, not Trainium or TPUs."""
    lora = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 4,
            "seq": 4096, "checkpointing": True, "tokens": 1e8}
    panel = make_panel(qtbot, catalog, make_build(catalog, 2, lora))
    option = panel.cheapest_cloud
    assert option is not None
    accelerator = catalog.get(str(option.part.get("accelerator_id")))
    assert "CUDA" in accelerator.text("software")


# --- issue #30: one decode figure, serving capacity, bitsandbytes 4-bit --------------------

LLAMA_8B_Q4 = {"model": "llama-3.1-8b", "mode": "inference", "precision": "Q4_K_M"}


def test_the_decode_figure_is_one_number_with_its_basis(qtbot: QtBot, catalog: Catalog) -> None:
    from dlhw_desktop.core.formatting import rate

    panel = make_panel(qtbot, catalog, make_build(catalog, 1, LLAMA_8B_Q4))
    assert panel.result is not None and panel.result.inference is not None
    speed = panel.result.inference.tokens_per_s
    text = panel.results.time_label.text()
    assert f"<b>{rate(speed)} tokens/s</b>" in text
    assert "fit on" in text and "leave-one-GPU-out error" in text
    assert "–" not in text.split("</b>")[0]  # a number, not a range


def test_serving_shows_users_speed_and_a_chart_with_the_target(qtbot: QtBot,
                                                               catalog: Catalog) -> None:
    build = make_build(catalog, 1, LLAMA_8B_Q4)
    panel = make_panel(qtbot, catalog, build)
    stack = undoable(panel, build)
    assert panel.serving_form.isVisible() and panel.serving_view.isVisible()
    summary = panel.serving_view.summary_label.text()
    assert "concurrent requests" in summary and "tokens/s per user" in summary
    # the user asks for 1,000-token prompts, 200-token answers and 30 tokens/s each
    panel.serving_form.input_spin.setValue(1000)
    panel.serving_form.output_spin.setValue(200)
    form = panel.serving_form
    form.target_combo.setCurrentIndex(form.target_combo.findData("tps"))
    form.target_spin.setValue(30)
    assert build.workload.serving.input_tokens == 1000
    assert build.workload.serving.target_tps == 30
    estimate = panel.serving
    assert estimate is not None and estimate.targets[0].kind == "tps"
    chart = panel.serving_view.chart
    assert chart is not None and chart.isVisible()
    assert chart.target_line.isVisible() and chart.target_line.value() == pytest.approx(30)
    _, per_user = chart.per_user_curve.getData()
    assert per_user[0] > per_user[-1]  # more users, slower each
    _, in_all = chart.aggregate_curve.getData()
    assert in_all[-1] > in_all[0]
    assert "1,000 input + 200 output tokens" in panel.serving_view.summary_label.text()
    stack.undo()
    assert build.workload.serving.target_tps is None


def test_serving_is_not_offered_for_training(qtbot: QtBot, catalog: Catalog) -> None:
    panel = make_panel(qtbot, catalog, make_build(catalog, 2, LORA_8B))
    assert not panel.serving_form.isVisible() and not panel.serving_view.isVisible()
    assert panel.serving is None


def test_qlora_offers_both_bitsandbytes_layouts_and_defaults_to_the_library(
        qtbot: QtBot, catalog: Catalog) -> None:
    qlora = {"model": "llama-3.1-8b", "mode": "qlora", "batch": 1, "seq": 1024}
    build = make_build(catalog, 1, qlora)
    panel = make_panel(qtbot, catalog, build)
    combo = panel.form.precision_combo
    assert combo.isEnabled()
    assert [combo.itemData(i) for i in range(combo.count())] == ["NF4", "NF4-DQ"]
    assert combo.currentData() == "NF4" and "no double quantisation" in combo.currentText()
    assert "4.5 bits" in combo.currentText()
    undoable(panel, build)
    combo.setCurrentIndex(combo.findData("NF4-DQ"))
    assert build.workload.workload is not None
    assert build.workload.workload.base_format == "NF4-DQ"


def test_the_stack_and_kv_format_change_the_capacity(qtbot: QtBot, catalog: Catalog) -> None:
    build = make_build(catalog, 1, LLAMA_8B)
    panel = make_panel(qtbot, catalog, build)
    undoable(panel, build)
    form = panel.serving_form
    form.stack_combo.setCurrentIndex(form.stack_combo.findData("tensorrt-llm"))
    assert build.workload.workload is not None
    assert build.workload.workload.serving == "tensorrt-llm"
    assert panel.serving is not None and panel.serving.stack == "TensorRT-LLM"
    at_16_bit = panel.serving.max_concurrency
    form.kv_combo.setCurrentIndex(form.kv_combo.findData("FP8"))
    assert build.workload.workload.kv_precision == "FP8"
    assert panel.serving.max_concurrency > 1.8 * at_16_bit  # half the bytes per token


def test_qlora_starts_as_its_recipe_runs_and_fits_70b_on_two_48gb_cards(
        qtbot: QtBot, catalog: Catalog) -> None:
    """Issue #28: checkpointing on and paged AdamW for QLoRA, the defaults everywhere."""
    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-70b", "mode": "inference", "precision": "BF16"}))
    build.add(catalog.get("accelerator/nvidia-rtx-6000-ada-generation"), 2)
    panel = make_panel(qtbot, catalog, build)
    with qtbot.waitSignal(panel.workload_edited) as edited:
        panel.form.mode_combo.setCurrentIndex(panel.form.mode_combo.findData("qlora"))
    workload = edited.args[0].workload
    assert workload.checkpointing and workload.optimizer == "paged-adamw"
    assert panel.form.checkpoint_check.isChecked()
    assert panel.result is not None and panel.result.status == "pass"
