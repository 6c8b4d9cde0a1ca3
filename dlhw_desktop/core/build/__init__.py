"""A build and everything that is one: ``build`` (``Build``: parts, quantities, slots, its
change events), ``slots`` (which slot a part takes), ``room`` (how many more of a part
fit), ``buildfile`` and ``file_bounds`` (the ``.dlhw.json`` format, read and written with
its bounds), ``templates`` (ready builds), ``tiers`` (the seed article's workload tiers)
and ``workload_fit`` (the build's workload on its own GPUs).

Imports the foundation, ``files`` and ``workload``; never the checks (which import it).
"""
