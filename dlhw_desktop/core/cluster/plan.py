"""A cluster plan: N identical nodes, their fabric, storage, racks, power, cost and time.

Pure arithmetic over a ``Node`` (made from a build by ``node_from_build``) and the user's
choices (``ClusterSpec``); every figure that rests on an assumption says so in
``ClusterPlan.assumptions``. Identical nodes and GPUs appear once, with a count.

Time to train (``training_time``):

- compute per step: 6 x params x tokens-per-step / (GPUs x dense peak x MFU) (Kaplan et
  al. 2020's 6ND; the MFU is the single-node efficiency the workload states);
- gradient exchange per step: the model is split over the fewest whole nodes whose GPU
  memory holds its training state (16 bytes/parameter for mixed-precision Adam: Rajbhandari
  et al., "ZeRO", 2020), rounded up to a power of two (tensor parallel inside a node over
  NVLink, pipeline across nodes: Narayanan et al., "Efficient Large-Scale Language Model
  Training on GPU Clusters Using Megatron-LM", 2021); each GPU then all-reduces its shard
  of the gradients (2 bytes/parameter, BF16) with its peers in the R data-parallel
  replicas over its own NIC (rail), as a ring: 2 (R-1)/R x shard bytes / NIC bandwidth
  (NCCL's bus-bandwidth model, nccl-tests doc/PERFORMANCE.md; Patarasuk and Yuan 2009);
- overlapped (default): the exchange runs under the backward pass and only the part longer
  than the compute shows; not overlapped: the two add up.

When the MFU is one measured on the whole run (as published runs report it), it already
includes the exchange: use ``overlap=True`` so the exchange is not counted twice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from dlhw_desktop.core.cluster.fabric import FABRICS, Fabric, FabricCount, count_fabric
from dlhw_desktop.core.cluster.own import cluster_own
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.numbers import NumberError, NumberField
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.kinds import describe_price
from dlhw_desktop.core.workload.comparison import qualifies
from dlhw_desktop.core.workload.cost import OwnHardware
from dlhw_desktop.core.workload.fit import FitResult
from dlhw_desktop.core.workload.fit_ranking import FitOption
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS
from dlhw_desktop.core.workload.scaling import LINK_EFFICIENCY, UNHIDDEN, trainable_params
from dlhw_desktop.core.workload.training_mfu import basis as mfu_basis
from dlhw_desktop.core.workload.training_mfu import fitted_mfu

MAX_NODES = 16_384
RACK_UNITS = 42
"""Usable height of a standard 42U rack (network gear goes in its own racks)."""
RACK_FOOTPRINT_M2 = 0.6 * 1.2
"""A 600 mm x 1,200 mm rack's footprint (aisles not included)."""
KW_TO_BTU_H = 3412.14
TRAINING_STATE_BYTES = 16.0
"""Mixed-precision Adam: 2 (BF16 weights) + 2 (grads) + 4 (FP32 master) + 8 (moments)."""
CHECKPOINT_BYTES = 14.0
"""A checkpoint keeps weights, master weights and moments, not the gradients: 14 B/param."""
GRAD_BYTES = 2.0
DEFAULT_BATCH_TOKENS = 4_000_000
"""Llama 3 405B's first-stage global batch (4M tokens; Llama 3 paper, 2024)."""
HOURS_PER_YEAR = 8760
RACK_LIMITS_KW = (15.0, 25.0, 40.0, 100.0)


class ClusterInputError(DlhwError):
    """A cluster plan's input is out of range; the message names the field."""


FIELD_LABELS = {
    "nodes": "Nodes", "fabric": "Fabric", "rack_kw": "Rack limit", "pue": "PUE",
    "utilisation": "Utilisation", "price_per_kwh_usd": "Electricity price",
    "storage_read_gb_s": "Storage read", "storage_write_gb_s": "Storage write",
    "params": "Parameters", "tokens": "Training tokens", "mfu": "MFU",
    "batch_tokens": "Tokens per step", "precision": "Precision", "overlap": "Overlap",
    "node": "Node",
}


