"""The advisor: the article's six questions, three proposals with reasons, "Apply"."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.workload import QUESTIONS, Workload, preset
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.workload.advisor_dialog import AdvisorDialog

LORA_8B = Workload(preset("llama-3.1-8b"), "lora", "BF16", batch=4, seq=4096, tokens=1e8)


def make_dialog(qtbot: QtBot, catalog: Catalog, workload: Workload | None = LORA_8B,
                settings: AppSettings | None = None) -> AdvisorDialog:
    dialog = AdvisorDialog(catalog, workload=workload, settings=settings)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_every_question_of_the_article_is_asked_with_its_reason(qtbot: QtBot,
                                                                catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    for question in QUESTIONS:
        box = dialog.findChild(object, f"advisor_question_{question.key}")
        assert box is not None and box.isVisible()
        texts = " ".join(label.text() for label in box.findChildren(type(dialog.headline)))
        assert question.text in texts and question.why in texts


def test_three_proposals_each_with_reasons(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    proposals = dialog.proposals()
    assert len(proposals) == 3
    assert all(p.reasons and all(r.strip() for r in p.reasons) for p in proposals)
    assert len({p.title for p in proposals}) == 3
    for card, proposal in zip(dialog.cards, proposals, strict=True):
        assert card.isVisible() and card.title.text() == proposal.title
        assert proposal.option.label in card.option.text()
        assert card.reasons.text().count("<li>") == len(proposal.reasons)
    # both sides of the article's cloud / on-premise trade-off are shown
    assert {p.option.kind for p in proposals} == {"own", "cloud"}
    assert "Llama 3.1 8B" in dialog.headline.text()


def test_private_data_keeps_to_hardware_you_own(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    dialog.private_check.setChecked(True)
    proposals = dialog.proposals()
    assert proposals and all(p.option.kind == "own" for p in proposals)
    assert any("stays on your premises" in r for p in proposals for r in p.reasons)
    assert "premises" in dialog.notes_label.text()


def test_a_budget_too_small_is_said_plainly(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog, Workload(preset("llama-3.1-70b"), "inference", "BF16"))
    dialog.deployment_combo.setCurrentIndex(dialog.deployment_combo.findData("on-premise"))
    dialog.budget_spin.setValue(500)
    assert dialog.proposals() == ()
    assert "nothing fits the budget of $500" in dialog.notes_label.text()
    assert not any(card.isVisible() for card in dialog.cards)


def test_applying_a_proposal_requests_its_parts_and_workload(qtbot: QtBot,
                                                              catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    dialog.deployment_combo.setCurrentIndex(dialog.deployment_combo.findData("on-premise"))
    proposal = dialog.proposals()[0]
    assert proposal.buys
    with qtbot.waitSignal(dialog.apply_requested) as applied:
        dialog.cards[0].apply_button.click()
    assert applied.args[0] == [(proposal.option.accelerator.id, proposal.option.count)]
    assert applied.args[1].model.key == "llama-3.1-8b" and applied.args[1].mode == "lora"
    # LoRA as its recipe runs it, the same default as the Workload panel
    assert applied.args[1].checkpointing


def test_a_rent_proposal_is_compared_not_applied(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    dialog.deployment_combo.setCurrentIndex(dialog.deployment_combo.findData("cloud"))
    card = dialog.cards[0]
    assert card.proposal is not None and not card.proposal.buys
    assert card.apply_button.text() == "Compare with the build"
    with qtbot.assertNotEmitted(dialog.apply_requested), \
            qtbot.waitSignal(dialog.compare_requested) as compared:
        card.apply_button.click()
    assert compared.args[0] == card.proposal.option.part.id


def test_a_custom_model_needs_its_size(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog, workload=None)
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("custom"))
    assert dialog.params_edit.isVisible()
    assert dialog.error_label.isVisible() and "parameter count" in dialog.error_label.text()
    dialog.params_edit.setText("3B")
    dialog.params_edit.editingFinished.emit()
    assert not dialog.error_label.isVisible() and len(dialog.proposals()) == 3


def test_answers_are_remembered(qtbot: QtBot, catalog: Catalog,
                                app_settings: AppSettings) -> None:
    dialog = make_dialog(qtbot, catalog, settings=app_settings)
    dialog.budget_spin.setValue(5000)
    dialog.private_check.setChecked(True)
    dialog.close()
    again = make_dialog(qtbot, catalog, settings=app_settings)
    assert again.budget_spin.value() == 5000 and again.private_check.isChecked()
