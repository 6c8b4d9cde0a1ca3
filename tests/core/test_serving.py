"""Serving capacity (issue #30 item 2): users a set of GPUs holds, their speed, their wait
for the first token, the cost of a million tokens; against published serving runs."""

from __future__ import annotations

import csv
import math

import pytest

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import serving_check
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.fit import fit
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.serving import (
    ServingRequest,
    estimate_serving,
    rented_rate,
    serving_for_fit,
)
from dlhw_desktop.core.workload.serving_model import copy_for
from dlhw_desktop.core.workload.workload import Parallelism, Workload
from dlhw_desktop.resources import resource_path

REPORTED_THROUGHPUT_SHARE = 0.88
"""docs/ESTIMATES.md: 38 of the 43 rows the app can describe within 35 %."""


def _gpu(name: str, memory_gb: float, bandwidth: float, fp8: float, price: float | None,
         **extra: object) -> Part:
    return Part(f"accelerator/{name.lower().replace(' ', '-')}", Category.ACCELERATOR,
                "NVIDIA", name, "test", "2025-01-01", price_usd=price,
                specs={"memory_gb": memory_gb, "memory_bandwidth_gb_s": bandwidth,
                       "bf16_tensor_tflops": fp8 / 2, "fp8_tensor_tflops": fp8,
                       "fp16_tensor_tflops": fp8 / 2, "tdp_w": 700, **extra})


H100 = _gpu("H100 SXM", 80, 3350, 1979, 30000, memory_type="HBM3",
            interconnect_bandwidth_gb_s=900)
H200 = _gpu("H200 SXM", 141, 4800, 1979, None, memory_type="HBM3e",
            interconnect_bandwidth_gb_s=900)
LLAMA_70B_FP8 = Workload(preset("llama-3.3-70b"), precision="FP8", kv_precision="FP8",
                         serving="tensorrt-llm")


def _estimate(request: ServingRequest, workload: Workload = LLAMA_70B_FP8,
              gpu: Part = H100, gpus: int = 2, strategy: str = "tp"):  # type: ignore[no-untyped-def]
    copy = copy_for(workload, [gpu], gpus, Parallelism(gpus, strategy) if gpus > 1 else None,
                    request.input_tokens, request.output_tokens)
    return estimate_serving(copy, request, stack_name=copy.stack.name)


# --- against published serving runs -----------------------------------------------------


