"""``dlhw fit`` (memory, verdict, time and cost of a workload) and ``dlhw models``."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dlhw_desktop.commands.common import open_catalog, print_json
from dlhw_desktop.core.build import Build
from dlhw_desktop.core.errors import UnknownPartError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import gib
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import (
    CostAssumptions,
    FitResult,
    fit,
    rank_fits,
)
from dlhw_desktop.core.workload.mapping import (
    ARCHITECTURE_KEYS,
    has_workload,
    parse_count,
    workload_to_dict,
)
from dlhw_desktop.core.workload.memory import MemoryEstimate, estimate_memory
from dlhw_desktop.core.workload.models import presets
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS
from dlhw_desktop.core.workload.workload import (
    MODES,
    OPTIMIZERS,
    STRATEGIES,
    Workload,
)

EXIT_FAILED_CHECK = 1


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "fit", help="memory, verdict, time and cost of a model on some GPUs",
        description="Estimate the GPU memory of a workload (bytes per GPU, item by item), "
        "the verdict per GPU (pass <= 90 %% of its memory, warn <= 100 %%, fail above), the "
        "training time or serving speed, and the cost. Exit status 1 when a GPU fails.")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--model", metavar="NAME",
                       help="a preset (see 'dlhw models'); with --build, default: the "
                       "build file's workload")
    which.add_argument("--params", metavar="N", type=_count,
                       help="a custom model's parameter count (8e9, 8B, 125M)")
    arch = p.add_argument_group("custom architecture (with --params)")
    for flag, name in (("--layers", "L"), ("--hidden", "H"), ("--heads", "A"),
                       ("--kv-heads", "K"), ("--head-dim", "D"), ("--vocab", "V"),
                       ("--context", "C")):
        arch.add_argument(flag, type=int, metavar=name)
    arch.add_argument("--active-params", type=_count, metavar="N",
                      help="mixture of experts: parameters used per token")
    p.add_argument("--mode", choices=MODES, help="default inference")
    p.add_argument("--precision", metavar="P",
                   help="weights (inference) or compute (training): "
                   + ", ".join(WEIGHT_FORMATS) + " (default BF16)")
    p.add_argument("--batch", type=int, metavar="B",
                   help="concurrent sequences (inference) or micro-batch per GPU (training), "
                   "default 1")
    p.add_argument("--seq", type=int, metavar="S", help="tokens per sequence")
    p.add_argument("--tokens", type=_count, metavar="D",
                   help="dataset tokens to train on, or tokens to generate")
    p.add_argument("--samples", type=_count, metavar="N",
                   help="dataset size in samples (images) instead of tokens")
    p.add_argument("--mfu", type=float, metavar="M",
                   help="model FLOPs utilisation, 0-1 (default 0.40; large runs reach 0.3-0.5)")
    p.add_argument("--optimizer", choices=OPTIMIZERS, help="default adamw")
    p.add_argument("--fp32-grads", action="store_true", help="keep gradients in fp32")
    p.add_argument("--checkpointing", action="store_true", help="activation checkpointing")
    p.add_argument("--no-flash-attention", action="store_true",
                   help="store the attention scores (no FlashAttention/SDPA)")
    p.add_argument("--lora-rank", type=int, metavar="R", help="default 16")
    p.add_argument("--kv-precision", metavar="P", help="KV cache precision (default BF16)")
    gpus = p.add_mutually_exclusive_group()
    gpus.add_argument("--gpus", action="append", metavar="ID[xN]",
                      help="accelerator part id with an optional count, e.g. "
                      "accelerator/nvidia-geforce-rtx-4090x2 (repeatable)")
    gpus.add_argument("--build", type=Path, metavar="FILE",
                      help="use the accelerators of a saved build file, and its workload "
                      "where no flag overrides it")
    gpus.add_argument("--rank", type=int, nargs="?", const=10, metavar="N",
                      help="list the N cheapest catalog options that fit (default 10)")
    p.add_argument("--strategy", choices=STRATEGIES,
                   help="how several GPUs share the work (default: tp for inference, "
                   "zero3 for training)")
    p.add_argument("--offload", action="store_true",
                   help="offload optimizer state and gradients to CPU memory")
    cost = p.add_argument_group("cost assumptions")
    cost.add_argument("--electricity", type=float, default=None, metavar="USD_PER_KWH")
    cost.add_argument("--pue", type=float, default=None)
    cost.add_argument("--years", type=float, default=None, help="amortisation period")
    cost.add_argument("--utilisation", type=float, default=None, metavar="U",
                      help="share of the year the machine works (0-1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_fit)

    m = sub.add_parser("models", help="list the model presets")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_models)


def _count(text: str) -> float:
    """``8e9``, ``8B``, ``125m``, ``1.5T`` -> a number (argparse type)."""
    try:
        return parse_count(text)
    except InvalidWorkloadError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


_MODEL_KEYS = ("model", "model_name", "params", "active_params", *ARCHITECTURE_KEYS)


def _flags_mapping(args: argparse.Namespace) -> dict[str, Any]:
    """The flags the user gave, as a workload mapping (``core.workload.mapping``)."""
    data: dict[str, Any] = {
        "model": args.model, "params": args.params, "active_params": args.active_params,
        **{key: getattr(args, key) for key in ARCHITECTURE_KEYS},
        "mode": args.mode, "precision": args.precision, "batch": args.batch,
        "seq": args.seq, "tokens": args.tokens, "samples": args.samples,
        "optimizer": args.optimizer, "lora_rank": args.lora_rank,
        "kv_precision": args.kv_precision, "mfu": args.mfu, "strategy": args.strategy,
    }
    # store_true flags: only a flag that was given overrides a saved value
    if args.fp32_grads:
        data["fp32_grads"] = True
    if args.checkpointing:
        data["checkpointing"] = True
    if args.no_flash_attention:
        data["flash_attention"] = False
    if args.offload:
        data["cpu_offload"] = True
    return {key: value for key, value in data.items() if value is not None}


def _planned_workload(args: argparse.Namespace,
                      saved: BuildWorkload | None = None) -> BuildWorkload:
    """The build file's workload as it is, or the flags over it (a model flag replaces its
    model), parsed once."""
    flags = _flags_mapping(args)
    if saved is not None and saved.error and not flags:
        raise InvalidWorkloadError(f"the build's workload cannot be estimated: {saved.error}")
    if saved is not None and saved.workload is not None and not flags:
        return saved
    base = saved.to_mapping() if saved is not None else {}
    if "model" in flags or "params" in flags:
        for key in _MODEL_KEYS:
            base.pop(key, None)
    merged = {**base, **flags}
    if not has_workload(merged):
        raise InvalidWorkloadError(
            "give --model or --params (or a --build file that has a workload)")
    return BuildWorkload.from_mapping(merged)


def _assumptions(args: argparse.Namespace) -> CostAssumptions:
    changes = {name: value for name, value in (
        ("electricity_usd_per_kwh", args.electricity), ("pue", args.pue),
        ("years", args.years), ("utilisation", args.utilisation)) if value is not None}
    for name, value in changes.items():
        if value <= 0:
            raise InvalidWorkloadError(f"{name} must be positive, got {value!r}")
    return CostAssumptions(**changes)


_GPU_SPEC = re.compile(r"^(?P<id>.+?)\s*(?:[x*:])\s*(?P<n>\d+)$")


Finder = Callable[[str], "Part | None"]


def part_finder(catalog: Any) -> Finder:
    """Look ids up in the catalog, then in the user's own parts (``custom/...`` ids)."""
    from dlhw_desktop.catalog.userparts import PartResolver

    return PartResolver(catalog).find


