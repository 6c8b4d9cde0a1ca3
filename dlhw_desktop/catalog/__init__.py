"""SQLite lives here and nowhere else: the read-only catalog, search, the catalog build."""
