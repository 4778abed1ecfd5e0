"""The times of an ELAN file's time slots, unaligned ones placed as ELAN places them.

    times = slot_times({"ts1": 0, "ts2": None, "ts3": None, "ts4": 3000})
    # {"ts1": 0, "ts2": 1000, "ts3": 2000, "ts4": 3000}

ELAN writes a TIME_SLOT without TIME_VALUE for a boundary the annotator did not align (inside a
time subdivision, say), and shows it between the aligned slots around it in the TIME_ORDER: a run
of unaligned slots is spread evenly between the aligned slot before it and the one after it. A run
with no aligned slot before it or none after it has nothing to be placed by: its slots stay None.
"""

from __future__ import annotations


def slot_times(slots: dict[str, int | None]) -> dict[str, int | None]:
    """Each slot's time in milliseconds (SLOTS in TIME_ORDER order), to the nearest millisecond;
    None for an unaligned slot that no aligned slot bounds on both sides."""
    times: dict[str, int | None] = dict(slots)
    run: list[str] = []  # unaligned slots since the last aligned one
    before: int | None = None
    for slot, value in slots.items():
        if value is None:
            run.append(slot)
            continue
        if run and before is not None:
            step = (value - before) / (len(run) + 1)
            for place, unaligned in enumerate(run, start=1):
                times[unaligned] = round(before + step * place)
        run, before = [], value
    return times
