"""The alignment of every turn of one log: the per-file work `annotator align` hands to a FileMap
(annotator.corpus.parallel), so it runs in this process, on every core or on a Dask cluster alike.

align_log reads the log, keys each turn by its audio's and text's content, takes what the cache keeps
(read only) and aligns the rest; the caller keeps the new outcomes (those marked fresh).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from annotator.alignment.cache import Outcome, alignment_key, file_digest, read_kept
from annotator.alignment.engine import NO_AUDIO, NotAligned, align_outcome
from annotator.alignment.turns import TurnToAlign, turns_to_align
from annotator.log.audio_refs import resolver_for
from annotator.log.document import LogDocument


@dataclass(frozen=True)
class TurnOutcome:
    turn: TurnToAlign
    key: str | None  # its key in the cache (None: no audio to key it by)
    outcome: Outcome  # the words, or why the turn was not aligned
    fresh: bool  # made in this run (not read from the cache): to be kept


def align_log(path: Path, cache_file: Path | None = None, force: bool = False) -> list[TurnOutcome]:
    """Every turn of the log at PATH with audio or words, aligned or with the reason it is not; what
    CACHE_FILE keeps is taken as it is unless FORCE."""
    document = LogDocument.load(path)
    try:
        turns = list(turns_to_align(document, resolver_for(path)))
    finally:
        document.release()
    digests: dict[Path, str | NotAligned] = {}
    keys = [_key(turn, digests) for turn in turns]
    kept = {} if force else read_kept(cache_file, [key for key in keys if isinstance(key, str)])
    outcomes = []
    for turn, key in zip(turns, keys):
        if isinstance(key, NotAligned):
            outcomes.append(TurnOutcome(turn, None, key, False))
        elif key in kept:
            outcomes.append(TurnOutcome(turn, key, kept[key], False))
        else:
            outcomes.append(TurnOutcome(turn, key, _aligned(turn), True))
    return outcomes


def _key(turn: TurnToAlign, digests: dict[Path, str | NotAligned]) -> str | NotAligned:
    if turn.audio is None:
        return NotAligned(NO_AUDIO, turn.audio_problem or "no audio file")
    digest = digests.get(turn.audio)
    if digest is None:
        try:
            digest = file_digest(turn.audio)
        except OSError as error:
            digest = NotAligned(NO_AUDIO, f"{turn.audio.name}: cannot be read ({error.strerror or error})")
        digests[turn.audio] = digest
    return digest if isinstance(digest, NotAligned) else alignment_key(digest, turn.text or "")


def _aligned(turn: TurnToAlign) -> Outcome:
    assert turn.audio is not None
    return align_outcome(turn.audio, turn.text)
