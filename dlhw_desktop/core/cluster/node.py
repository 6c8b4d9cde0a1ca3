"""One cluster node from a build: its GPUs, power, height, cooling, NICs and price."""

from __future__ import annotations

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings
from dlhw_desktop.core.checks.budget import budget_of
from dlhw_desktop.core.checks.context import CheckContext
from dlhw_desktop.core.checks.server import check_server_modules
from dlhw_desktop.core.cluster.plan import Node, bad
from dlhw_desktop.core.prices.kinds import describe_price

DEFAULT_NIC_GB_S = 400.0


def node_from_build(build: Build, settings: CheckSettings | None = None) -> Node:
    """The build as one node. A server platform gives its vendor figures (maximum power,
    height, cooling, fabric NICs); a desktop-style build gives the planner's wall draw."""
    gpus = [i for i in build.accelerators]
    if not gpus:
        raise bad("node", "the build has no GPUs to cluster")
    if len(gpus) > 1:
        names = ", ".join(i.part.display_name for i in gpus)
        raise bad("node", f"a cluster node has one GPU model; this build has {names}")
    gpu, count = gpus[0].part, gpus[0].quantity
    server = build.server
    ctx = CheckContext(build, settings)
    for result in check_server_modules(ctx):  # a node whose modules do not mount is no node
        if result.status == "fail":
            raise bad("node", f"GPU modules: {result.message}")
    power = basis = None
    if server is not None and server.number("max_power_w") is not None:
        power, basis = server.number("max_power_w"), (
            f"{server.display_name}'s maximum system power (vendor)")
    elif budget_of(ctx).wall_w is not None:
        power = budget_of(ctx).wall_w
        basis = ("wall draw estimated from the parts"
                 + (" at an assumed 80 % efficiency" if budget_of(ctx).efficiency_assumed else ""))
    else:
        basis = "unknown (a part's power figure is missing)"
    height = server.number("rack_units") if server is not None else None
    cooling = (server.text("system_cooling") or None) if server is not None else None
    nics = int(server.number("fabric_nics") or 0) if server is not None else 0
    nic_speed = server.number("fabric_nic_gb_s") if server is not None else None
    price, price_basis = _price(build)
    name = server.display_name if server is not None else build.name
    return Node(name, gpu, count, power, basis or "", height, cooling, price, price_basis,
                nics, nic_speed, server)


def _price(build: Build) -> tuple[float | None, str]:
    server = build.server
    if server is not None and server.get("complete_system") is True:
        price = server.price_usd
        if price is None:
            return None, f"unknown ({server.display_name} has no price)"
        return price, (f"the complete system: "
                       f"{describe_price(server.price_kind, server.price_date)}")
    total = 0.0
    missing = []
    for item in build:
        if item.part.price_usd is None:
            missing.append(item.part.display_name)
        else:
            total += item.part.price_usd * item.quantity
    if missing:
        return None, f"unknown (no catalog price for {', '.join(missing[:3])})"
    return total, "the sum of the parts' prices (your quotes where you gave one)"
