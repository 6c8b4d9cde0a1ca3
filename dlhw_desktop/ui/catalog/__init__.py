"""The Catalog tab: search as you type, per-category filters, the part table, the details
pane with every figure and its source."""
