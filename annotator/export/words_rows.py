"""The rows of words.csv for one log: every word of every aligned turn (docs/words.md, "Words in the exports").

The export aligns nothing: a turn's words are those `annotator align` kept in the alignment cache
(annotator.alignment.cache) under the key of the turn's audio and text as the log has them now, read
without writing. A turn the cache does not hold is counted, so that the export can say how many there
are; one the aligner could not place (silent audio, no words...) is counted apart.

start and end are seconds from the start of the turn's audio file, as the aligner gives them. source
says where a word's times come from: "auto" (the aligner) for every word today; "corrected" is kept for
the boundaries an annotator will correct in GC_ANNOT.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from annotator.alignment.cache import Outcome, alignment_key, file_digest, read_kept
from annotator.alignment.outcome import AlignedWord, NotAligned
from annotator.alignment.turns import TurnToAlign, turn_to_align
from annotator.export.csv_cells import csv_line, text_cell
from annotator.log.audio_refs import AudioResolver
from annotator.log.elements import Session

WORD_COLUMNS = ["session_id", "turn_id", "speaker", "word_index", "word", "start", "end", "score", "source"]
AUTO = "auto"  # placed by the aligner
CORRECTED = "corrected"  # a boundary an annotator moved (GC_ANNOT): none can be made yet


@dataclass
class TurnWords:
    """One aligned turn's words, for the exports that place them (words.csv, the words tiers)."""

    turn: TurnToAlign
    words: list[AlignedWord]
    source: str = AUTO


@dataclass
class FileWords:
    """What one log adds to words.csv, and what it could not add: picklable, made where its rows are."""

    turns: list[TurnWords]
    missing: int = 0  # turns with audio and words that the cache holds no alignment for: `annotator align` makes them
    unalignable: int = 0  # turns the aligner could not place, or with no audio to place them on

    @property
    def n_words(self) -> int:
        return sum(len(turn.words) for turn in self.turns)


def kept_words(turns: Iterable[TurnToAlign], cache_file: Path | None) -> FileWords:
    """The words the cache in CACHE_FILE holds for TURNS (in order). No cache file: nothing is aligned,
    and no audio is read to find out."""
    turns = list(turns)
    have_cache = cache_file is not None and cache_file.is_file()
    digests: dict[Path, str | None] = {}
    keys: list[str | None] = []
    for turn in turns:
        if turn.audio is None or not have_cache:
            keys.append(None)
            continue
        if turn.audio not in digests:
            try:
                digests[turn.audio] = file_digest(turn.audio)
            except OSError:
                digests[turn.audio] = None
        digest = digests[turn.audio]
        keys.append(None if digest is None else alignment_key(digest, turn.text or ""))
    kept: dict[str, Outcome] = read_kept(cache_file, [key for key in keys if key is not None]) if have_cache else {}
    found = FileWords([])
    for turn, key in zip(turns, keys):
        outcome = kept.get(key) if key is not None else None
        if isinstance(outcome, list):
            found.turns.append(TurnWords(turn, outcome))
        elif isinstance(outcome, NotAligned) or turn.audio is None:
            found.unalignable += 1
        else:
            found.missing += 1
    return found


def sessions_words(
    sessions: list[Session], resolver: AudioResolver, cache_file: Path | None
) -> list[dict[int, TurnWords]]:
    """For each of SESSIONS, its aligned turns' words by turn index (one query of the cache for them all)."""
    placed: list[tuple[int, int, TurnToAlign]] = []
    for number, session in enumerate(sessions):
        for index, turn in enumerate(session.turns):
            found = turn_to_align(session.id, turn.id, turn.facts(), resolver)
            if found is not None:
                placed.append((number, index, found))
    aligned = {id(words.turn): words for words in kept_words([turn for _, _, turn in placed], cache_file).turns}
    by_session: list[dict[int, TurnWords]] = [{} for _ in sessions]
    for number, index, to_align in placed:
        if id(to_align) in aligned:
            by_session[number][index] = aligned[id(to_align)]
    return by_session


def word_lines(words: FileWords) -> bytes:
    """The words.csv lines of WORDS (UTF-8): times to the millisecond, scores to three decimals, so that
    the same alignments are the same bytes."""
    lines = []
    for turn in words.turns:
        session, turn_id, speaker = text_cell(turn.turn.session_id), text_cell(turn.turn.turn_id), turn.turn.speaker
        for index, word in enumerate(turn.words):
            cells = [session, turn_id, speaker, str(index), text_cell(word.text)]
            cells += [f"{word.start:.3f}", f"{word.end:.3f}", f"{word.score:.3f}", turn.source]
            lines.append(csv_line(cells))
    return "".join(lines).encode("utf-8")
