"""The interval tiers of a TextGrid or ELAN file as read back, in the file's order, each with its position.

    tiers = read_textgrid_tiers(path)          # [Tier(1, "turns", [...]), Tier(2, "recognizer", [...]), ...]
    same_name(tiers, ("transcription",))       # "tiers 3 and 5 are both named 'transcription'", or None

Praat lets two tiers share a name and a dictionary by name would keep one of them, so the readers
keep them all, and whoever reads a tier by its name first asks whether it is the only one.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.export.session_tiers import Interval


@dataclass(frozen=True)
class Tier:
    position: int  # 1 for the file's first tier (of any kind), as Praat numbers them
    name: str
    intervals: list[Interval]  # the labelled ones, in milliseconds
    refers_to: str | None = None  # an ELAN tier of reference annotations: the tier whose times they take; no intervals


def same_name(positions: list[tuple[int, str]], names: tuple[str, ...]) -> str | None:
    """What is wrong when two or more of POSITIONS ((position, name) in the file's order) share one of NAMES."""
    for wanted in names:
        found = [str(position) for position, name in positions if name == wanted]
        if len(found) > 1:
            listed = f"{', '.join(found[:-1])} and {found[-1]}"
            both = "both" if len(found) == 2 else "all"
            return f"tiers {listed} are {both} named {wanted!r}"
    return None
