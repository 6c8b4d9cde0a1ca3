"""Cluster plans: N identical nodes, their fabric, racks, power, cost and training time
(pure: no Qt, no SQL). ``plan`` computes, ``fabric`` counts switches, ``node`` reads a
build, ``planfile`` saves and opens plans."""