def parse_gpu_spec(spec: str, find: Finder) -> tuple[Part, int]:
    """``ID``, ``IDxN``, ``ID:N`` or ``ID*N`` -> (part, N); the ``accelerator/`` prefix is
    optional. An id that itself ends in x and digits is matched whole first."""
    def lookup(part_id: str) -> Part | None:
        for candidate in (part_id, f"accelerator/{part_id}"):
            part = find(candidate)
            if part is not None:
                return part
        return None

    text = spec.strip()
    whole = lookup(text)
    if whole is not None:
        return _accelerator(whole), 1
    match = _GPU_SPEC.match(text)
    if match:
        count = int(match.group("n"))
        if count < 1:
            raise InvalidWorkloadError(f"GPU count must be at least 1 in {spec!r}")
        part = lookup(match.group("id"))
        if part is not None:
            return _accelerator(part), count
    raise UnknownPartError(text)


def _accelerator(part: Part) -> Part:
    if part.category is not Category.ACCELERATOR:
        raise InvalidWorkloadError(f"{part.id} is a {part.category.label}, not an accelerator")
    return part


def _load_build(path: Path, find: Finder) -> Build:
    """A saved build (``core.buildfile``); its warnings go to stderr."""
    from dlhw_desktop.core import buildfile

    loaded = buildfile.load(path, find)
    for warning in loaded.warnings:
        print(f"dlhw: warning: {warning}", file=sys.stderr)
    return loaded.build