def _rows(name: str) -> list[dict[str, str]]:
    with resource_path("benchmarks", name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_throughput_within_35_percent_of_published_serving_runs() -> None:
    checked, skipped = serving_check.check(_rows("serving_measurements.csv"),
                                           _rows("serving_gpus.csv"))
    # only GPUs the catalog lacks are left out, and they are named
    assert skipped and all("not in the catalog" in reason for _, reason in skipped)
    within, total = serving_check.share_within(checked, 0.35)
    assert total >= 40
    assert within / total >= 0.80  # the target
    assert within / total >= REPORTED_THROUGHPUT_SHARE - 0.03  # what the docs say
    # NIM's sweep also gives the speed per user and the first-token time
    speed_ok, speed_rows = serving_check.share_within(checked, 0.35, "per_user")
    first_ok, first_rows = serving_check.share_within(checked, 0.35, "ttft_s")
    assert speed_rows == first_rows == 9
    assert speed_ok / speed_rows >= 0.8 and first_ok / first_rows >= 0.8


# --- what a user notices ------------------------------------------------------------------


def test_more_users_share_the_gpus_until_the_memory_is_full_then_queue() -> None:
    e = _estimate(ServingRequest(input_tokens=1000, output_tokens=500))
    most = e.max_concurrency
    assert e.limit == "memory" and 10 < most < 10_000
    one, half, full, over = (e.point_at(n) for n in (1, most // 2, most, 2 * most))
    assert one.per_user_tokens_per_s > half.per_user_tokens_per_s > full.per_user_tokens_per_s
    assert one.aggregate_tokens_per_s < half.aggregate_tokens_per_s
    assert half.aggregate_tokens_per_s < full.aggregate_tokens_per_s
    # past the memory's limit nothing is faster; newcomers wait for a free slot
    assert over.queued and not full.queued
    assert over.aggregate_tokens_per_s == pytest.approx(full.aggregate_tokens_per_s)
    assert over.ttft_s is not None and full.ttft_s is not None
    assert over.ttft_s > 2 * full.ttft_s


def test_a_paged_cache_holds_more_requests_than_one_reserved_for_the_whole_answer() -> None:
    request = ServingRequest(input_tokens=500, output_tokens=2000)
    paged = _estimate(request, LLAMA_70B_FP8.but(serving="vllm"))
    reserved = _estimate(request)
    assert paged.copy.kv_bytes_per_seq_held < reserved.copy.kv_bytes_per_seq_held


def test_more_memory_and_replicas_hold_more_users() -> None:
    request = ServingRequest(input_tokens=1000, output_tokens=1000)
    h100 = _estimate(request)
    h200 = _estimate(request, gpu=H200)
    assert h200.max_concurrency > h100.max_concurrency
    small = Workload(preset("llama-3.1-8b"), precision="FP8", serving="vllm")
    one = _estimate(request, small, gpus=1)
    four = _estimate(request, small, gpus=4, strategy="ddp")
    assert four.max_concurrency == 4 * one.max_concurrency
    assert four.point_at(4 * 64).aggregate_tokens_per_s == pytest.approx(
        4 * one.point_at(64).aggregate_tokens_per_s)


def test_a_speed_target_gives_the_most_users_that_still_get_it() -> None:
    e = _estimate(ServingRequest(input_tokens=1000, output_tokens=500, target_tps=20))
    (answer,) = e.targets
    assert answer.met and answer.concurrency is not None
    assert e.point_at(answer.concurrency).per_user_tokens_per_s >= 20
    assert e.point_at(answer.concurrency + 1).per_user_tokens_per_s < 20
    assert e.at is not None and e.at.concurrency == answer.concurrency
    assert f"up to {answer.concurrency:,} concurrent users" in answer.describe()


def test_a_first_token_target_gives_the_most_users_that_still_get_it() -> None:
    e = _estimate(ServingRequest(input_tokens=5000, output_tokens=500, target_ttft_s=2.0))
    (answer,) = e.targets
    assert answer.met and answer.concurrency is not None
    first = e.point_at(answer.concurrency).ttft_s
    after = e.point_at(answer.concurrency + 1).ttft_s
    assert first is not None and after is not None and first <= 2.0 < after


def test_a_target_no_concurrency_meets_names_the_nearest() -> None:
    e = _estimate(ServingRequest(target_tps=5000))
    (answer,) = e.targets
    assert not answer.met and answer.concurrency is None
    single = e.point_at(1).per_user_tokens_per_s
    assert answer.nearest == pytest.approx(single)
    assert "no concurrency reaches it" in answer.describe()
    assert f"{single:,.1f} tokens/s at 1 user" in answer.describe()
    assert e.at is not None and e.at.concurrency == 1


def test_a_billion_users_answer_at_once_in_the_queue() -> None:
    e = _estimate(ServingRequest(users=10**9, target_ttft_s=86400))
    assert e.at is not None and e.at.queued
    assert e.at.running == e.max_concurrency
    assert any("wait in the queue" in n for n in e.notes)
    assert all(math.isfinite(v) for v in (e.at.aggregate_tokens_per_s, e.at.ttft_s or 0))


@pytest.mark.parametrize("bad", [
    {"users": 0}, {"users": -3}, {"users": 10**30}, {"users": True}, {"users": 2.5},
    {"input_tokens": 0}, {"output_tokens": -1}, {"output_tokens": 10**12},
    {"target_tps": 0.0}, {"target_tps": -5.0}, {"target_tps": math.nan},
    {"target_tps": math.inf}, {"target_tps": 1e300}, {"target_ttft_s": 0.0},
    {"target_ttft_s": -1.0}, {"target_ttft_s": 1e9},
])
def test_bad_requests_are_one_clear_line(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidWorkloadError) as info:
        ServingRequest(**bad)  # type: ignore[arg-type]
    message = str(info.value)
    assert "\n" not in message and len(message) < 160
    assert next(iter(bad)).split("_")[0] in message


def test_a_request_longer_than_the_context_is_refused() -> None:
    with pytest.raises(InvalidWorkloadError, match="context of 131,072"):
        _estimate(ServingRequest(input_tokens=130_000, output_tokens=2_000))


def test_weights_that_leave_no_room_serve_no_one() -> None:
    big = Workload(preset("llama-3.1-405b"), precision="FP8", serving="vllm")
    e = _estimate(ServingRequest(users=4), big, gpus=4)
    assert e.max_concurrency == 0 and e.at is None and e.limit == "weights"
    assert e.own_usd_per_million is None
    assert any("no user can be served" in n for n in e.notes)


# --- cost ---------------------------------------------------------------------------------


def test_cost_per_million_output_tokens_owned_and_rented() -> None:
    offers = [
        Part("cloud/a", Category.CLOUD, "A", "8x H100", "t", "2025-01-01",
             specs={"accelerator_id": H100.id, "price_per_accelerator_hour_usd": 3.99}),
        Part("cloud/b", Category.CLOUD, "B", "1x H100 spot", "t", "2025-01-01",
             price_kind="cloud_spot",
             specs={"accelerator_id": H100.id, "price_per_accelerator_hour_usd": 1.0}),
    ]
    result = fit(LLAMA_70B_FP8, [(H100, 2)])
    e = serving_for_fit(result, ServingRequest(input_tokens=1000, output_tokens=500,
                                               users=32), offers)
    assert e is not None and e.at is not None and result.own is not None
    per_hour_tokens = e.at.aggregate_tokens_per_s * 3600
    # owning: the fit's own cost per hour (amortised price + power)
    assert e.own_usd_per_million == pytest.approx(result.own.usd_per_hour / per_hour_tokens
                                                  * 1e6)
    # renting: the cheapest on-demand GPU-hour of the same GPU (not the spot one) x 2
    assert rented_rate([H100, H100], offers)[0] == pytest.approx(2 * 3.99)
    assert e.rented_usd_per_million == pytest.approx(2 * 3.99 / per_hour_tokens * 1e6)
    assert "8x H100" in e.rented_basis
    assert serving_for_fit(fit(Workload(preset("llama-3.1-8b"), "training"), [(H100, 1)])) \
        is None


def test_a_build_file_keeps_the_serving_request() -> None:
    planned = BuildWorkload.from_mapping({
        "model": "llama-3.1-8b", "input_tokens": 2000, "output_tokens": 300, "users": 16,
        "target_tps": 25.5, "target_ttft": 0.8})
    assert planned.serving == ServingRequest(2000, 300, 16, 25.5, 0.8)
    assert BuildWorkload.from_mapping(planned.to_mapping()) == planned
    with pytest.raises(InvalidWorkloadError):
        BuildWorkload.from_mapping({"model": "llama-3.1-8b", "users": "many"})


def test_replicas_do_not_multiply_one_sequence() -> None:
    from dlhw_desktop.core.workload.inference import estimate_inference

    one = Workload(preset("llama-3.1-8b"), precision="FP8", serving="vllm")
    single = estimate_inference(one, 3350e9, 1979e12, 1)
    spread = estimate_inference(one, 3350e9, 1979e12, 4, parallel=Parallelism(4, "ddp"))
    assert spread.tokens_per_s == pytest.approx(single.tokens_per_s)
    four = estimate_inference(one.but(batch=4), 3350e9, 1979e12, 4,
                              parallel=Parallelism(4, "ddp"))
    assert four.tokens_per_s == pytest.approx(4 * (single.tokens_per_s or 0))
    e = _estimate(ServingRequest(users=1, input_tokens=1000, output_tokens=500), one,
                  gpus=4, strategy="ddp")
    alone = _estimate(ServingRequest(users=1, input_tokens=1000, output_tokens=500), one,
                      gpus=1)
    assert e.at is not None and alone.at is not None
    assert e.at.aggregate_tokens_per_s == pytest.approx(alone.at.aggregate_tokens_per_s,
                                                        rel=0.05)


def test_the_checked_gpus_carry_the_catalogs_figures(catalog_path: object) -> None:
    from pathlib import Path

    from dlhw_desktop.catalog.store import Catalog

    catalog = Catalog(Path(str(catalog_path)))
    for row in _rows("serving_gpus.csv"):
        part = catalog.find(row["part_id"])
        assert part is not None, row["part_id"]
        for field in ("memory_gb", "memory_bandwidth_gb_s", "fp8_tensor_tflops",
                      "fp4_tensor_tflops", "interconnect_bandwidth_gb_s"):
            expected = float(row[field]) if row[field] else None
            assert part.number(field) == (None if expected is None
                                          else pytest.approx(expected)), (row["gpu"], field)
