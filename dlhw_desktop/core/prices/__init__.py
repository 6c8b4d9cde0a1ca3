"""Prices a buyer can trust: ``kinds`` (what a price is, the date it held, how old it is,
the headline price of a part), ``book`` (the user's own quotes and dated exchange rates,
parsed and validated), ``currency`` (totals shown in the user's currency) and
``price_list`` (a vendor's quote or price list read into quotes, and the book written out).

Pure: imports the foundation only. The catalog keeps the book on disk
(``catalog.price_store``); nothing here knows where.
"""
