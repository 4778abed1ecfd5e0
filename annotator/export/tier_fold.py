"""Read a TextGrid or EAF back into annotations for the fold: what was typed in Praat or ELAN.

    annotations = read_annotations_for(Path("s1.TextGrid"), docs)   # then fold_many(docs, annotations)

The file's `turns` tier says which session it is: the session of DOCS whose turns (the tier
annotator.export.session_tiers makes of it) have the same labels in the same order, at times
within TOLERANCE_MS; where several sessions have, the one the file names (an EAF's property, else
the file's name) or else an error. Each non-empty interval of the `transcription` tier becomes the
transcription of the one user turn it covers, each of the `concepts` tier (where there is one)
its reference concepts; no other tier is read. Anything that does not fit is an
AnnotationFileError of one line naming the file, the tier and the time, raised before anything
is folded: a missing tier, two tiers of a name read here (which one holds the typing is not clear),
a file of another session, an interval that covers no user turn or two, bounds more than
TOLERANCE_MS from the turn's. Any other file is read by
annotator.annotation_files.fold.read_annotations.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import NoReturn

from annotator.annotation_files.annotation_set import AnnotationSet, session_refs_of, turn_refs_of
from annotator.annotation_files.fold import read_annotations
from annotator.errors import AnnotationFileError
from annotator.export.eaf_file import read_eaf_tiers
from annotator.export.session_tiers import (
    CONCEPTS,
    TRANSCRIPTION,
    TURNS,
    Interval,
    SessionTiers,
    parse_concepts_text,
    session_tiers,
)
from annotator.export.textgrid_file import read_textgrid_tiers
from annotator.export.tier_list import same_name
from annotator.log.concepts import Concepts, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.timeline.data import build_timeline

TOLERANCE_MS = 10
TIER_FILE_SUFFIXES = (".textgrid", ".eaf")


def read_annotations_for(path: Path, docs: list[LogDocument]) -> AnnotationSet:
    """The annotations of PATH for folding into DOCS: a TextGrid or EAF (by suffix) read against the
    sessions of DOCS, any other file as read_annotations reads it."""
    return TierFileReader(docs).read(path)


class TierFileReader:
    """Reads annotation files against the sessions of DOCS, whose tiers are made once for them all
    (a fold of a corpus with a TextGrid per session makes each session's tiers once, not once a file)."""

    def __init__(self, docs: list[LogDocument]):
        self.docs = docs
        self._by_turns: dict[tuple[str, ...], list[tuple]] | None = None  # turns tier labels -> candidates

    def read(self, path: Path) -> AnnotationSet:
        path = Path(path)
        if path.suffix.lower() not in TIER_FILE_SUFFIXES:
            return read_annotations(path)
        if path.suffix.lower() == ".eaf":
            tiers, named = read_eaf_tiers(path)
        else:
            tiers, named = read_textgrid_tiers(path), None
        twice = same_name([(tier.position, tier.name) for tier in tiers], (TURNS, TRANSCRIPTION, CONCEPTS))
        if twice is not None:  # read by name, one of them would be folded and the other dropped without a word
            raise AnnotationFileError(f"{path}: {twice}: which one to fold is not clear; nothing was folded")
        for tier in tiers:
            if tier.refers_to is not None and tier.name in (TURNS, TRANSCRIPTION, CONCEPTS):
                raise AnnotationFileError(
                    f"{path}: tier {tier.name}: its annotations refer to tier {tier.refers_to or '(none)'}'s and have "
                    "no times of their own; make it a time-aligned tier; nothing was folded"
                )
        return _Reader(path, {t.name: t.intervals for t in tiers if t.refers_to is None}, named).annotations(self)

    def sessions_by_turns(self) -> dict[tuple[str, ...], list[tuple]]:
        """(ref, session, tiers) of every session of the logs, by the labels of its turns tier."""
        if self._by_turns is None:
            self._by_turns = {}
            refs = session_refs_of([session for doc in self.docs for session in doc.sessions])
            for ref, session in refs.items():
                tiers = session_tiers(session, build_timeline(session))
                labels = tuple(i.text.strip() for i in tiers.tiers[TURNS])  # a turn without id: "user"
                self._by_turns.setdefault(labels, []).append((ref, session, tiers))
        return self._by_turns


class _Reader:
    def __init__(self, path: Path, tiers: dict[str, list[Interval]], named_session: str | None):
        self.path, self.tiers, self.named_session = path, tiers, named_session
        self.session: Session | None = None  # the session the file's turns tier matches

    def annotations(self, logs: TierFileReader) -> AnnotationSet:
        for name in (TURNS, TRANSCRIPTION):
            if name not in self.tiers:
                self._fail(name, None, f"missing (the file has {', '.join(self.tiers) or 'no interval tier'})")
        ref, session, expected = self._session(logs.sessions_by_turns())
        self.session = session
        turn_refs = {index: turn_ref for turn_ref, index in turn_refs_of(ref, session)}
        found = AnnotationSet()
        for tier in (TRANSCRIPTION, CONCEPTS):
            for interval in self.tiers.get(tier, []):
                index = self._user_turn(tier, interval, expected)
                turn = session.turns[index]
                if index not in turn_refs:
                    self._fail(tier, interval.start, f"the user turn of line {turn.line} has no id to fold into")
                occurrences = {"session_occurrence": ref.occurrence, "turn_occurrence": turn_refs[index].occurrence}
                if tier == TRANSCRIPTION:
                    found.add_transcription(ref.id, turn.id, interval.text, **occurrences)
                else:
                    found.add_concepts(ref.id, turn.id, self._concepts(interval, turn), **occurrences)
        return found

    def _concepts(self, interval: Interval, turn: Turn) -> Concepts:
        """The interval's `slot=value; ...` in the frame the turn's reference or parse names."""
        facts = turn.facts()
        frame = next((c.frame for c in (reference_concepts(facts), parsed_concepts(facts)) if c is not None), "")
        try:
            return parse_concepts_text(interval.text, frame)
        except ValueError as error:
            self._fail(CONCEPTS, interval.start, str(error))

    def _session(self, by_turns: dict[tuple[str, ...], list[tuple]]) -> tuple:
        """The one candidate (ref, session, tiers) whose turns the file's turns tier matches."""
        given = self.tiers[TURNS]
        same = by_turns.get(tuple(interval.text.strip() for interval in given), [])
        if not same:
            self._another_session(given, [c for candidates in by_turns.values() for c in candidates])
        if len(same) > 1:
            named = [c for c in same if self._names(c[1])]
            if len(named) != 1:
                ids = ", ".join(str(c[0]) for c in same)
                self._fail(TURNS, None, f"the turns of several sessions ({ids}); fold into their logs one at a time")
            same = named
        ref, session, expected = same[0]
        for have, want in zip(given, expected.tiers[TURNS]):
            self._check_bounds(TURNS, have, want, f"turn {want.text}")
        return ref, session, expected

    def _names(self, session: Session) -> bool:
        if self.named_session is not None:
            return self.named_session == session.id
        return _plain(session.id) in _plain(self.path.stem)

    def _another_session(self, given: list[Interval], candidates: list[tuple]) -> None:
        """Fail at the first turn where the file parts from the session it is closest to."""

        def agreeing(candidate) -> int:
            want = candidate[2].tiers[TURNS]
            pairs = zip(given, want)
            return next(
                (n for n, (a, b) in enumerate(pairs) if a.text.strip() != b.text.strip()), min(len(given), len(want))
            )

        if not candidates:
            self._fail(TURNS, None, "the logs have no session to fold into")
        closest = max(candidates, key=agreeing)
        at = agreeing(closest)
        want = closest[2].tiers[TURNS]
        if at >= len(given):
            self._fail(
                TURNS,
                want[at].start,
                f"the file ends after {len(given)} turn(s), session {closest[0]} has "
                f"{len(want)}: a file of another session",
            )
        wanted = repr(want[at].text.strip()) if at < len(want) else f"only {len(want)} turn(s)"
        self._fail(
            TURNS,
            given[at].start,
            f"{given[at].text.strip()!r} where session {closest[0]} has {wanted}: a file of another session",
        )

    def _user_turn(self, tier: str, interval: Interval, expected: SessionTiers) -> int:
        """The index of the one user turn INTERVAL covers, its bounds within the tolerance."""
        assert self.session is not None, "annotations() finds the session before the intervals"
        users = expected.user_turns  # in time order, none overlapping: starts and ends both sorted
        first = bisect_right(expected.user_ends, interval.start)
        covered = []
        for want, index in users[first : bisect_left(expected.user_starts, interval.end, lo=first)]:
            if min(want.end, interval.end) - max(want.start, interval.start) > TOLERANCE_MS or (
                want.start,
                want.end,
            ) == (interval.start, interval.end):
                covered.append((want, index))
                if len(covered) == 2:
                    break
        if not covered:
            self._fail(tier, interval.start, f"{_clip(interval.text)!r} covers no user turn")
        if len(covered) > 1:
            names = " and ".join(self.session.turns[index].id for _, index in covered)
            self._fail(tier, interval.start, f"{_clip(interval.text)!r} covers two user turns ({names})")
        want, index = covered[0]
        self._check_bounds(tier, interval, want, f"user turn {self.session.turns[index].id}")
        return index

    def _check_bounds(self, tier: str, have: Interval, want: Interval, what: str) -> None:
        if abs(have.start - want.start) > TOLERANCE_MS or abs(have.end - want.end) > TOLERANCE_MS:
            self._fail(
                tier,
                have.start,
                f"{_span(have)} where {what} is {_span(want)}: the times are off by more than {TOLERANCE_MS} ms",
            )

    def _fail(self, tier: str, at_ms: int | None, problem: str) -> NoReturn:
        where = f"tier {tier}" + ("" if at_ms is None else f" at {at_ms / 1000:.3f} s")
        raise AnnotationFileError(f"{self.path}: {where}: {problem}; nothing was folded")


def _span(interval: Interval) -> str:
    return f"{interval.start / 1000:.3f}-{interval.end / 1000:.3f} s"


def _clip(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"


def _plain(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())
