"""What several features share: no feature's own logic lives here.

``settings`` (every setting declared once, typed), ``theme`` (palettes), ``fonts``,
``icons``, ``status_icons`` (pass/warn/fail colours and icons), ``dialogs`` (errors, About),
``display`` (money, durations and sizes as people read them), ``dnd`` (drag payloads),
``part_table_model`` and ``part_table`` (the lazy parts table), ``actions`` (QAction
factory with object names), ``background`` (work off the GUI thread).
"""
