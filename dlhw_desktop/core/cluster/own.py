"""Owning a cluster: N nodes costed as the Workload panel costs one, and the break-even
against renting the same work (issue #28). Pure arithmetic over ``workload.cost``."""

from __future__ import annotations

from dataclasses import replace

from dlhw_desktop.core.workload.cost import BreakEven, OwnHardware, break_even


def cluster_own(node: OwnHardware, nodes: int, network_usd: float | None) -> OwnHardware:
    """N nodes owned as one: N x the node's price (a lower bound while a part or the
    fabric has no price) and wall draw, the same period, PUE and use."""
    unpriced = node.unpriced + (() if network_usd is not None else (
        "the fabric's switches, cables and transceivers",))
    basis = (f"{nodes:,} x the node ({node.price_basis})"
             + (" + the fabric" if network_usd is not None else ""))
    return replace(node, price_usd=node.price_usd * nodes + (network_usd or 0.0),
                   power_w=node.power_w * nodes, unpriced=unpriced, price_basis=basis)


def own_vs_rent(own: OwnHardware | None, seconds: float | None, rent_usd: float | None
                ) -> tuple[float | None, float | None, BreakEven | None]:
    """(own cost of a run of ``seconds``, rent per hour of the cluster's work, the
    break-even) against renting the same run for ``rent_usd``; ``None`` where unknown.
    The same arithmetic as the Workload panel's (``workload.comparison``)."""
    if own is None or seconds is None or seconds <= 0:
        return None, None, None
    hours = seconds / 3600
    per_hour = rent_usd / hours if rent_usd is not None else None
    even = break_even(own, per_hour) if per_hour else None
    return hours * own.usd_per_hour, per_hour, even