def _build_accelerators(path: Path, build: Build) -> list[tuple[Part, int]]:
    pairs = [(item.part, item.quantity) for item in build.accelerators]
    if not pairs:
        raise InvalidWorkloadError(f"{path.name}: the build has no accelerators")
    return pairs


def cmd_fit(args: argparse.Namespace) -> int:
    build: Build | None = None
    find: Finder | None = None
    if args.gpus or args.build:
        find = part_finder(open_catalog(args))
    if args.build:
        assert find is not None
        build = _load_build(args.build, find)
    planned = _planned_workload(args, build.workload if build is not None else None)
    workload = planned.workload
    assert workload is not None  # _planned_workload raised otherwise
    assumptions = _assumptions(args)
    data: dict[str, Any] = {"workload": _workload_dict(workload),
                            "model": workload.model.to_dict()}
    result: FitResult | None = None
    if find is not None:
        if build is not None and args.build:
            accelerators = _build_accelerators(args.build, build)
        else:
            accelerators = [parse_gpu_spec(s, find) for s in args.gpus]
        count = sum(n for _, n in accelerators)
        result = fit(workload, accelerators,
                     planned.parallelism(count),
                     assumptions=assumptions)
        memory = result.memory
        data.update(result.to_dict())
    else:
        memory = estimate_memory(workload, planned.parallelism(1))
        data["memory"] = memory.to_dict()
    ranking = None
    if args.rank is not None:
        if args.rank < 1:
            raise InvalidWorkloadError("--rank must be at least 1")
        catalog = open_catalog(args)
        ranking = rank_fits(workload, catalog.parts(Category.ACCELERATOR),
                            catalog.parts(Category.CLOUD), strategy=args.strategy,
                            assumptions=assumptions)[: args.rank]
        data["ranking"] = [o.to_dict() for o in ranking]
    if args.json:
        print_json(data)
    else:
        _print_text(workload, memory, result, ranking)
    if result is not None and result.status == "fail":
        return EXIT_FAILED_CHECK
    return 0


def _workload_dict(w: Workload) -> dict[str, Any]:
    """The saved form (``workload_to_dict``) plus what follows from it."""
    return {**workload_to_dict(w), "weights_format": w.base_format,
            "compute_precision": w.compute, "seq": w.seq_len,
            "tokens": w.tokens, "samples": w.samples}


_GPU_NUMBER = re.compile(r" #(\d+)\b")


def _grouped_checks(checks: Any) -> list[tuple[str, str, str]]:
    """Identical per-GPU lines once, with the GPUs they cover ("#1-#2048"): a fit on
    2,048 GPUs would otherwise say one thing 2,048 times."""
    groups: list[tuple[str, str, str, str, list[int]]] = []
    for check in checks:
        numbers = [int(n) for n in _GPU_NUMBER.findall(check.message)]
        key = _GPU_NUMBER.sub("", check.message)
        suggestion = check.suggestion or ""
        last = groups[-1] if groups else None
        if (len(numbers) == 1 and last is not None and last[4] and last[0] == check.status
                and last[2] == key and last[3] == suggestion):
            last[4].append(numbers[0])
            continue
        groups.append((check.status, check.message, key, suggestion,
                       numbers[:1] if len(numbers) == 1 else []))
    lines = []
    for status, message, key, suggestion, numbers in groups:
        if len(numbers) > 1:
            head, sep, tail = key.partition(":")
            message = (f"{head} (GPUs #{numbers[0]}-#{numbers[-1]}, {len(numbers):,} "
                       f"alike){sep}{tail}")
        lines.append((status, message, suggestion))
    return lines