def bad(name: str, text: str) -> ClusterInputError:
    """An error naming the field as a user reads it and as files and flags spell it:
    ``Rack limit (rack_kw): 8 kW is below one node's 10.2 kW``."""
    label = FIELD_LABELS.get(name)
    return ClusterInputError(f"{label} ({name}): {text}" if label else f"{name}: {text}")


SPEC_FIELDS: dict[str, NumberField] = {
    "rack_kw": NumberField("rack_kw", "Rack limit", 1.0, 500.0, unit="kW"),
    "pue": NumberField("pue", "PUE", 1.0, 3.0),
    "utilisation": NumberField("utilisation", "Utilisation", 0.0, 1.0),
    "price_per_kwh_usd": NumberField("price_per_kwh_usd", "Electricity price", 0.0, 10.0,
                                     unit="USD/kWh"),
    "storage_read_gb_s": NumberField("storage_read_gb_s", "Storage read", 0.0, 1e6,
                                     low_open=True, unit="GB/s"),
    "storage_write_gb_s": NumberField("storage_write_gb_s", "Storage write", 0.0, 1e6,
                                      low_open=True, unit="GB/s"),
    "params": NumberField("params", "Parameters", 0.0, 1e15, low_open=True),
    "tokens": NumberField("tokens", "Training tokens", 0.0, 1e17, low_open=True),
    "mfu": NumberField("mfu", "MFU", 0.0, 1.0, low_open=True),
    "batch_tokens": NumberField("batch_tokens", "Tokens per step", 0.0, 1e12, low_open=True),
}
"""The plan's numbers, each with its range: a quadrillion parameters, 10**17 tokens and a
petabyte per second of storage are past every real run, far from float overflow (so no
"inf days"); 0 parameters is refused, never read as "use the build's model"."""

OPTIONAL_FIELDS = frozenset({"storage_read_gb_s", "storage_write_gb_s", "params", "tokens",
                             "mfu"})


def check_numbers(spec: ClusterSpec) -> None:
    """``ClusterInputError`` naming the first number of ``spec`` outside its range
    (``SPEC_FIELDS``) or a precision the estimates do not know."""
    for name, number in SPEC_FIELDS.items():
        value = getattr(spec, name)
        if value is None and name in OPTIONAL_FIELDS:
            continue
        try:
            number.check(value)
        except NumberError as exc:
            raise ClusterInputError(str(exc)) from None
    if spec.precision not in WEIGHT_FORMATS:
        shown = spec.precision if len(str(spec.precision)) <= 20 else "that"
        raise bad("precision", f"unknown {shown!r}; expected one of "
                               f"{', '.join(list(WEIGHT_FORMATS)[:12])}, ...")


@dataclass(frozen=True, slots=True)
class Node:
    """One node as the plan sees it (every node of a cluster is identical)."""

    name: str
    gpu: Part
    gpus: int
    power_w: float | None
    power_basis: str
    rack_units: float | None
    cooling: str | None
    price_usd: float | None
    price_basis: str
    nics: int
    nic_gb_s: float | None
    server: Part | None = None


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    nodes: int
    fabric: str = "ib-ndr"
    rack_kw: float = 40.0
    pue: float = 1.3
    price_per_kwh_usd: float = 0.10
    utilisation: float = 0.8
    storage_read_gb_s: float | None = None
    storage_write_gb_s: float | None = None
    params: float | None = None
    tokens: float | None = None
    mfu: float | None = None
    precision: str = "BF16"
    batch_tokens: float = DEFAULT_BATCH_TOKENS
    overlap: bool = True


@dataclass(frozen=True, slots=True)
class TrainingTime:
    compute_s: float
    exchange_s: float
    exposed_s: float
    total_s: float
    steps: float
    replicas: int
    nodes_per_replica: int
    shard_bytes: float
    model: str

    @property
    def days(self) -> float:
        return self.total_s / 86400

    def gpu_hours(self, gpus: int) -> float:
        return self.total_s * gpus / 3600


@dataclass(frozen=True, slots=True)
class GearPrice:
    """A sourced price of one piece of network gear (a switch, a cable, a transceiver)."""

    amount_usd: float
    kind: str
    """The price's kind as ``core.prices`` names it (list, street, reported)."""
    price_date: str
    source: str


