"""Everything Qt, one package per feature, so that a file's folder says what it serves.

- ``shell/``: start-up, the main window (composition only: tabs, menus, status bar), the
  self-test. The only package that imports the features, and the one that wires them.
- ``catalog/``: the Catalog tab (search, filters, the part table) and its details pane.
- ``compare/``: the Compare tab, its state and its charts.
- ``planner/``: the Build tab: the build view, undo commands, checks panel, part picker,
  totals, custom parts, the build document (files, recent list) and autosave.
- ``workload/``: the workload-fit panel (form, memory bar, results), What fits, the advisor,
  models opened from files.
- ``cluster/``: the Cluster tab (N nodes of a build: fabric, racks, power, cost, time).
- ``pdf/``: build sheets as PDF, and the background export job.
- ``common/``: what several features share: settings, theme, fonts, icons, status colours,
  dialogs, display formatting, drag payloads, the part table, background work.

Layers inside ``ui`` (import-linter, ``make lint``): ``shell`` above the features, the
features independent of each other, then ``pdf``, then ``common``.
"""
