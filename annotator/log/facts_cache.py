"""Each turn's facts, made once per turn per change: what the turn table, the metrics, the exports
and the timeline read instead of walking the tree again.

One FactsCache belongs to one LogDocument and is its first listener (docs/events.md), so every
consumer that hears a change reads facts already brought up to date. A turn's TurnFacts
(annotator.log.turn_facts, with the session-level transcription added) are made on first
request and kept until an AnnotationChange names that turn: a transcription change forgets the
facts of the turns it can affect (the turn, and any turn sharing its id, whose session-level
transcription may have been removed); a concepts, flags, comment or time spent change forgets its
own turn's; a task completion or review changes no turn's facts. Values derived from a turn's facts (its WER counts) are kept beside them
under a name and forgotten with them.
A load or reload makes a new document, and with it a new cache.

Per session the cache also keeps the indices of the user turns still to transcribe (in order),
so that finding the next one and counting the progress cost no walk over 70,000 turns; values made
from a whole session's facts that no annotation can change (the doubt scores) are kept for the
cache's life, and so are orders of the session's turns (most doubtful first), each with how far
its head is known to be transcribed, so that the first turn still to transcribe in that order is
found in amortised constant time, and an undone transcription puts its turn back in the order.

Cached TurnFacts are shared: read them, never change them.
"""

from __future__ import annotations

import threading
from bisect import bisect_right, insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from lxml import etree

from annotator.log import turn_facts
from annotator.log.flags import TURN_NOTES
from annotator.log.text import clean_text
from annotator.log.turn_facts import TurnFacts
from annotator.log.turn_ids import TurnKey, turn_key

if TYPE_CHECKING:
    from annotator.log.document import AnnotationChange
    from annotator.log.elements import Session, Turn


class _SessionFacts:
    """The cached facts of one session's turns."""

    __slots__ = (
        "session",
        "facts",
        "derived",
        "whole",
        "rankings",
        "_session_level",
        "_untranscribed",
        "_turns_by_key",
        "users",
        "watches",
    )

    def __init__(self, session: Session):
        self.session = session
        self.facts: list[TurnFacts | None] = [None] * len(session.turns)
        self.derived: dict[str, dict[int, Any]] = {}
        self.whole: dict[str, Any] = {}  # name -> a value of the whole session that no annotation changes
        self.rankings: dict[str, _Ranking] = {}
        self._session_level: dict[TurnKey | None, list[etree._Element]] | None = None
        self._untranscribed: list[int] | None = None
        self._turns_by_key: dict[TurnKey | None, list[int]] | None = None
        self.users = 0  # user turns, counted with _untranscribed (no change moves it)
        self.watches: list[set[int]] = []  # of FactsCache.make_session_facts: the turns forgotten during its walk

    def session_level(self) -> dict[TurnKey | None, list[etree._Element]]:
        """Turn key -> the session-level GC_ANNOTs holding a transcription for it, in document order."""
        if self._session_level is None:
            index: dict[TurnKey | None, list[etree._Element]] = {}
            for el in self.session.el.iterchildren("GC_ANNOT"):
                if turn_facts.transcription_data(el) is not None:
                    index.setdefault(turn_key(el.get("turnid")), []).append(el)
            self._session_level = index
        return self._session_level

    def session_level_annotation(self, key: TurnKey | None) -> etree._Element | None:
        found = self.session_level().get(key)
        return found[0] if found else None

    def turn_facts(self, turn: Turn) -> TurnFacts:
        facts = self.facts[turn.index]
        if facts is None:
            facts = turn_facts.scan_turn(turn.el)
            if facts.transcription is None:
                el = self.session_level_annotation(turn.key)
                if el is not None:
                    data = turn_facts.transcription_data(el)
                    assert data is not None  # session_level() holds only annotations with a transcription
                    facts.transcription = clean_text(data.text)
            self.facts[turn.index] = facts
        return facts

    @property
    def complete(self) -> bool:
        """Every turn's facts and the index of turns to transcribe are made."""
        return self._untranscribed is not None and None not in self.facts

    def untranscribed(self) -> list[int]:
        if self._untranscribed is None:
            speakers = [(t.index, self.turn_facts(t)) for t in self.session.turns]
            self.users = sum(1 for _index, facts in speakers if facts.speaker == "user")
            self._untranscribed = [index for index, facts in speakers if _needs_transcription(facts)]
        return self._untranscribed

    def forget_turns_of_key(self, turn: Turn) -> None:
        """A transcription of TURN changed: forget what it can have changed."""
        key = turn.key
        if self._session_level is not None and key in self._session_level:
            still = [
                el
                for el in self._session_level[key]
                if el.getparent() is self.session.el and turn_facts.transcription_data(el) is not None
            ]
            if still:
                self._session_level[key] = still
            else:
                del self._session_level[key]
        for index in self.indices_of_key(key):
            self.forget_turn(index)
            if self._untranscribed is not None:
                self._update_untranscribed(index)

    def forget_turn(self, index: int) -> None:
        """A change inside the turn at INDEX alone (its reference concepts): forget its facts."""
        self.facts[index] = None
        for watch in self.watches:
            watch.add(index)
        for values in self.derived.values():
            values.pop(index, None)

    def indices_of_key(self, key: TurnKey | None) -> list[int]:
        if self._turns_by_key is None:
            by_key: dict[TurnKey | None, list[int]] = {}
            for t in self.session.turns:
                by_key.setdefault(t.key, []).append(t.index)
            self._turns_by_key = by_key
        return self._turns_by_key.get(key, [])

    def _update_untranscribed(self, index: int) -> None:
        needs = _needs_transcription(self.turn_facts(self.session.turns[index]))
        untranscribed = self._untranscribed
        assert untranscribed is not None, "updated only once made"
        at = bisect_right(untranscribed, index)
        listed = at > 0 and untranscribed[at - 1] == index
        if needs and not listed:
            insort(untranscribed, index)
        elif listed and not needs:
            del untranscribed[at - 1]
        if needs:
            for ranking in self.rankings.values():
                ranking.reopen(index)


