"""Pure report structures (sections, tables, chart series) built from a Build and its checks."""