def gear_keys(fabric: Fabric) -> tuple[str, str, str]:
    """The keys a price book uses for this fabric's switch, cable and transceiver."""
    return (f"switch:{fabric.switch.key}", f"cable:{fabric.gb_s}",
            f"transceiver:{fabric.gb_s}")


@dataclass(frozen=True, slots=True)
class CloudQuote:
    offer: Part
    instances: int
    hours: float
    cost_usd: float
    why: str = ""
    """Why the offer can run the plan (GPUs per instance, links, fabric)."""


@dataclass(frozen=True, slots=True)
class ClusterPlan:
    spec: ClusterSpec
    node: Node
    fabric: Fabric
    network: FabricCount
    gpus: int
    nodes_per_rack: int
    compute_racks: int
    network_rack_units: int | None
    rack_kw_used: float | None
    it_kw: float | None
    facility_kw: float | None
    heat_btu_h: float | None
    floor_m2: float
    yearly_kwh: float | None
    yearly_energy_usd: float | None
    capex_usd: float | None
    capex_known_usd: float
    checkpoint_bytes: float | None
    checkpoint_write_s: float | None
    training: TrainingTime | None
    cloud: CloudQuote | None
    assumptions: tuple[str, ...] = field(default=())
    gear_prices: Mapping[str, GearPrice] = field(default_factory=dict)
    own: OwnHardware | None = None
    """Owning the cluster (``cluster_own``): the nodes as the Workload panel costs one
    (``own_cost.job_assumptions``), times N, plus the fabric, at the plan's PUE,
    electricity price and utilisation."""

    def bill_of_materials(self) -> list[tuple[str, int, float | None]]:
        """(item, count, unit price or None): identical items once, with a count."""
        n, sw = self.network, self.fabric.switch
        switch, cable, optic = (self.gear_prices.get(k) for k in gear_keys(self.fabric))
        rows: list[tuple[str, int, float | None]] = [
            (f"{self.node.name} node ({self.node.gpus}x {self.node.gpu.display_name})",
             self.spec.nodes, self.node.price_usd),
            (f"{sw.name} switch ({sw.ports} x {sw.port_gb_s} Gb/s)", n.switches,
             switch.amount_usd if switch else None),
            (f"{self.fabric.gb_s} Gb/s cable", n.cables, cable.amount_usd if cable else None),
            (f"{self.fabric.gb_s} Gb/s transceiver", n.transceivers,
             optic.amount_usd if optic else None),
        ]
        return rows

    @property
    def network_capex_usd(self) -> float | None:
        """Switches, cables and transceivers, or None while any of them has no price."""
        total = 0.0
        for _, count, price in self.bill_of_materials()[1:]:
            if price is None:
                return None
            total += price * count
        return total

    @property
    def network_price_basis(self) -> str:
        missing = [key for (_, _, price), key
                   in zip(self.bill_of_materials()[1:], gear_keys(self.fabric), strict=True)
                   if price is None]
        if not missing:
            kinds = {p.kind for p in self.gear_prices.values()}
            return ("your quotes for the switches, cables and transceivers"
                    if kinds == {"user_quote"} else
                    "priced switches, cables and transceivers (see the price sources)")
        names = [key.partition(":")[0] for key in missing]
        said = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        return (f"add your quotes for the {said} (quoted per deal, no public list price; "
                f"on the command line: dlhw price set {' / '.join(missing)} AMOUNT)")

    @property
    def price_sources(self) -> tuple[str, ...]:
        return tuple(f"{key.split(':')[0].capitalize()} price: ${p.amount_usd:,.0f} "
                     f"({describe_price(p.kind, p.price_date)}): {p.source}"
                     for key in gear_keys(self.fabric)
                     if (p := self.gear_prices.get(key)) is not None)


