"""``dlhw fit``'s serving flags and the serving block of its text output."""

from __future__ import annotations

import argparse
import sys

from dlhw_desktop.commands.common import bounded_int, finite_float
from dlhw_desktop.core.formatting import gib, rate
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.serving import ServingEstimate
from dlhw_desktop.core.workload.serving_request import MAX_TOKENS, MAX_USERS
from dlhw_desktop.core.workload.workload import Workload


def add_serving_arguments(parser: argparse.ArgumentParser) -> None:
    """--input-tokens, --output-tokens, --users, --target-tps, --target-ttft."""
    serve = parser.add_argument_group(
        "serving capacity (inference; any of these adds the answer, an estimate: "
        "concurrency the KV cache holds, throughput, speed per user, time to first token, "
        "cost per million output tokens)")
    serve.add_argument("--input-tokens", type=bounded_int(1, MAX_TOKENS), metavar="N",
                       help="prompt tokens per request (default: the sequence length less "
                       "the output)")
    serve.add_argument("--output-tokens", type=bounded_int(1, MAX_TOKENS), metavar="N",
                       help="generated tokens per request (default 512, at most half the "
                       "sequence)")
    serve.add_argument("--users", type=bounded_int(1, MAX_USERS), metavar="N",
                       help="concurrent users to judge (default: as many as memory holds)")
    serve.add_argument("--target-tps", type=finite_float, metavar="T",
                       help="output tokens/s each user needs: the most users served so")
    serve.add_argument("--target-ttft", type=finite_float, metavar="S",
                       help="longest wait for the first token, in seconds: the most users "
                       "served so")


_SERVING_FLAGS = ("input_tokens", "output_tokens", "users", "target_tps", "target_ttft")


def check_serving_flags(args: argparse.Namespace, workload: Workload, gpus: bool) -> None:
    given = [f"--{k.replace('_', '-')}" for k in _SERVING_FLAGS if getattr(args, k) is not None]
    if not given:
        return
    if workload.mode != "inference":
        verb = "apply" if len(given) > 1 else "applies"
        raise InvalidWorkloadError(f"{', '.join(given)} {verb} to serving (--mode inference), "
                                   f"not to {workload.mode}")
    if not workload.model.autoregressive:
        verb = "apply" if len(given) > 1 else "applies"
        raise InvalidWorkloadError(f"{', '.join(given)} {verb} to models that generate "
                                   f"tokens; {workload.model.name} does not")
    if not gpus:
        verb = "need" if len(given) > 1 else "needs"
        raise InvalidWorkloadError(f"{', '.join(given)} {verb} GPUs to serve on: give --gpus "
                                   "or --build")


def print_serving(s: ServingEstimate) -> None:
    out = sys.stdout.write
    out(f"Serving: {s.stack}, {s.input_tokens:,} input + {s.output_tokens:,} output tokens "
        f"per request\n  {s.basis}\n")
    if s.max_concurrency:
        held = gib(s.copy.kv_bytes_per_seq_held)
        budget = gib(s.copy.kv_budget_per_gpu)
        limit = (f"{s.stack}'s batch limit; the memory holds more" if s.limit == "batch"
                 else f"KV cache {held} each of {budget} per GPU")
        out(f"  holds {s.max_concurrency:,} concurrent requests ({limit})\n")
    if s.at is not None:
        a = s.at
        ttft = "n/a" if a.ttft_s is None else _seconds_text(a.ttft_s)
        out(f"  at {a.concurrency:,.0f} users: {rate(a.aggregate_tokens_per_s)} output "
            f"tokens/s in all, {rate(a.per_user_tokens_per_s)} tokens/s per user, first "
            f"token after {ttft} ({a.bound}-bound)\n")
    for target in s.targets:
        out(f"  target {target.describe()}\n")
    own, rented = s.own_usd_per_million, s.rented_usd_per_million
    if s.at is not None:
        owned = "n/a (a price or power figure is unknown)" if own is None else f"${own:,.3f}"
        hired = ("n/a (no cloud price for these GPUs)" if rented is None
                 else f"${rented:,.3f} ({s.rented_basis})")
        out(f"  per million output tokens at {s.at.concurrency:,.0f} users: {owned} owned; "
            f"{hired} rented\n")
    for note in s.notes:
        out(f"  note: {note}\n")


def _seconds_text(value: float) -> str:
    return f"{value * 1000:,.0f} ms" if value < 1 else f"{value:,.2f} s"