class _Ranking:
    """Turn indices in an order of their own, and the position before which every one is transcribed."""

    __slots__ = ("order", "position", "start")

    def __init__(self, order: list[int]):
        self.order = order
        self.position = {index: at for at, index in enumerate(order)}
        self.start = 0

    def reopen(self, index: int) -> None:
        """INDEX needs a transcription again: the search starts no later than its place."""
        at = self.position.get(index)
        if at is not None and at < self.start:
            self.start = at


def facts_of_session(session: Session) -> list[TurnFacts]:
    """Each turn's facts of SESSION, its session-level transcription included (what FactsCache.facts makes),
    made from the tree without reading or filling any cache: for a walk off the GUI thread, whose facts
    are kept only through FactsCache.adopt or make_session_facts."""
    return with_session_level(session, [turn_facts.scan_turn(turn.el) for turn in session.turns])


def with_session_level(session: Session, facts: list[TurnFacts]) -> list[TurnFacts]:
    """FACTS (of SESSION's turns in order, each as turn_facts.scan_turn makes it) with the session-level
    transcription given to every turn without one of its own. Read once the session is complete: the
    session-level annotations may follow the turns they name."""
    session_level = turn_facts.session_transcriptions(session.el)
    for turn, made in zip(session.turns, facts):
        if made.transcription is None:
            made.transcription = session_level.get(turn.key)
    return facts


def _needs_transcription(facts: TurnFacts) -> bool:
    return facts.speaker == "user" and facts.transcription is None