def _check(spec: ClusterSpec, node: Node) -> Fabric:
    if isinstance(spec.nodes, bool) or not isinstance(spec.nodes, int) or spec.nodes < 1:
        raise bad("nodes", f"{spec.nodes!r} is not a whole number of at least 1")
    if spec.nodes > MAX_NODES:
        raise bad("nodes", f"{spec.nodes:,} is more than this planner's {MAX_NODES:,}")
    fabric = FABRICS.get(spec.fabric)
    if fabric is None:
        raise bad("fabric", f"unknown {spec.fabric!r}; expected one of {', '.join(FABRICS)}")
    if node.nic_gb_s is not None and fabric.gb_s > node.nic_gb_s:
        raise bad("fabric", f"{fabric.label} is faster than the node's {node.nic_gb_s:g} Gb/s "
                  "NICs; choose a fabric at or below the NIC speed")
    check_numbers(spec)
    if node.gpus < 1:
        raise bad("node", "the build has no GPUs to cluster")
    if node.power_w is not None and node.power_w / 1000 > spec.rack_kw:
        raise bad("rack_kw", f"{spec.rack_kw:g} kW is below one node's "
                             f"{node.power_w / 1000:.1f} kW ({node.power_basis})")
    return fabric


def training_time(node: Node, nodes: int, params: float, tokens: float, mfu: float,
                  peak_flops: float, nic_gb_s: float, batch_tokens: float = DEFAULT_BATCH_TOKENS,
                  overlap: bool = True) -> TrainingTime:
    """Compute plus exposed gradient exchange (see the module's notes)."""
    gpus = nodes * node.gpus
    memory = node.gpu.number("memory_gb")
    node_bytes = (memory or 0.0) * 1e9 * node.gpus
    need = 1 if not node_bytes else math.ceil(params * TRAINING_STATE_BYTES / node_bytes)
    per_replica = min(nodes, 1 << max(0, math.ceil(math.log2(max(1, need)))))
    replicas = max(1, nodes // per_replica)
    steps = tokens / batch_tokens
    compute_step = 6 * params * batch_tokens / (gpus * peak_flops * mfu)
    shard = params * GRAD_BYTES / (node.gpus * per_replica)
    exchange_step = (2 * (replicas - 1) / replicas * shard / (nic_gb_s * 1e9 / 8)
                     if replicas > 1 else 0.0)
    exposed_step = max(0.0, exchange_step - compute_step) if overlap else exchange_step
    model = (f"{per_replica} node(s) per model copy, {replicas} data-parallel copies; ring "
             f"all-reduce of {shard / 1e9:.2f} GB per GPU per step, "
             f"{'overlapped with' if overlap else 'after'} the backward pass")
    return TrainingTime(compute_step * steps, exchange_step * steps, exposed_step * steps,
                        (compute_step + exposed_step) * steps, steps, replicas, per_replica,
                        shard, model)


FABRIC_WORDS = ("infiniband", "efa", "roce", "rdma", "gpudirect", "3200 gbps",
                "cluster network")
"""Words in an offer's name or notes that say its instances are linked by a multi-node
fabric (InfiniBand, AWS EFA, RoCE, GPUDirect-TCPX)."""


def has_fabric(offer: Part) -> bool:
    text = f"{offer.display_name} {offer.notes or ''}".lower()
    return any(word in text for word in FABRIC_WORDS)


def cheapest_cloud(gpu: Part, offers: Sequence[Part], gpu_hours: float, gpus: int,
                   per_copy: int = 1, spans_nodes: bool = False) -> CloudQuote | None:
    """The cheapest on-demand offer that can run the plan like for like: the same GPU
    (so the same links between its GPUs), at least ``per_copy`` GPUs in one instance
    (a model copy is not split over instances without a fabric) and, when a copy spans
    nodes, instances linked by a multi-node fabric."""
    best: CloudQuote | None = None
    for offer in offers:
        per_hour, count = offer.number("price_per_hour_usd"), offer.number("accelerator_count")
        if offer.text("accelerator_id") != gpu.id or per_hour is None or not count:
            continue
        if offer.price_kind in ("cloud_spot", "cloud_reserved"):
            continue  # a job rate, not a rate that can vanish or a commitment
        if count < per_copy and not (spans_nodes and has_fabric(offer)):
            continue
        if spans_nodes and not has_fabric(offer):
            continue
        instances = math.ceil(gpus / count)
        hours = gpu_hours / gpus
        if spans_nodes:
            why = (f"{count:g} x {gpu.display_name} per instance, the instances linked by a "
                   f"multi-node fabric, as a model copy over {per_copy:,} GPUs needs")
        else:
            why = (f"{count:g} x {gpu.display_name} per instance"
                   + (f" hold a model copy ({per_copy} GPUs)" if per_copy > 1 else ""))
        quote = CloudQuote(offer, instances, hours, instances * hours * per_hour, why)
        if best is None or quote.cost_usd < best.cost_usd:
            best = quote
    return best


def job_time(job: FitResult, nodes: int, nic_gb_s: float) -> TrainingTime | None:
    """The build's job on ``nodes`` nodes when it fits one node: each node trains its own
    copy exactly as the Workload panel times it on one (``fit``: the same function,
    intra-node exchange included), and the copies all-reduce the trainable gradients
    (the adapters for LoRA/QLoRA) over each GPU's NIC. Nothing is split over nodes that
    one node holds. ``None`` when the job has no training time."""
    t = job.training
    if t is None or job.status == "fail":
        return None
    w = job.workload
    gpus_per_node = len(job.gpus)
    node_s = t.seconds
    tokens = w.dataset_tokens or 0.0
    steps = max(tokens / (w.batch * w.seq_len * nodes), 1.0)  # each copy: its batch a step
    compute_s = node_s / nodes
    shard = trainable_params(w) * GRAD_BYTES / gpus_per_node
    nic = nic_gb_s * 1e9 / 8 * LINK_EFFICIENCY
    exchange = (2 * (nodes - 1) / nodes * shard / nic) * steps if nodes > 1 else 0.0
    hidden = compute_s * 2.0 / 3.0
    exposed = max(exchange - hidden, UNHIDDEN * exchange) if exchange else 0.0
    model = (f"the job fits one node ({job.parallel.describe()})"
             + (f": each of the {nodes:,} nodes trains its own copy; ring all-reduce of "
                f"{shard / 1e9:.3f} GB of trainable gradients per GPU per step over its NIC"
                if nodes > 1 else ": timed as the Workload panel times it"))
    return TrainingTime(compute_s, exchange, exposed, compute_s + exposed, steps, nodes, 1,
                        shard, model)


def _job_quote(offer: FitOption, nodes: int) -> CloudQuote | None:
    """The same work rented: the offer runs the whole job (it fits one instance, as the
    job fits one node); spread over as many instances as there are nodes, it costs the
    same and ends about as soon."""
    if offer.job_hours is None or offer.usd_per_hour is None:
        return None
    return CloudQuote(offer.part, nodes, offer.job_hours / nodes,
                      offer.job_hours * offer.usd_per_hour,
                      qualifies(offer) + "; the same work as the cluster's copies")


def plan_cluster(spec: ClusterSpec, node: Node, cloud_offers: Sequence[Part] = (),
                 peak_flops: float | None = None,
                 gear_prices: Mapping[str, GearPrice] | None = None,
                 job: FitResult | None = None,
                 job_offer: FitOption | None = None,
                 node_own: OwnHardware | None = None) -> ClusterPlan:
    """Everything the plan reports; ``ClusterInputError`` names a bad field. ``job``: the
    build's workload fitted on one node (``job_time``), when it has one; ``job_offer``
    the cloud offer that runs that job like for like (the Workload panel's comparison).

    ``gear_prices`` (keys from ``gear_keys``) price the network; without them network
    capex is unknown and the total capex is None (never the nodes alone)."""
    fabric = _check(spec, node)
    notes: list[str] = [f"node power: {node.power_basis}", f"node price: {node.price_basis}",
                        f"PUE {spec.pue:g} (the user's or the default assumption)",
                        f"racks of {RACK_UNITS}U, {RACK_FOOTPRINT_M2:.2f} m2 each (no aisles)"]
    rails = node.nics if node.nics > 0 else node.gpus
    if node.nics <= 0:
        notes.append(f"one fabric NIC per GPU assumed ({rails} per node)")
    try:
        network = count_fabric(spec.nodes, rails, fabric.switch)
    except ValueError as exc:
        raise bad("nodes", str(exc)) from None
    gpus = spec.nodes * node.gpus
    by_power = (math.floor(spec.rack_kw * 1000 / node.power_w) if node.power_w else
                spec.nodes)
    by_space = math.floor(RACK_UNITS / node.rack_units) if node.rack_units else by_power
    if not node.rack_units:
        notes.append("node height unknown: racks limited by power alone")
    per_rack = max(1, min(by_power, by_space, spec.nodes))
    racks = math.ceil(spec.nodes / per_rack)
    sw_ru = fabric.switch.rack_units
    network_ru = network.switches * sw_ru if sw_ru is not None else None
    it_kw = spec.nodes * node.power_w / 1000 if node.power_w is not None else None
    notes.append("switch, NIC and transceiver power not counted (not in the catalog)")
    notes.append("heat: the IT load the room's cooling removes (all of it ends as heat)")
    if node.cooling == "liquid":
        notes.append("liquid-cooled nodes: the racks need facility water (a CDU per row)")
    elif node.cooling is None:
        notes.append("node cooling (air or liquid) not in the catalog")
    facility = it_kw * spec.pue if it_kw is not None else None
    kwh = facility * HOURS_PER_YEAR * spec.utilisation if facility is not None else None
    cost = kwh * spec.price_per_kwh_usd if kwh is not None else None
    known = (node.price_usd or 0.0) * spec.nodes
    racks_total = racks + (math.ceil(network_ru / RACK_UNITS) if network_ru else 0)
    ckpt = ckpt_s = None
    train = quote = None
    if spec.params is not None:
        ckpt = spec.params * CHECKPOINT_BYTES
        if spec.storage_write_gb_s:
            ckpt_s = ckpt / (spec.storage_write_gb_s * 1e9)
        if job is not None and spec.tokens == job.workload.dataset_tokens and \
                job_time(job, spec.nodes, float(fabric.gb_s)) is not None:
            train = job_time(job, spec.nodes, float(fabric.gb_s))
            assert train is not None
            quote = _job_quote(job_offer, spec.nodes) if job_offer is not None else None
            if quote is None:
                copy = job.parallel.gpus if job.parallel.zero_stage == 3 or \
                    job.parallel.tensor_parallel > 1 else 1
                quote = cheapest_cloud(node.gpu, cloud_offers, train.gpu_hours(gpus), gpus,
                                       per_copy=copy)
        elif spec.tokens is not None and peak_flops:
            mfu = spec.mfu if spec.mfu is not None else fitted_mfu(
                peak_flops, spec.params, fp8=(spec.precision or "").upper() == "FP8")
            if spec.mfu is None:
                notes.append(f"MFU {mfu:.0%}: {mfu_basis()}")
            train = training_time(node, spec.nodes, spec.params, spec.tokens, mfu, peak_flops,
                                  float(fabric.gb_s), spec.batch_tokens, spec.overlap)
            spans = train.nodes_per_replica > 1
            quote = cheapest_cloud(node.gpu, cloud_offers, train.gpu_hours(gpus), gpus,
                                   per_copy=node.gpus * train.nodes_per_replica if spans
                                   else node.gpus, spans_nodes=spans)
    plan = ClusterPlan(
        spec, node, fabric, network, gpus, per_rack, racks, network_ru,
        per_rack * node.power_w / 1000 if node.power_w is not None else None,
        it_kw, facility, it_kw * KW_TO_BTU_H if it_kw is not None else None,
        racks_total * RACK_FOOTPRINT_M2, kwh, cost, None, known, ckpt, ckpt_s, train, quote,
        tuple(notes), dict(gear_prices or {}))
    network_usd = plan.network_capex_usd
    if node.price_usd is not None and network_usd is not None:
        plan = replace(plan, capex_usd=known + network_usd)
    if node_own is not None:
        plan = replace(plan, own=cluster_own(node_own, spec.nodes, network_usd))
    return plan
