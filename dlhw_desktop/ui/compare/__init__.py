"""The Compare tab: up to eight accelerators side by side.

``compare_tab`` is the widget (toolbar, chart stack, spec table), with ``compare_picker``
(the search box) and ``compare_widgets`` (parts list, spec table view); ``compare_state`` holds
what is compared and how (parts, precision, view, baseline) with its persistence and
exports; ``charts/`` draws what ``core.compare`` computes (bars, normalised, per-$ and
per-watt, the whole-catalog scatter).
"""
