"""kept_out_of_collection: what a bulk pass made is out of the cycle collector's walks once the pass ends."""

from __future__ import annotations

import gc

import pytest

from annotator.log.gc_pause import collection_paused, kept_out_of_collection


class Made:
    """Something a pass makes (tracked by the collector: it has a __dict__)."""


@pytest.fixture(autouse=True)
def nothing_frozen_afterwards():
    yield
    gc.unfreeze()


def test_what_the_pass_made_is_frozen_once_it_ends_and_the_collector_waited_meanwhile():
    gc.unfreeze()
    with kept_out_of_collection():
        assert collection_paused()
        made = [Made() for _ in range(1000)]
    assert not collection_paused()
    assert not any(thing is made[0] for thing in gc.get_objects())
    assert gc.get_freeze_count() >= len(made)


def test_a_pass_ended_by_an_error_freezes_nothing():
    gc.unfreeze()
    with pytest.raises(ValueError), kept_out_of_collection():
        made = Made()
        raise ValueError("the pass failed")
    assert not collection_paused() and gc.get_freeze_count() == 0
    assert any(thing is made for thing in gc.get_objects())


def test_a_generator_closed_half_way_ends_the_pause_and_freezes_nothing():
    gc.unfreeze()

    def steps():
        with kept_out_of_collection():
            for _ in range(3):
                yield Made()

    walk = steps()
    first = next(walk)
    assert collection_paused()
    walk.close()
    assert not collection_paused() and gc.get_freeze_count() == 0
    assert any(thing is first for thing in gc.get_objects())
