"""Offline forced alignment: each word of a turn placed on the turn's audio (docs/words.md).

    words = align_turn(Path("turn.wav"), "i want to fly to boston")
    words = align_turn(samples, "i want to fly to boston", samplerate=8000)
    for word in words:
        word.text, word.start, word.end, word.score, word.unsure   # seconds from the file's start

A turn that cannot be aligned raises NotAligned, whose reason is one of REASONS.

align_turn is imported on first use: the exports read alignments through this package's cache and turns
modules, and the engine (numpy, the decoder's code) is not theirs to load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from annotator.alignment.outcome import REASONS, AlignedWord, NotAligned

if TYPE_CHECKING:
    from annotator.alignment.engine import align_turn

__all__ = ["REASONS", "AlignedWord", "NotAligned", "align_turn"]


def __getattr__(name: str):
    if name == "align_turn":
        from annotator.alignment.engine import align_turn

        return align_turn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
