"""The Compare tab's logic, without a widget: ``comparison`` (metrics, normalisation and
the selection of up to eight accelerators), ``presets`` (named comparisons), ``scatter``
(the whole catalog as points, outliers named) and ``table`` (the spec table and its
exports).

Imports the foundation and ``files``.
"""
