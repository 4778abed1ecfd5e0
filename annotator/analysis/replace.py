"""Replacing text in transcriptions: plan every change of a log first (so it can be shown, and some
left out), then apply the chosen ones through the one annotation writer.

Only transcriptions are replaced: the recognizer's text, the system's prompt and the parse are
what the log recorded, never the annotator's to change. With a plain query the replacement is
taken literally; with a regular expression it may name groups (\\1, \\g<name>), as re.sub does.
A transcription the replacement leaves blank is removed, as clearing it in the editor does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from annotator.analysis.search import Query, SearchError, matches
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from annotator.log.elements import Turn
from annotator.log.text import clean_text
from annotator.user_patterns import TEMPLATE_ERRORS, UserPattern


@dataclass(frozen=True)
class PlannedChange:
    """One turn's transcription, before and after (None after: the transcription goes)."""

    file: Path
    session_id: str
    session_index: int
    turn_id: str
    turn_index: int
    before: str
    after: str | None

    def turn_in(self, document: LogDocument) -> Turn:
        return document.sessions[self.session_index].turns[self.turn_index]

    def describe(self) -> str:
        after = "(removed)" if self.after is None else repr(self.after)
        return f"{self.file}: session {self.session_id}, turn {self.turn_id}: {self.before!r} -> {after}"


def replaced(pattern: UserPattern, regex: bool, replacement: str, text: str) -> str:
    """TEXT with every non-empty match replaced; SearchError for a replacement naming a missing group."""
    template = replacement if regex else replacement.replace("\\", "\\\\")
    pieces: list[str] = []
    at = 0
    try:
        for found in pattern.finditer(text):
            if found.end() > found.start():
                pieces += [text[at : found.start()], found.expand(template)]
                at = found.end()
    except TEMPLATE_ERRORS as error:
        raise SearchError(f"bad replacement {replacement!r}: {error}") from None
    return "".join(pieces) + text[at:]


def plan_replacements(document: LogDocument, query: Query, replacement: str) -> list[PlannedChange]:
    """Every transcription of DOCUMENT the replacement changes, in log order."""
    return plan_over(transcriptions(document), query, replacement)


def transcriptions(document: LogDocument, *, walked: bool = False) -> list[PlannedChange]:
    """Each transcribed turn of DOCUMENT as a change to nothing yet (after = before): what a plan reads from
    the document. WALKED: read off the GUI thread while that thread may edit (FactsCache.make_session_facts)."""
    cache = document.facts_cache
    return [
        PlannedChange(
            document.path, session.id, session.index, turn.id, turn.index, facts.transcription, facts.transcription
        )
        for session in document.sessions
        for turn, facts in zip(
            session.turns, cache.make_session_facts(session) if walked else session.turn_facts(), strict=True
        )
        if facts.transcription
    ]


def plan_over(
    turns: list[PlannedChange], query: Query, replacement: str, cancelled: Callable[[], bool] = lambda: False
) -> list[PlannedChange]:
    """The changes the replacement makes to TURNS' transcriptions (their befores); those so far once CANCELLED."""
    pattern = query.pattern()
    changes: list[PlannedChange] = []
    for turn in turns:
        if cancelled():
            break
        before = turn.before
        if next(matches(pattern, before), None) is None:
            continue
        after = clean_text(replaced(pattern, query.regex, replacement, before)) or None
        if after != before:
            changes.append(replace(turn, after=after))
    return changes


def apply_changes(document: LogDocument, changes: list[PlannedChange], *, undo: bool = False) -> int:
    """Set each change's after (with UNDO, its before) through the annotation writer; the count set.

    A transcription that is no longer the planned before (edited since the plan) stops the apply
    with SearchError before anything is changed."""
    if not undo:
        check_plan(document, changes)
    done = 0
    for change in reversed(changes) if undo else changes:
        done += set_transcription(change.turn_in(document), change.before if undo else change.after)
    return done


def check_plan(document: LogDocument, changes: list[PlannedChange]) -> None:
    """SearchError naming the first change whose transcription is no longer its planned before."""
    for change in changes:
        if change.turn_in(document).transcription != change.before:
            raise SearchError(
                f"{change.file}: session {change.session_id}, turn {change.turn_id}: "
                "the transcription changed since the replacement was planned"
            )
