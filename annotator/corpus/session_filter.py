"""The session browser's filter language: which sessions a text like "untranscribed 002" keeps.

- keywords (whole words, any case; longer phrases matched first), each keeping
  the sessions FILTER_KEYWORDS says, e.g. "untranscribed", "no task completion",
  "errors" (which keeps unreadable logs too);
- "mine" keeps the sessions the annotator is assigned in the corpus's assignment file
  (annotator.team.assign.ASSIGNMENT_FILE), else those holding their work (their own file);
  "double" those two or more annotators worked on, "disagreeing" those where two of them
  differ (annotator.team.disagreement);
- "marker:NAME" keeps the sessions where the marker applied at least once,
  "!marker:NAME" those where it did not (NAME with or without its "marker_" prefix);
- every other word must appear, in any case, in the file name as shown or in
  the session id.

A session is kept when it passes every part; an empty text keeps them all.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from annotator.corpus.scan import SessionSummary
from annotator.errors import AnnotatorError
from annotator.team.assign import ASSIGNMENT_FILE, read_assignment


def _has_untranscribed(s: SessionSummary) -> bool:
    return s.is_readable and s.n_untranscribed > 0


FILTER_KEYWORDS: dict[str, tuple[str, Callable[[SessionSummary], bool]]] = {
    "untranscribed": ("sessions with a user turn still to transcribe", _has_untranscribed),
    "no task completion": (
        "sessions whose task completion is not set",
        lambda s: s.is_readable and s.task_completion is None,
    ),
    "task completed": ("sessions annotated as completed", lambda s: s.task_completion == "1"),
    "task not completed": ("sessions annotated as not completed", lambda s: s.task_completion == "0"),
    "errors": ("sessions with validation errors, and unreadable logs", lambda s: s.n_errors > 0 or not s.is_readable),
    "warnings": ("sessions with validation warnings", lambda s: s.n_warnings > 0),
    "unreadable": ("logs that could not be read", lambda s: not s.is_readable),
    "mine": (
        "sessions assigned to me in the corpus's annotator-assignment.csv, else those I annotated in team mode",
        lambda s: False,
    ),  # decided by the query's MineTest, which knows who "me" is
    "double": ("sessions two or more annotators worked on (team mode)", lambda s: s.double),
    "disagreeing": (
        "sessions where two annotators' transcriptions (after WER normalisation) or task completion differ",
        lambda s: s.disagreeing,
    ),
    "flagged": (
        "sessions with a turn flagged inaudible, cross-talk, truncated, non-native or noise",
        lambda s: s.n_flagged > 0,
    ),
    "unreviewed": ("sessions nobody marked reviewed (Ctrl+Shift+R)", lambda s: s.is_readable and s.reviewer is None),
    "reviewed": ("sessions marked reviewed", lambda s: s.reviewer is not None),
}
MINE = "mine"
_KEYWORD_PATTERN = re.compile(
    r"(?<!\w)("
    + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in sorted(FILTER_KEYWORDS, key=len, reverse=True))
    + r")(?!\w)",
    re.IGNORECASE,
)
_MARKER_PATTERN = re.compile(r"(?<!\S)(!?)marker:(\S+)", re.IGNORECASE)


def parse_filter(text: str) -> tuple[list[str], list[str]]:
    """('untranscribed 002' ->) (['untranscribed'], ['002']): keywords found, and the other words."""
    keywords = [" ".join(match.lower().split()) for match in _KEYWORD_PATTERN.findall(text)]
    words = _KEYWORD_PATTERN.sub(" ", _MARKER_PATTERN.sub(" ", text)).lower().split()
    return keywords, words


def parse_marker_filter(text: str) -> list[tuple[str, bool]]:
    """('marker:task_failed !marker:help' ->) [('task_failed', True), ('help', False)]."""
    return [(name, not negated) for negated, name in _MARKER_PATTERN.findall(text)]


def _marker_applied(summary: SessionSummary, name: str) -> bool:
    for marker, count in summary.marker_counts:
        if marker == name or marker == f"marker_{name}":
            return count > 0
    return False


@dataclass(frozen=True)
class SessionQuery:
    """A parsed filter text."""

    keywords: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    markers: tuple[tuple[str, bool], ...] = ()

    @classmethod
    def parse(cls, text: str) -> SessionQuery:
        keywords, words = parse_filter(text)
        return cls(tuple(keywords), tuple(words), tuple(parse_marker_filter(text)))

    def matches(self, summary: SessionSummary, shown_name: str, mine: MineTest | None = None) -> bool:
        """Whether SUMMARY's session passes; SHOWN_NAME is its file's name as the list shows it
        (read only when the query has words); MINE says which sessions are the annotator's."""
        if not all(
            mine is not None and mine(summary) if keyword == MINE else FILTER_KEYWORDS[keyword][1](summary)
            for keyword in self.keywords
        ):
            return False
        if not all(_marker_applied(summary, name) == wanted for name, wanted in self.markers):
            return False
        if not self.words:
            return True
        haystack = f"{shown_name} {summary.session_id}".lower()
        return all(word in haystack for word in self.words)


class MineTest:
    """Which sessions are ANNOTATOR's: those the assignment file in CORPUS gives them when there is
    one (rows name the log relative to CORPUS and the session id), else those holding their work."""

    def __init__(self, corpus: Path | None, annotator: str):
        self.annotator = annotator
        self.corpus = corpus
        self.assigned: set[tuple[str, str]] | None = None
        self.problem: str | None = None  # why the assignment file was not used, when it was not
        path = corpus / ASSIGNMENT_FILE if corpus is not None else None
        if path is not None and path.is_file():
            try:
                self.assigned = {
                    (row.session.log, row.session.session_id)
                    for row in read_assignment(path)
                    if annotator in row.annotators
                }
            except AnnotatorError as error:
                self.problem = str(error)

    def __call__(self, summary: SessionSummary) -> bool:
        if self.assigned is None:
            return self.annotator in summary.annotators
        log = Path(os.path.relpath(summary.file, self.corpus)).as_posix()
        return (log, summary.session_id) in self.assigned
