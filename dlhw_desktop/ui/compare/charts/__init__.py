"""Chart widgets of the Compare tab (pyqtgraph).

pyqtgraph costs ~0.4 s to import, so only the Compare tab (``ui/compare/compare_tab.py`` and
the modules only it imports) and this package import it, and the main window imports the
Compare tab when it is first shown. Charts draw what
``core/compare.py`` computes; they create their plot items once and update them.
"""
