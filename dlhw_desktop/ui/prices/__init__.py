"""Prices: the buyer's price book to and from files (import preview, export)."""
