"""Offline forced alignment: each word of a turn placed on the turn's audio (docs/words.md).

    words = align_turn(Path("turn.wav"), "i want to fly to boston")
    words = align_turn(samples, "i want to fly to boston", samplerate=8000)
    for word in words:
        word.text, word.start, word.end, word.score, word.unsure   # seconds from the file's start

A turn that cannot be aligned raises NotAligned, whose reason is one of REASONS.
"""

from annotator.alignment.engine import REASONS, AlignedWord, NotAligned, align_turn

__all__ = ["REASONS", "AlignedWord", "NotAligned", "align_turn"]
