"""The Build model: slots, quantities, change events, snapshots for undo."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from dlhw_desktop.core.build.build import (
    Build,
    BuildEvent,
    BuildItem,
    BuildReset,
    NameChanged,
    PartAdded,
    PartRemoved,
    PartReplaced,
    QuantityChanged,
    Slot,
    TierChanged,
    WorkloadChanged,
    slot_for,
)
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.core.workload.errors import WorkloadError

if TYPE_CHECKING:
    from tests.core.conftest import PartFactory


@pytest.fixture
def events() -> list[BuildEvent]:
    return []


@pytest.fixture
def build(events: list[BuildEvent]) -> Build:
    b = Build("My rig")
    b.subscribe(events.append)
    return b


def test_single_slot_tells_the_ui_what_add_would_replace(build: Build, parts: PartFactory,
                                                         events: list[BuildEvent]) -> None:
    first, second = parts.ryzen_9_7950x(), parts.ryzen_7_7700x()
    assert build.add(first) is None
    assert build.occupant(Slot.CPU) == BuildItem(first, 1)
    assert build.would_replace(second) == BuildItem(first, 1)
    assert build.would_replace(first) is None

    replaced = build.add(second)

    assert replaced == BuildItem(first, 1)
    assert build.cpu == second
    assert events == [PartAdded(Slot.CPU, BuildItem(first), 0),
                      PartReplaced(Slot.CPU, BuildItem(first), BuildItem(second), 0)]


def test_adding_the_same_single_part_again_changes_nothing(build: Build, parts: PartFactory,
                                                           events: list[BuildEvent]) -> None:
    build.add(parts.rm850x())
    events.clear()
    assert build.add(parts.rm850x()) is None
    assert events == []


def test_single_slot_refuses_quantities(build: Build, parts: PartFactory) -> None:
    with pytest.raises(ValueError, match="one Motherboard"):
        build.add(parts.proart_x670e(), 2)
    build.add(parts.proart_x670e())
    with pytest.raises(ValueError):
        build.set_quantity(parts.proart_x670e().id, 2)
    with pytest.raises(ValueError, match="at most 2"):
        build.add(parts.ryzen_9_7950x(), 3)  # CPUs: two at most (a dual-socket board)


def test_occupant_is_only_for_single_slots(build: Build) -> None:
    with pytest.raises(ValueError):
        build.occupant(Slot.ACCELERATOR)


def test_adding_a_card_twice_raises_its_quantity(build: Build, parts: PartFactory,
                                                  events: list[BuildEvent]) -> None:
    card = parts.rtx_4090()
    build.add(card)
    build.add(card)
    assert build.accelerators == (BuildItem(card, 2),)
    assert events[-1] == QuantityChanged(Slot.ACCELERATOR, card.id, 1, 2)


def test_set_quantity_emits_only_on_a_real_change(build: Build, parts: PartFactory,
                                                  events: list[BuildEvent]) -> None:
    card = parts.rtx_4090()
    build.add(card, 2)
    events.clear()
    assert build.set_quantity(card.id, 2) == 2
    assert events == []
    assert build.set_quantity(card.id, 3) == 2
    assert events == [QuantityChanged(Slot.ACCELERATOR, card.id, 2, 3)]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_quantity_must_be_a_positive_whole_number(build: Build, parts: PartFactory,
                                                  bad: object) -> None:
    with pytest.raises(ValueError):
        build.add(parts.rtx_4090(), bad)  # type: ignore[arg-type]


def test_remove_then_add_at_index_restores_the_order(build: Build, parts: PartFactory,
                                                     events: list[BuildEvent]) -> None:
    a, b, c = parts.samsung_990_pro_2tb(), parts.samsung_870_evo_4tb(), parts.exos_x18_16tb()
    for drive in (a, b, c):
        build.add(drive)
    removed = build.remove(b.id)
    assert removed == BuildItem(b, 1)
    assert events[-1] == PartRemoved(Slot.STORAGE, BuildItem(b, 1), 1)
    assert [i.part.id for i in build.storage] == [a.id, c.id]

    build.add(removed.part, removed.quantity, index=1)  # what an undo command does

    assert [i.part.id for i in build.storage] == [a.id, b.id, c.id]
    assert build.index_of(b.id) == 1


def test_remove_unknown_part_raises_keyerror(build: Build) -> None:
    with pytest.raises(KeyError):
        build.remove("accelerator/nope")


def test_replace_keeps_place_and_quantity(build: Build, parts: PartFactory,
                                          events: list[BuildEvent]) -> None:
    build.add(parts.rtx_4070())
    build.add(parts.rtx_4090(), 2)
    old = build.replace(parts.rtx_4090().id, parts.rtx_4080())
    assert old == BuildItem(parts.rtx_4090(), 2)
    assert build.accelerators == (BuildItem(parts.rtx_4070(), 1), BuildItem(parts.rtx_4080(), 2))
    assert events[-1] == PartReplaced(Slot.ACCELERATOR, old, BuildItem(parts.rtx_4080(), 2), 1)


def test_replace_refuses_a_part_of_another_slot(build: Build, parts: PartFactory) -> None:
    build.add(parts.rtx_4090())
    with pytest.raises(ValueError, match="goes in"):
        build.replace(parts.rtx_4090().id, parts.ryzen_9_7950x())


def test_name_notes_tier_emit_only_on_change(build: Build, events: list[BuildEvent]) -> None:
    build.set_name("My rig")
    build.set_notes("")
    build.set_tier(None)
    assert events == []
    build.set_name("Lab box")
    build.set_tier("demanding")
    build.set_tier("demanding")
    assert events == [NameChanged("My rig", "Lab box"), TierChanged(None, "demanding")]


def test_unknown_tier_is_refused(build: Build) -> None:
    with pytest.raises(ValueError, match="unknown workload tier"):
        build.set_tier("extreme")


def test_workload_keys_are_kept_and_compared(build: Build, events: list[BuildEvent]) -> None:
    build.set_workload(BuildWorkload.from_mapping({"model": "llama-3.1-8b", "mode": "lora"}))
    build.set_workload(BuildWorkload.from_mapping({"model": "llama-3.1-8b", "mode": "lora"}))
    assert len(events) == 1 and isinstance(events[0], WorkloadChanged)
    assert build.workload.workload is not None
    assert build.workload.workload.model.key == "llama-3.1-8b"
    assert build.workload.workload.mode == "lora"
    with pytest.raises(WorkloadError):  # the tier has its own setter
        BuildWorkload.from_mapping({"tier": "demanding"})
    with pytest.raises(TypeError):  # a raw mapping is parsed at the edge, not held
        build.set_workload({"model": "llama-3.1-8b"})  # type: ignore[arg-type]


def test_snapshot_restore_is_one_reset_event(build: Build, parts: PartFactory,
                                             events: list[BuildEvent]) -> None:
    build.add(parts.rtx_4090(), 2)
    build.set_tier("demanding")
    before = build.snapshot()
    build.add(parts.ryzen_9_7950x())
    build.set_name("Changed")
    build.remove(parts.rtx_4090().id)
    events.clear()

    build.restore(before)

    assert events == [BuildReset()]
    assert build.snapshot() == before
    assert build.accelerators == (BuildItem(parts.rtx_4090(), 2),)
    assert build.cpu is None and build.name == "My rig"
    build.restore(before)
    assert events == [BuildReset()]  # nothing differed the second time


def test_unsubscribe_stops_events(build: Build, parts: PartFactory) -> None:
    seen: list[BuildEvent] = []
    stop = build.subscribe(seen.append)
    stop()
    stop()  # idempotent
    build.add(parts.rtx_4090())
    assert seen == []


def test_clear_empties_and_only_fires_when_something_was_there(
        build: Build, parts: PartFactory, events: list[BuildEvent]) -> None:
    build.clear()
    assert events == []
    build.add(parts.rtx_4090())
    build.clear()
    assert len(build) == 0 and events[-1] == BuildReset()


def test_cloud_offerings_and_cloud_tpus_get_their_own_slot(build: Build,
                                                           parts: PartFactory) -> None:
    assert slot_for(parts.tpu_v5e()) is Slot.CLOUD
    assert slot_for(parts.aws_p4d()) is Slot.CLOUD
    assert slot_for(parts.rtx_4090()) is Slot.ACCELERATOR
    build.add(parts.tpu_v5e())
    build.add(parts.aws_p4d())
    assert build.accelerators == ()
    assert [i.part.id for i in build.cloud] == [parts.tpu_v5e().id, parts.aws_p4d().id]


def test_items_come_in_slot_order_and_contains_by_id(build: Build, parts: PartFactory) -> None:
    build.add(parts.meshify_2())
    build.add(parts.rtx_4090())
    build.add(parts.ryzen_9_7950x())
    assert [i.slot for i in build.items()] == [Slot.CPU, Slot.ACCELERATOR, Slot.CASE]
    assert parts.rtx_4090().id in build
    assert "cpu/none" not in build
    assert len(build) == 3
