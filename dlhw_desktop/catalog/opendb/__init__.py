"""The BuildCores OpenDB (ODC-By 1.0) in the catalog.

``extract``   snapshot (.tar.gz or folder) -> the compact CSVs in resources/catalog/opendb/
              (``scripts/extract_opendb.py``; extractors are registered, so more can be added)
``importer``  those CSVs -> parts, merged with curated rows (curated wins), with a report of
              what was imported, merged and skipped (``builder.collect`` calls it)
``mappers``   one CSV row -> catalog fields, per category
``rules``     the cleaning rules (units, names, sockets, impossible values, PSU connectors)
``chipsets``  a board's PCIe generation from its chipset, sourced
``summary``   the per-category lines ``dlhw catalog build`` prints
"""
