"""The Build tab: assemble a machine and see whether it works.

``build_tab`` (composition of the tab), ``build_view`` (the slots tree, drag and drop),
``build_commands`` (one undo command per user action), ``build_adapter`` (the Build's change
events as Qt signals), ``build_document`` (file name, save/open, recent files),
``checks_panel``, ``check_settings_dialog``, ``part_picker``, ``totals_bar``,
``custom_part_dialog``, ``autosave`` (crash recovery). The workload panel is handed in by
the shell (``BuildTab.install_workload_panel``), so the planner does not import it.
"""
