"""Pure domain logic: parts, builds, checks and estimates. No Qt, no SQL.

The foundation, loose modules every package below may import (and which import no
package of ``core`` themselves): ``parts`` (``Part``), ``fields`` (the field registry:
names, human labels, units, categories), ``verdict`` (check results and their order),
``formatting`` (every figure as people read it), ``errors``, ``limits`` (bounds on what a
build and a file may hold), ``name_keys`` (names compared on what identifies a part) and
``tensor_math`` (peak tensor throughput from per-unit rates).

The packages, each a concept, from the bottom up (a package imports only those before it
and the foundation; ``make lint`` enforces it):

- ``files``: reading a user's file safely and writing a whole file or nothing.
- ``prices``: price kinds and dates, the user's price book, currencies, price lists.
- ``compare``: the Compare tab's metrics, selection, presets, scatter and table.
- ``detect``: what this machine has.
- ``workload``: model memory, time and cost estimators.
- ``build``: a build, its slots, its file format and bounds, templates and tiers, and
  its workload on its own GPUs.
- ``compat``: the compatibility vocabulary and rules both the checks and the picker use.
- ``checks``: the verdicts on a build (power, cooling, memory, platform fit, servers).
- ``cluster``: N nodes of a build with their fabric, racks, power, cost and time.
"""
