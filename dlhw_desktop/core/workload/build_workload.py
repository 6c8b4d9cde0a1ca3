"""``BuildWorkload``: the workload a build carries, typed, parsed once at the edge.

A build file, the CLI's flags and the desktop panel's form are read into one
``BuildWorkload`` (``from_mapping``) where they enter; the build holds it, and reports,
checks, the panel and the CLI take it as it is. It is written back to a mapping once,
where a file is saved (``to_mapping``). Nothing on the way parses the mapping again.

A stored workload that cannot be read (a newer or hand-edited file) is kept as it was
(``error`` says why, ``raw`` is written back unchanged) so that opening and saving a
file never loses it; the planner then says "cannot be estimated" with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.mapping import (
    WORKLOAD_KEYS,
    has_workload,
    parallelism_from_dict,
    read_flag,
    workload_from_dict,
    workload_to_dict,
)
from dlhw_desktop.core.workload.serving_request import (
    NO_REQUEST,
    ServingRequest,
    request_from_dict,
    request_to_dict,
)
from dlhw_desktop.core.workload.workload import STRATEGIES, Parallelism, Workload

Pairs = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class BuildWorkload:
    """What the build should run (``workload``; ``None``: nothing chosen) and how its GPUs
    share it (``strategy``; ``None``: the usual way for the mode)."""

    workload: Workload | None = None
    strategy: str | None = None
    cpu_offload: bool = False
    extra: Pairs = ()
    """Keys this version does not know (a newer file's): kept and written back."""
    error: str = ""
    """Why a stored workload could not be read; ``raw`` holds it as it was."""
    raw: Pairs = ()
    serving: ServingRequest = NO_REQUEST
    """What is asked of a serving setup: request lengths, users, targets."""

    def __post_init__(self) -> None:
        if self.strategy is not None and self.strategy not in STRATEGIES:
            raise WorkloadError(
                f"unknown parallel strategy {self.strategy!r} (known: {', '.join(STRATEGIES)})")

    # --- reading and writing -----------------------------------------------------------
    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> BuildWorkload:
        """Parse a build file's ``workload`` object (less ``tier``) or the CLI's flags.

        Raises ``WorkloadError`` (a message a user can act on) for bad values.
        """
        if "tier" in data:
            raise WorkloadError("the workload tier is the build's own setting, not the "
                                "workload's (Build.set_tier)")
        extra = tuple((k, v) for k, v in data.items() if k not in WORKLOAD_KEYS)
        strategy = data.get("strategy") or None
        if strategy is not None and strategy not in STRATEGIES:
            raise WorkloadError(
                f"unknown parallel strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        offload = read_flag(data, "cpu_offload", False)
        workload = workload_from_dict(data) if has_workload(data) else None
        return cls(workload, strategy, offload, extra, serving=request_from_dict(data))

    @classmethod
    def kept_as_is(cls, data: Mapping[str, Any]) -> BuildWorkload:
        """A stored workload as far as it can be read: parsed, or kept unread with the
        reason (opening a file never fails on, or loses, its workload)."""
        try:
            return cls.from_mapping(data)
        except WorkloadError as exc:
            return cls(error=str(exc), raw=tuple(data.items()))

    def to_mapping(self) -> dict[str, Any]:
        """The mapping ``from_mapping`` reads back to an equal ``BuildWorkload``."""
        if self.error:
            return dict(self.raw)
        data: dict[str, Any] = dict(self.extra)
        if self.workload is not None:
            data.update(workload_to_dict(self.workload))
        if self.strategy is not None:
            data["strategy"] = self.strategy
        if self.cpu_offload:
            data["cpu_offload"] = True
        data.update(request_to_dict(self.serving))
        return data

    # --- reading it --------------------------------------------------------------------
    @property
    def is_set(self) -> bool:
        """The user chose a workload (one that can be estimated, or one that cannot)."""
        return self.workload is not None or bool(self.error)

    def parallelism(self, gpus: int) -> Parallelism:
        """The layout on ``gpus`` GPUs: the chosen strategy where it suits the mode, else
        the default (see ``mapping.parallelism_from_dict``)."""
        mode = self.workload.mode if self.workload is not None else "inference"
        data: dict[str, Any] = {"cpu_offload": self.cpu_offload}
        if self.strategy is not None:
            data["strategy"] = self.strategy
        return parallelism_from_dict(data, mode, gpus)

    def with_workload(self, workload: Workload | None) -> BuildWorkload:
        """The same layout choices with another job (the advisor's, say)."""
        return BuildWorkload(workload, self.strategy, self.cpu_offload, self.extra,
                             serving=self.serving)

    def with_serving(self, serving: ServingRequest) -> BuildWorkload:
        """The same job with another serving request (lengths, users, targets)."""
        return replace(self, serving=serving)


NO_WORKLOAD = BuildWorkload()
"""A build with no workload chosen."""
