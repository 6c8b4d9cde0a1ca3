"""One place for the app's actions and shortcuts; every action has an objectName.

Tests find actions by name (``window.findChild(QAction, "action_add_to_build")``).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


@dataclass(frozen=True, slots=True)
class ActionSpec:
    name: str
    text: str
    shortcut: QKeySequence.StandardKey | str | None = None
    tip: str = ""


ACTIONS: dict[str, ActionSpec] = {a.name: a for a in (
    ActionSpec("action_new_build", "&New build", QKeySequence.StandardKey.New,
               "Start an empty build"),
    ActionSpec("action_open_build", "&Open build…", QKeySequence.StandardKey.Open,
               "Open a saved build (.dlhw.json)"),
    ActionSpec("action_save_build", "&Save build", QKeySequence.StandardKey.Save),
    ActionSpec("action_save_build_as", "Save build &as…", QKeySequence.StandardKey.SaveAs),
    ActionSpec("action_open_model", "Open &model…", "Ctrl+Shift+O",
               "Read a model from disk (GGUF, Hugging Face folder, config.json) for the "
               "workload fit"),
    ActionSpec("action_export_sheet", "&Export build sheet (PDF)…", "Ctrl+E",
               "Write the build to a PDF sheet"),
    ActionSpec("action_copy_markdown", "Copy build as &Markdown", "Ctrl+Shift+M",
               "Parts, quantities, dated prices, totals and the verdict, for a post or an "
               "issue"),
    ActionSpec("action_copy_bbcode", "Copy build as &BBCode", None,
               "The same for a forum that takes BBCode"),
    ActionSpec("action_copy_text", "Copy build as plain &text", None,
               "The same as plain text, for a mail"),
    ActionSpec("action_import_prices", "&Import price list (CSV)…", None,
               "Read a quote or price list, see what matches, then save it to your prices"),
    ActionSpec("action_export_prices", "E&xport your prices (CSV)…", None,
               "Write your price book (your quotes) to a CSV file"),
    ActionSpec("action_quit", "&Quit", QKeySequence.StandardKey.Quit),
    ActionSpec("action_undo", "&Undo", QKeySequence.StandardKey.Undo),
    ActionSpec("action_redo", "&Redo", "Ctrl+Shift+Z"),
    ActionSpec("action_find", "&Find in catalog", QKeySequence.StandardKey.Find,
               "Search the catalog"),
    ActionSpec("action_compare_part", "&Compare", "Ctrl+Shift+C",
               "Add the selected accelerators to the Compare tab"),
    ActionSpec("action_add_to_build", "Add to &build", "Ctrl+B",
               "Add the selected parts to the build"),
    ActionSpec("action_copy_id", "Copy part &id", None, "Copy the part id to the clipboard"),
    ActionSpec("action_show_catalog", "&Catalog", "Ctrl+1"),
    ActionSpec("action_show_compare", "Co&mpare", "Ctrl+2"),
    ActionSpec("action_show_build", "&Build", "Ctrl+3"),
    ActionSpec("action_show_cluster", "C&luster", "Ctrl+4"),
    ActionSpec("action_theme_system", "&System theme"),
    ActionSpec("action_theme_light", "&Light theme"),
    ActionSpec("action_theme_dark", "&Dark theme"),
    ActionSpec("action_detect_computer", "&Detect this computer",
               None, "Make a build from the machine this app runs on"),
    ActionSpec("action_new_custom_part", "New &custom part…", None,
               "Describe a part the catalog lacks; it is kept with your own parts"),
    ActionSpec("action_check_settings", "Check &settings…", None,
               "Electricity price, utilisation and household circuit used by the checks"),
    ActionSpec("action_currency", "Currency for &totals…", None,
               "Show the build's totals in your currency, at a dated rate you set"),
    ActionSpec("action_templates", "&Templates", None, "Start from a ready-made build"),
    ActionSpec("action_user_guide", "&User guide", QKeySequence.StandardKey.HelpContents,
               "How to use the app, offline"),
    ActionSpec("action_shortcuts", "&Keyboard shortcuts"),
    ActionSpec("action_about", "&About DL Hardware Desktop"),
    ActionSpec("action_data_sources", "&Data sources and licences"),
)}


def make_action(name: str, parent: QWidget) -> QAction:
    """A QAction from its declaration, named so tests and menus can find it."""
    spec = ACTIONS[name]
    action = QAction(spec.text, parent)
    action.setObjectName(spec.name)
    if spec.shortcut is not None:
        action.setShortcut(QKeySequence(spec.shortcut))
    if spec.tip:
        action.setStatusTip(spec.tip)
        action.setToolTip(spec.tip)
    return action