class FactsCache:
    """The facts of every turn of one document, kept until a change names the turn."""

    def __init__(self) -> None:
        self._sessions: dict[int, _SessionFacts] = {}
        # adopt() may run on a worker (a session's panes made after the first paint) while the GUI thread
        # edits: the revision check and the adoption must not interleave with a change's forgetting.
        self._adopting = threading.Lock()

    def clear(self) -> None:
        """Forget every session's facts (LogDocument.release)."""
        self._sessions.clear()

    def _of(self, session: Session) -> _SessionFacts:
        cached = self._sessions.get(session.index)
        if cached is None or cached.session is not session:
            cached = self._sessions[session.index] = _SessionFacts(session)
        return cached

    def facts(self, turn: Turn) -> TurnFacts:
        """The turn's facts, its session-level transcription included (shared: do not change them)."""
        return self._of(turn.session).turn_facts(turn)

    def adopt(self, session: Session, facts: list[TurnFacts], revision: int) -> None:
        """Keep FACTS (one per turn of SESSION, made by a walk of the session at the document's REVISION:
        annotator.analysis.metrics_scan.SessionPass) for the turns whose facts are not made yet, so that
        the metrics' walk and the views' requests read the session once, not twice; nothing when the
        document has changed since (the walk may have read a turn before its change)."""
        with self._adopting:
            cached = self._of(session)
            if session.document.revision != revision or len(facts) != len(cached.facts):
                return
            for index, made in enumerate(facts):
                if cached.facts[index] is None:
                    cached.facts[index] = made

    def make_session_facts(self, session: Session) -> list[TurnFacts]:
        """Make every turn's facts of SESSION and its index of turns to transcribe on a worker, while the GUI
        thread may edit the session and read the cache: the facts are made without the cache
        (facts_of_session), then kept under the lock for every turn whose facts are still unmade and that no
        change named during the walk (the walk may have read it before its change); the index is then made
        under the same lock, making again from the tree only the turns left out. Returns the facts the walk
        made (as of the walk: for values no annotation changes, such as the doubts)."""
        named: set[int] = set()
        with self._adopting:
            cached = self._of(session)
            if cached.complete:
                return cast("list[TurnFacts]", list(cached.facts))  # complete: no None left
            cached.watches.append(named)
        try:
            made = facts_of_session(session)
            with self._adopting:
                for index, facts in enumerate(made):
                    if cached.facts[index] is None and index not in named:
                        cached.facts[index] = facts
                cached.untranscribed()
        finally:
            with self._adopting:
                cached.watches.remove(named)
        return made

    def untranscribed_ready(self, session: Session) -> bool:
        """Whether SESSION's index of turns to transcribe is made: untranscribed() and user_turn_count() cost
        nothing then (otherwise they make every turn's facts)."""
        cached = self._sessions.get(session.index)
        return cached is not None and cached.session is session and cached._untranscribed is not None

    def session_facts(self, session: Session) -> list[TurnFacts]:
        cached = self._of(session)
        return [cached.turn_facts(turn) for turn in session.turns]

    def session_level_annotation(self, session: Session, key: TurnKey | None) -> etree._Element | None:
        """The first session-level GC_ANNOT holding a transcription for the turn with KEY."""
        return self._of(session).session_level_annotation(key)

    def derived(self, turn: Turn, name: str, compute: Callable[[Turn, TurnFacts], Any]) -> Any:
        """COMPUTE(turn, facts) made once and kept under NAME until the turn's facts change."""
        cached = self._of(turn.session)
        values = cached.derived.setdefault(name, {})
        if turn.index not in values:
            values[turn.index] = compute(turn, cached.turn_facts(turn))
        return values[turn.index]

    def session_derived(self, session: Session, name: str, compute: Callable[[list[TurnFacts]], Any]) -> Any:
        """COMPUTE(the facts of every turn of SESSION), made once and kept under NAME for the cache's life:
        only for values no annotation can change."""
        cached = self._of(session)
        if name not in cached.whole:
            cached.whole[name] = compute([cached.turn_facts(turn) for turn in session.turns])
        return cached.whole[name]

    def offer_session_value(self, session: Session, name: str, value: Any) -> None:
        """Keep VALUE under NAME for SESSION unless one is kept already: a value session_derived would make
        (no annotation can change it), made from the session's facts on a worker."""
        with self._adopting:
            self._of(session).whole.setdefault(name, value)

    def first_untranscribed_in(
        self, session: Session, name: str, rank: Callable[[], list[int]], besides: int | None = None
    ) -> int | None:
        """The first turn still to transcribe in the order RANK() gives (turn indices of SESSION, asked once
        and kept under NAME), other than BESIDES unless no other is left; None when none is left."""
        cached = self._of(session)
        cached.untranscribed()  # the index that reopens the rankings
        ranking = cached.rankings.get(name)
        if ranking is None:
            ranking = cached.rankings[name] = _Ranking(rank())
        order, turns = ranking.order, session.turns
        while ranking.start < len(order) and not _needs_transcription(cached.turn_facts(turns[order[ranking.start]])):
            ranking.start += 1
        found = None
        for at in range(ranking.start, len(order)):
            index = order[at]
            if _needs_transcription(cached.turn_facts(turns[index])):
                if index != besides:
                    return index
                found = index
        return found

    def index_turn_keys(self, session: Session) -> None:
        """Make SESSION's index of turn ids (turns_sharing_key's) now, e.g. on a worker before the first edit."""
        self._of(session).indices_of_key(None)

    def turns_sharing_key(self, turn: Turn) -> list[Turn]:
        """TURN and the other turns of its session with the same id (what its transcription can affect)."""
        session = turn.session
        return [session.turns[index] for index in self._of(session).indices_of_key(turn.key)]

    def untranscribed(self, session: Session) -> list[int]:
        """Indices of the session's user turns without a transcription, in order (do not change the list)."""
        return self._of(session).untranscribed()

    def user_turn_count(self, session: Session) -> int:
        cached = self._of(session)
        cached.untranscribed()
        return cached.users

    def on_change(self, change: AnnotationChange) -> None:
        with self._adopting:
            self._forget(change)

    def _forget(self, change: AnnotationChange) -> None:
        if change.kind == "transcription" and change.turn is not None:
            cached = self._sessions.get(change.session.index)
            if cached is not None:
                cached.forget_turns_of_key(change.turn)
        elif (change.kind == "concepts" or change.kind in TURN_NOTES) and change.turn is not None:
            cached = self._sessions.get(change.session.index)
            if cached is not None:
                cached.forget_turn(change.turn.index)