def _print_text(workload: Workload, memory: MemoryEstimate, result: FitResult | None,
                ranking: list[Any] | None) -> None:
    out = sys.stdout.write
    model = workload.model
    out(f"{model.name}: {workload.mode}, {workload.base_format}, batch {workload.batch}, "
        f"{workload.seq_len} tokens/sample\n")
    out(f"Memory per GPU ({memory.parallel.describe()}):\n")
    width = max(len(i.label) for i in memory.items)
    for item in memory.items:
        amount = "unknown" if item.bytes is None else f"{item.bytes:>17,.0f} B"
        out(f"  {item.label:<{width}}  {amount:>19}  {gib(item.bytes):>11}  {item.note}\n")
    total = f"{memory.per_gpu_bytes:>17,.0f} B"
    bound = "" if memory.complete else "  (lower bound)"
    out(f"  {'Total':<{width}}  {total:>19}  {gib(memory.per_gpu_bytes):>11}{bound}\n")
    for item in memory.host_items:
        out(f"  host RAM: {item.label} {gib(item.bytes)}\n")
    for note in (result.notes if result else memory.notes):
        out(f"  note: {note}\n")
    if result is not None:
        out("Verdict:\n")
        for status, message, suggestion in _grouped_checks(result.checks):
            out(f"  {status.upper():<7} {message}\n")
            if suggestion:
                out(f"          try: {suggestion}\n")
        if result.training is not None:
            t = result.training
            out(f"Time: {t.flops:.3g} FLOPs -> {t.hours:,.1f} h ({t.days:,.2f} days, "
                f"{t.gpu_hours:,.0f} GPU-hours) at {t.mfu:.0%} MFU\n")
        elif result.inference is not None and result.inference.tokens_per_s:
            i = result.inference
            line = f"Speed: ~{i.tokens_per_s:,.0f} tokens/s ({i.bound} bound"
            if i.memory_bound_tokens_per_s:
                line += f"; memory bound {i.memory_bound_tokens_per_s:,.0f}"
            if i.compute_bound_tokens_per_s:
                line += f"; compute bound {i.compute_bound_tokens_per_s:,.0f}"
            out(line + ")\n")
            if i.samples_per_s:
                out(f"       ~{i.samples_per_s:,.1f} samples/s\n")
        elif workload.training and workload.tokens is None and workload.samples is None:
            out("Time: give --tokens (or --samples) for a training time\n")
        if result.job_hours is not None:
            out(f"Job: {result.job_hours:,.2f} h\n")
        if result.own is not None:
            o = result.own
            out(f"Own: ${o.price_usd:,.0f} over {o.years:g} years at {o.utilisation:.0%} use "
                f"-> ${o.usd_per_hour:,.2f}/h (energy ${o.energy_usd_per_hour:,.2f}/h at "
                f"{o.power_w:,.0f} W)\n")
        if result.cost is not None:
            out(f"Run cost: ${result.cost.own_usd:,.2f} (energy ${result.cost.energy_usd:,.2f}"
                f" + amortised ${result.cost.amortised_usd:,.2f})\n")
        if result.usd_per_million_tokens is not None:
            out(f"Serving: ${result.usd_per_million_tokens:,.3f} per million tokens\n")
    if ranking is not None:
        out("What fits (cheapest first):\n")
        if not ranking:
            out("  nothing in the catalog fits with up to 8 GPUs\n")
        for option in ranking:
            cost = "n/a" if option.cost_usd is None else f"${option.cost_usd:,.0f}"
            fraction = "" if option.fraction is None else f"{option.fraction:.0%} "
            out(f"  {option.status.upper():<7} {option.kind:<5} {option.label}: {cost} "
                f"({option.cost_basis}); {fraction}of memory  [{option.part_id}]\n")


def cmd_models(args: argparse.Namespace) -> int:
    models = presets()
    if args.json:
        print_json([m.to_dict() for m in models])
        return 0
    width = max(len(m.key) for m in models)
    for m in models:
        params = f"{m.params / 1e9:,.2f}B" if m.params >= 1e9 else f"{m.params / 1e6:,.0f}M"
        extra = []
        if m.is_moe:
            extra.append(f"{m.compute_params / 1e9:,.1f}B active")
        if m.layers:
            extra.append(f"{m.layers} layers")
        if m.attention != "n/a":
            extra.append(f"{m.attention} {m.heads}/{m.kv_heads_effective} heads")
        if m.context:
            extra.append(f"context {m.context:,}")
        print(f"{m.key:<{width}}  {m.name}: {params} {m.kind}"
              + (f" ({', '.join(extra)})" if extra else ""))
    return 0
