"""Everything Qt: start-up, the main window, tabs, models, charts, PDF rendering."""
