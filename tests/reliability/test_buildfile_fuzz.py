"""The build-file loader on arbitrary input: a build, or the project's own clear error."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.errors import BuildFileError

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)
PART_IDS = st.sampled_from([
    "accelerator/nvidia-geforce-rtx-4090", "cpu/amd-ryzen-9-9950x", "psu/corsair-hx1500i",
    "accelerator/gone-card", "custom/cpu/acme-x", "", "x" * 300,
]) | st.text(max_size=40)
ENTRY = st.fixed_dictionaries(
    {"id": PART_IDS | st.integers() | st.none()},
    optional={"quantity": st.integers(-5, 10_000) | st.floats() | st.text(max_size=3),
              "category": st.text(max_size=12) | st.sampled_from(["cpu", "accelerator"]),
              "custom": JSON},
)
BUILDISH = st.fixed_dictionaries(
    {"format": st.just("dlhw-build") | st.text(max_size=5),
     "version": st.sampled_from([1, 1, 1, 2, 0, "1", None, True])},
    optional={"name": st.text() | st.integers(), "notes": JSON,
              "parts": st.lists(ENTRY, max_size=8) | JSON, "workload": JSON},
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[
    HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _load(data: str | bytes, catalog: Catalog) -> None:
    try:
        loaded = buildfile.loads(data, catalog.find)
    except BuildFileError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    # What loads can be saved and loaded again, unchanged.
    again = buildfile.loads(buildfile.dumps(loaded.build), catalog.find).build
    assert [(i.part.id, i.quantity) for i in again.items()] == [
        (i.part.id, i.quantity) for i in loaded.build.items()]


@FUZZ
@given(st.binary(max_size=400))
def test_arbitrary_bytes(catalog: Catalog, data: bytes) -> None:
    _load(data, catalog)


@FUZZ
@given(JSON)
def test_arbitrary_json(catalog: Catalog, document: object) -> None:
    _load(json.dumps(document), catalog)


@FUZZ
@given(BUILDISH)
def test_documents_that_look_like_builds(catalog: Catalog, document: dict) -> None:
    _load(json.dumps(document), catalog)
