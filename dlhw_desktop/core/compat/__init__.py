"""Compatibility, one vocabulary for the checks and the part picker: ``vocabulary``
(sockets, board sizes, memory and DIMM kinds as parts are matched on), ``connectors``
(power cables as parts state them, counted), ``rules`` (the rule types the picker's
filter is made of) and ``filter`` (which parts of a category fit the build so far).

Imports the foundation and ``build``. The checks import it, so a part the picker offers
is one the checks judge by the same words.
"""
