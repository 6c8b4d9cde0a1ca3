"""What a user asks of a serving setup (``ServingRequest``), checked where it is made.

Kept apart from ``serving`` so that a build's workload (``build_workload``) can carry it
without importing the estimators.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.workload.errors import InvalidWorkloadError

MAX_USERS = 10**9
"""Concurrent users beyond any deployment (a billion): larger is a typing error."""
MAX_TOKENS = 10**8
"""Tokens in one request: beyond the longest published context (10M, Llama 4 Scout)."""
MAX_TARGET_TPS = 1e6
"""Tokens per second for one user: far beyond any hardware (a million)."""
MAX_TARGET_TTFT_S = 86400.0
"""Seconds to the first token: a day."""
MIN_TARGET_TPS = 0.01
"""Tokens per second for one user: one token in 100 s; a smaller target is a typing error
(``1e-308`` would be shown as 0)."""
MIN_TARGET_TTFT_S = 0.001
"""Seconds to the first token: a millisecond, below any GPU's prefill of one token (a
smaller target, ``1e-308``, would be shown as "within 0 ms")."""


def _positive_int(name: str, value: int | None, most: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
        raise InvalidWorkloadError(f"{name} must be a whole number from 1 to {most:,}, "
                                   f"got {_shown(value)}")


def _positive_float(name: str, value: float | None, least: float, most: float,
                    unit: str) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value) or not least <= value <= most:
        raise InvalidWorkloadError(f"{name} must be from {least:,g} to {most:,.0f} {unit}, "
                                   f"got {_shown(value)}")


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class ServingRequest:
    """What the user asks of a serving setup; every figure optional, checked here.

    ``users``: concurrent users to judge (``None``: as many as the memory holds);
    ``target_tps``: the speed each user needs (output tokens/s); ``target_ttft_s``: the
    longest acceptable wait for the first token.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    users: int | None = None
    target_tps: float | None = None
    target_ttft_s: float | None = None

    def __post_init__(self) -> None:
        _positive_int("input tokens", self.input_tokens, MAX_TOKENS)
        _positive_int("output tokens", self.output_tokens, MAX_TOKENS)
        _positive_int("users", self.users, MAX_USERS)
        _positive_float("target speed per user", self.target_tps, MIN_TARGET_TPS,
                        MAX_TARGET_TPS, "tokens/s")
        _positive_float("target time to first token", self.target_ttft_s,
                        MIN_TARGET_TTFT_S, MAX_TARGET_TTFT_S, "s")

    @property
    def is_set(self) -> bool:
        return any(v is not None for v in (self.input_tokens, self.output_tokens,
                                           self.users, self.target_tps,
                                           self.target_ttft_s))

    def to_dict(self) -> dict[str, Any]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                "users": self.users, "target_tps": self.target_tps,
                "target_ttft_s": self.target_ttft_s}


NO_REQUEST = ServingRequest()


SERVING_KEYS: tuple[str, ...] = ("input_tokens", "output_tokens", "users", "target_tps",
                                 "target_ttft")
"""The keys of a build file's workload object that hold the request (``target_ttft`` in
seconds)."""


def request_from_dict(data: Any) -> ServingRequest:
    """The request a workload mapping holds (absent keys: ``None``); raises
    ``InvalidWorkloadError`` for values that are no numbers or out of range."""
    values: dict[str, Any] = {}
    for key, name in (("input_tokens", "input_tokens"), ("output_tokens", "output_tokens"),
                      ("users", "users")):
        value = data.get(key)
        if value is not None and value != "":
            values[name] = _whole(key, value)
    for key, name in (("target_tps", "target_tps"), ("target_ttft", "target_ttft_s")):
        value = data.get(key)
        if value is not None and value != "":
            values[name] = _real(key, value)
    return ServingRequest(**values)


def request_to_dict(request: ServingRequest) -> dict[str, Any]:
    data = {"input_tokens": request.input_tokens, "output_tokens": request.output_tokens,
            "users": request.users, "target_tps": request.target_tps,
            "target_ttft": request.target_ttft_s}
    return {k: v for k, v in data.items() if v is not None}


def _real(key: str, value: Any) -> float:
    if isinstance(value, bool):
        raise InvalidWorkloadError(f"{key} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidWorkloadError(f"{key} must be a number, got {_shown(value)}") from None
    return number


def _whole(key: str, value: Any) -> int:
    number = _real(key, value)
    if not math.isfinite(number) or not number.is_integer():
        raise InvalidWorkloadError(f"{key} must be a whole number, got {_shown(value)}")
    return int(number)
